// pulumi-txmail as users get it: installed in the program's node_modules (not linked to a checkout).
// In that layout Pulumi stores each resource's provider as a short `require(...)` of the package's
// per-kind module instead of the methods' source (provider/kinds/lazyProvider.ts) — the state the
// engine rewrites after every step stays small. Every kind and a Tenant go through up, no-op up,
// refresh and destroy, with the service's records checked.
import * as path from "node:path";
import { STACK_SALT_TYPE } from "../../sdk/nodejs/internal/stackSalt";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(5 * 60_000);

let svc: TestService;
let t: TestStack;
/** Objects the emulator starts with (its bootstrap key). */
let baseline: Set<string>;

beforeAll(async () => {
  svc = await startService();
  baseline = new Set(serviceObjects(await controlClient(svc).dumpState()).map((o) => o.id));
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "all"),
    name: "installed",
    config: svc.config(),
    packageLayout: "installed",
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

interface StateResource {
  type: string;
  sourcePosition?: string;
  stackTrace?: Array<{ sourcePosition?: string }>;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The txmail resources in state, and the stack's StackSalt (sdk/nodejs/internal/stackSalt.ts) when asked. */
async function txmailResources(withSalt = false): Promise<StateResource[]> {
  const state = JSON.parse(await t.exportText()) as { deployment: { resources?: StateResource[] } };
  return (state.deployment.resources ?? []).filter(
    (r) => r.type.startsWith("pulumi-nodejs:dynamic/txmail:") || (withSalt && r.type === STACK_SALT_TYPE),
  );
}

describe("installed package", () => {
  it("creates every kind and stores each provider as a require of the package", async () => {
    const up = await t.up();
    expect(up.summary.result).toBe("succeeded");
    const resources = await txmailResources();
    expect(new Set(resources.map((r) => r.type.split(":").pop()))).toEqual(
      new Set(["SubAccount", "SubAccountApiKey", "ApiKey", "Domain", "Route", "Webhook", "SmtpCredential"]),
    );
    for (const r of await txmailResources(true)) {
      for (const stored of [r.inputs?.__provider, r.outputs?.__provider]) {
        expect(typeof stored).toBe("string");
        const text = stored as string;
        const kindFile = r.type
          .split(":")
          .pop()!
          .replace(/^./, (c) => c.toLowerCase());
        expect(text).toMatch(new RegExp(`require\\("pulumi-txmail/(dist/)?provider/kinds/${kindFile}(\\.js)?"\\)`));
        expect(text).not.toContain("impl()"); // no method bodies copied by value
        expect(text.length).toBeLessThan(400);
      }
      // Registered where the program says so, with none of the package's frames (sdk/nodejs/internal/ownFrames.ts).
      expect(r.sourcePosition).toMatch(/^project:\/\/\/index\.ts#\d+,\d+$/);
      expect((r.stackTrace ?? []).filter((f) => f.sourcePosition?.includes("node_modules/pulumi-txmail"))).toEqual([]);
    }
  });

  it("changes nothing on a second up and on refresh", async () => {
    const again = await t.up();
    expect(Object.keys(again.summary.resourceChanges ?? {})).toEqual(["same"]);
    const refresh = await t.refresh();
    expect(Object.keys(refresh.summary.resourceChanges ?? {})).toEqual(["same"]);
  });

  it("destroys every object it created on the service", async () => {
    const created = () =>
      controlClient(svc)
        .dumpState()
        .then((d) => serviceObjects(d).filter((o) => !baseline.has(o.id)));
    expect(await created()).toHaveLength(14); // 7 direct + the tenant's sub account, 2 keys and 4 objects
    await t.destroy();
    expect(await created()).toEqual([]);
  });
});
