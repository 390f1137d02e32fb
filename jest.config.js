// Tests mirror the source tree: test/unit (pure logic), test/conformance (real HTTP against the
// emulator on loopback), test/e2e (the real Pulumi engine). ts-jest needs TypeScript < 7 (see README).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "test/tsconfig.json" }] },
  testTimeout: 30000,
};
