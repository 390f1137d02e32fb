// Proves the toolchain end to end with the real engine: the CLI tools/langhost/go.mod pins, our
// Node language host, the dynamic-provider plugin, a local backend and the passphrase provider.
// A trivial dynamic resource goes through create, update, refresh and destroy. A policy pack on the
// engine (a mandatory rule fails a preview, an advisory one only warns) is policy.test.ts's, with
// the product's pack.
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { createTestStack, REPO_ROOT, TOOLS_DIR, type TestStack } from "./harness";

jest.setTimeout(5 * 60_000);

const fixtures = path.join(__dirname, "..", "fixtures");
let t: TestStack;

beforeAll(async () => {
  t = await createTestStack({
    programDir: path.join(fixtures, "smoke-program"),
    name: "smoke",
    config: { greeting: { value: "hello" }, token: { value: "s3cr3t-t0ken", secret: true } },
  });
});

afterAll(() => t?.dispose());

describe("real Pulumi engine, offline", () => {
  it("runs the CLI tools/langhost/go.mod pins (pkg/v3), no older than the SDK", () => {
    const cli = execFileSync(path.join(TOOLS_DIR, "bin", "pulumi"), ["version"], { encoding: "utf8" }).trim();
    const goMod = fs.readFileSync(path.join(REPO_ROOT, "tools", "langhost", "go.mod"), "utf8");
    const pinned = /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/m.exec(goMod)?.[1];
    expect(cli).toBe(pinned);
    const sdk = (require("@pulumi/pulumi/package.json") as { version: string }).version;
    const numbers = (v: string) => v.replace(/^v/, "").split(".").map(Number) as [number, number, number];
    const [a, b] = [numbers(cli), numbers(sdk)];
    expect(a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] >= b[2]))).toBe(true);
  });

  it("creates a dynamic resource; config and secret config reach the program", async () => {
    const up = await t.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 }); // the stack and the resource
    expect(up.outputs.thingGreeting.value).toBe("hello");
    expect(up.outputs.tokenLength).toEqual({ value: 12, secret: true });
    expect(t.log()).toContain("+ 2 created");
  });

  it("updates it in place when its input changes, and refresh finds no drift", async () => {
    await t.stack.setConfig("greeting", { value: "hello again" });
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1, same: 1 });
    expect(up.outputs.thingLength.value).toBe(11);
    const refresh = await t.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).not.toHaveProperty("update");
  });

  it("keeps the secret config encrypted in state", async () => {
    expect(await t.exportText(false)).not.toContain("s3cr3t-t0ken");
  });

  it("destroys everything", async () => {
    const destroy = await t.destroy();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
  });
});
