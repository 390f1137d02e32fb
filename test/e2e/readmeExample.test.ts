// When the README's first example's key allow list shuts out the machine running `pulumi up`, the
// 403 says so — and only that — instead of "a scope or the address, the service does not say which"
// (provider/core/forbidden.ts asks GET /v2/ping). The example as written (up, then destroy with
// nothing left) is userInstall.test.ts's, from the packed package as a user installs it, and the
// release rehearsal's TypeScript user's.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { readmeExample } from "./readme";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

/** A program directory holding `code` as index.ts (the harness copies it). */
function programWith(code: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-readme-"));
  const one = path.join(__dirname, "programs", "one");
  for (const f of ["package.json", "tsconfig.json"]) fs.copyFileSync(path.join(one, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: txmail-readme\nruntime: nodejs\nmain: index.ts\n");
  fs.writeFileSync(path.join(dir, "index.ts"), code);
  return dir;
}

let svc: TestService;
const stacks: TestStack[] = [];
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  await svc?.close();
});

async function stackFor(code: string, name: string): Promise<TestStack> {
  const s = await createTestStack({ programDir: programWith(code), name, config: svc.config() });
  stacks.push(s);
  return s;
}

describe("README example", () => {
  it("names the allow list, not a scope, when the tenant's key shuts out this machine", async () => {
    const example = readmeExample();
    const lockedOut = example.replace(/ipAllowList: \[[^\]]*\]/, 'ipAllowList: ["203.0.113.0/24"]');
    expect(lockedOut).not.toBe(example);
    const s = await stackFor(lockedOut, "lockout");
    const message = await s.up().then(
      () => "up passed",
      (e: unknown) => String(e),
    );
    expect(message).toMatch(/HTTP 403/);
    expect(message).toMatch(
      /The API key in use \(this resource's connection\.apiKey; for a Tenant's resources, the tenant's bootstrap key\) does not allow this machine's address/,
    );
    expect(message).toMatch(/Add this machine's address to that key's ipAllowList/);
    expect(message).not.toMatch(/lacks the scope|needs the scope|does not say which/);
    // The tenant's sub account and key exist; nothing was created with the refused key.
    const kinds = serviceObjects(await controlClient(svc).dumpState()).map((o) => o.kind);
    expect(kinds.filter((k) => k === "Domain" || k === "Webhook")).toEqual([]);
  });
});
