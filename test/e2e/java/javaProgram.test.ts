// A Java program on the generated Java SDK (sdk/java), run by the real CLI through pulumi-java's
// language host (`runtime: java`), against the emulator. test/e2e/java is a Maven project: the SDK
// is installed from sdk/java into a copy of setup's Maven repository and the program packaged with
// Maven offline (support/java.ts), once; the host then runs the `binary` option's jar (`java -jar`,
// and `java -cp` for the plugins it needs) at each engine run instead of `mvn compile exec:java` —
// a JVM start per run, not a Maven build per run. The engine's PATH holds only the CLI, the host and
// the JDK's java (no Node), and the txmail plugin is its single executable, installed in the stack's
// Pulumi home as `pulumi plugin install` would. The program declares a Tenant, a key of its sub
// account, and a webhook and a suppression managed with its connection; it exports the key's
// secret and the webhook's. One up creates exactly those objects, a preview is a no-op that writes
// nothing, secrets stay ciphertext in state and out of all the engine and the program printed, and
// destroy leaves nothing.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects, type EmulatorControl } from "../../../support/control";
import { buildJavaProgram, javaToolsRoot } from "../../../support/java";
import { resolvable } from "../../../support/plugin";
import { startService, type TestService } from "../../../support/service";
import { byKind } from "../../../support/stackState";
import { createTestStack, type TestStack } from "../harness";

// Maven's offline builds and three JVM-hosted engine runs: about a minute on 2 cores.
jest.setTimeout(10 * 60_000);

/** The stack, the tenant (a component), its sub account, domain and bootstrap key, the CI key, the webhook and the suppression. */
const RESOURCES = 8;

let svc: TestService;
let control: EmulatorControl;
let tmp: string;
let t: TestStack;
/** The emulator's own objects (its parent account's key), there before the program ran. */
let baseline: Set<string>;

/** Every live service object the program made, by kind. */
async function objects(): Promise<Record<string, string[]>> {
  return byKind(serviceObjects(await control.dumpState()).filter((o) => !baseline.has(o.id)));
}

interface Exported {
  deployment: { resources?: Array<{ type: string; urn: string; outputs?: Record<string, unknown> }> };
}

/** A secret's value in `pulumi stack export --show-secrets`: `{ <sig>: …, plaintext: <its JSON> }`. */
function plaintext(v: unknown): string {
  const text = (v as { plaintext?: unknown } | undefined)?.plaintext;
  if (typeof text !== "string") throw new Error("not a decrypted secret in the exported state");
  return String(JSON.parse(text));
}

beforeAll(async () => {
  svc = await startService();
  control = controlClient(svc);
  baseline = new Set(serviceObjects(await control.dumpState()).map((o) => o.id));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-java-"));
  const started = Date.now();
  const program = await buildJavaProgram(__dirname, tmp);
  console.log(`Maven offline: SDK installed and program packaged in ${Date.now() - started} ms`);
  const tools = javaToolsRoot();
  const PATH = path.join(tools, "bin");
  expect(resolvable("node", PATH)).toEqual([]);
  t = await createTestStack({
    programDir: program,
    name: "java",
    toolsRoot: tools,
    plugin: "binary",
    env: { PATH },
    config: svc.config(),
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("a Java program on the generated SDK (runtime: java)", () => {
  let subAccountId = "";

  it("up creates the tenant's objects and the resources fed by its outputs, and exports their outputs", async () => {
    const up = await t.up();
    expect(up.summary.resourceChanges).toEqual({ create: RESOURCES });
    const d = await control.dumpState();
    const subs = d.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted");
    expect(subs.map((a) => [a.name, a.website])).toEqual([["javan", "javan.example.com"]]);
    subAccountId = subs[0]!.id;
    const keys = d.api_keys.filter((k) => k.account_id === subAccountId);
    expect(keys.map((k) => k.label).sort()).toEqual(["javan bootstrap", "javan ci"]);
    expect(d.webhooks.map((w) => [w.name, w.url, w.account_id])).toEqual([
      ["events", "https://javan.example.com/hooks/events", subAccountId],
    ]);
    expect(d.suppressions.map((s) => [s.email, s.account_id])).toEqual([["bounced@example.org", subAccountId]]);
    expect(await objects()).toEqual({
      SubAccount: [subAccountId],
      SubAccountApiKey: keys.map((k) => k.id).sort(),
      Domain: [d.domains[0]!.id],
      Webhook: [d.webhooks[0]!.id],
      Suppression: [d.suppressions[0]!.id],
    });
    expect(up.outputs).toEqual({
      subAccountId: { value: subAccountId, secret: false },
      dnsRecordCount: { value: expect.any(Number), secret: false },
      ciKeyLabel: { value: "javan ci", secret: false },
      ciKeySecret: { value: expect.any(String), secret: true },
      webhookSecret: { value: expect.any(String), secret: true },
      suppressedEmail: { value: "bounced@example.org", secret: false },
    });
    expect(up.outputs.dnsRecordCount!.value).toBeGreaterThan(0);
  });

  it("a preview is a no-op and writes nothing at the service", async () => {
    await control.resetCounters();
    const preview = await t.preview();
    expect(preview.changeSummary).toEqual({ same: RESOURCES });
    expect((await control.counters()).writes).toBe(0);
  });

  it("secrets are ciphertext in the state and appear in nothing the engine or the program printed", async () => {
    const revealed = JSON.parse(await t.exportText(true)) as Exported;
    const resources = revealed.deployment.resources ?? [];
    const secrets: Record<string, string> = { "the account's API key": svc.apiKey };
    for (const r of resources.filter((r) => r.type === "txmail:index:SubAccountApiKey"))
      secrets[`${r.urn}'s secretKey`] = plaintext(r.outputs?.secretKey);
    for (const r of resources.filter((r) => r.type === "txmail:index:Webhook"))
      secrets[`${r.urn}'s secret`] = plaintext(r.outputs?.secret);
    expect(Object.keys(secrets)).toHaveLength(4);
    for (const s of Object.values(secrets)) expect(s.length).toBeGreaterThan(10);
    const plain = await t.exportText();
    const printed = t.log();
    expect(printed).toContain("javan-ci"); // the engine's progress was captured
    // Names only: a failure must not print a secret.
    const leaks = (text: string) => Object.keys(secrets).filter((name) => text.includes(secrets[name]!));
    expect({ state: leaks(plain), printed: leaks(printed) }).toEqual({ state: [], printed: [] });
  });

  it("destroy leaves no object the program created", async () => {
    const destroy = await t.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: RESOURCES });
    expect(await objects()).toEqual({});
  });
});
