// The e2e tests' harness: real-engine throwaway stacks and the engine's environment, from the
// checkout's support module (support/: stack.ts, engineEnv.ts, root.ts, …, shared with the
// benchmarks and the acceptance run), plus the faces a suite runs on.
export { REPO_ROOT, TOOLS_DIR } from "../../support/root";
export { PASSPHRASE, engineEnv, pulumiCommand } from "../../support/engineEnv";
export { installPackage } from "../../support/package";
export { createTestStack, faceEnv, type StackOptions, type TestStack } from "../../support/stack";

// The faces are the SDK's own (one declaration, in shipped code).
export { type Face, FACES } from "../../sdk/nodejs/internal/face";
