// `pulumi import` on the real engine, through the native provider, for every kind: objects made out
// of band in one emulator, the same objects created by a program in another, all nine imported by
// one `pulumi import --file` (the engine imports each entry as it imports one named on the command
// line, `pulumi import <type> <name> <id>`). After it
// the state holds what the create recorded (apart from ids, timestamps and the one-time secrets the
// service never shows again); the program that declares those objects then runs as a no-op, with
// no write reaching the service. A txmail-import-plan file imports a sub account's objects through its
// explicit provider. The `import` resource option for every kind is the acceptance run's native face
// (test/e2e/acceptance.test.ts: import 9, then a preview with 0 diffs), and the history tester's
// `import` command (test/histories/depths.test.ts at the engine depth: an object made out of band
// imported by id into the state that names it, then a preview with no change and no write).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { paths } from "../../../provider/api";
import { createClient } from "../../../provider/client";
import { z } from "zod";
import * as YAML from "yaml";
import { controlClient } from "../../../support/control";
import { REPO_ROOT, createTestStack, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(15 * 60_000);

const PROGRAM = path.join(__dirname, "..", "programs", "import");
const EXPIRES_AT = new Date(Date.now() + 30 * 86_400_000).toISOString();
const Any = z.record(z.string(), z.unknown());

/** Resource name → [kind, the import id a user types]. */
type Made = Record<string, [string, string]>;

let created: TestService; // where a program creates the objects
let outOfBand: TestService; // where they are made over HTTP, then imported
const stacks: TestStack[] = [];

beforeAll(async () => {
  [created, outOfBand] = await Promise.all([startService(), startService()]);
});

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await Promise.all([created?.close(), outOfBand?.close()]);
});

async function stack(svc: TestService, name: string, config: Record<string, { value: string; secret?: boolean }>) {
  const t = await createTestStack({
    programDir: PROGRAM,
    name,
    face: "native",
    config: { ...svc.config(), "txmail:face": { value: "native" }, expiresAt: { value: EXPIRES_AT }, ...config },
  });
  stacks.push(t);
  return t;
}

/** The project's CLI on the stack, to its end: exit code and what it printed. */
function cli(t: TestStack, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = t.spawnCli(args);
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The txmail resources of a stack's state by name: inputs and outputs, secrets decrypted. */
async function resources(t: TestStack): Promise<Record<string, { type: string; inputs: any; outputs: any }>> {
  const { deployment } = JSON.parse(await t.exportText(true)) as {
    deployment: { resources: Array<{ urn: string; type: string; inputs?: any; outputs?: any }> };
  };
  return Object.fromEntries(
    deployment.resources
      .filter((r) => r.type.startsWith("txmail:index:"))
      .map((r) => [r.urn.split("::").pop()!, { type: r.type, inputs: plain(r.inputs), outputs: plain(r.outputs) }]),
  );
}

/** State values with decrypted secrets (`{<sig>: <secret sig>, plaintext: <JSON>}`) as plain values. */
function plain(v: any): any {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== "object") return v;
  if ("plaintext" in v && Object.keys(v).length === 2) return plain(JSON.parse(v.plaintext));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}

/**
 * What two stacks on two accounts may legitimately differ in: ids and the account's id, the
 * service's timestamps, values it generates (a key's public part, an SMTP username, DKIM records),
 * and the one-time secrets, which an import cannot have (checked separately).
 */
const ACCOUNT_SPECIFIC =
  /^(id|.*Id|(?!expiresAt$).*At|accountId|publicKey|username|dnsRecords|secretKey|secret|password)$/;
const comparable = (props: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(props).filter(([k]) => !ACCOUNT_SPECIFIC.test(k) && !k.startsWith("__")));

/** Makes, over HTTP, the objects the program declares (test/e2e/programs/import/index.ts). */
async function makeOutOfBand(svc: TestService): Promise<Made> {
  const { client, accountId: a } = svc;
  const post = async (p: string, body: unknown) => (await client.post(p, body, Any)).data as any;
  const sub = await post(paths.subAccounts(a), { name: "Acme Corp", website: "acme.example.com" });
  const subKey = await post(paths.subAccountApiKeys(a, sub.id), { label: "bootstrap", scopes: ["domains:read"] });
  const key = await post(paths.apiKeys(a), { label: "ci", scopes: ["routes:read:all"], ip_allow_list: ["10.0.0.0/8"] });
  const domain = await post(paths.domains(a), { domain: "mail.acme.example.com" });
  const route = await post(paths.routes(a), {
    name: "inbound",
    url: "https://acme.example.com/in",
    recipient: "in@mail.acme.example.com",
  });
  const webhook = await post(paths.webhooks(a), {
    name: "events",
    url: "https://acme.example.com/hooks",
    on_bounced: true,
    scope: "global",
  });
  const smtp = await post(paths.smtpCredentials(a), {
    name: "relay",
    scope: "scoped",
    domains: ["mail.acme.example.com"],
  });
  const suppressed = await post(paths.suppressions(a), {
    email: "gone@acme.example.com",
    reason: "hard bounce",
    expires_at: EXPIRES_AT,
  });
  const member = await post(paths.members(a), { email: "dev@acme.example.com", role: "Developer" });
  return {
    "acme-corp": ["SubAccount", sub.id],
    "acme-corp-bootstrap": ["SubAccountApiKey", `${sub.id}/${subKey.id}`],
    ci: ["ApiKey", key.id],
    "mail-acme-example-com": ["Domain", domain.domain],
    inbound: ["Route", route.id],
    events: ["Webhook", webhook.id],
    relay: ["SmtpCredential", smtp.id],
    "suppression-gone-acme-example-com": ["Suppression", suppressed.data[0].id],
    dev: ["AccountMember", `dev@acme.example.com/${member.user_id}`],
  };
}

const ONE_TIME: Record<string, string> = {
  ApiKey: "secretKey",
  SubAccountApiKey: "secretKey",
  Route: "secret",
  Webhook: "secret",
  SmtpCredential: "password",
};

let made: Made;

/**
 * `pulumi import --file` of every object `made`, by the ids a user types, with the code it
 * generates written to `out`; asserts it succeeded and returns what it printed.
 */
async function importAll(t: TestStack, out: string): Promise<string> {
  const file = path.join(t.stateDir, "import-all.json");
  const resources = Object.entries(made).map(([name, [kind, id]]) => ({ type: `txmail:index:${kind}`, name, id }));
  fs.writeFileSync(file, JSON.stringify({ resources }));
  const r = await cli(t, ["import", "--file", file, "--yes", "--protect=false", "--out", out]);
  expect({ code: r.code, output: r.code === 0 ? "" : r.output }).toEqual({ code: 0, output: "" });
  return r.output;
}

describe("pulumi import of every kind", () => {
  let createdState: Awaited<ReturnType<typeof resources>>;
  let imported: TestStack;

  beforeAll(async () => {
    const creator = await stack(created, "import-created", {});
    const up = await creator.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 10 }); // 9 + the stack
    createdState = await resources(creator);
    made = await makeOutOfBand(outOfBand);
    imported = await stack(outOfBand, "import-cli", { declare: { value: "false" } });
    await imported.up();
  });

  it("imports each kind by the id a user types, into what a create records", async () => {
    const output = await importAll(imported, path.join(imported.stateDir, "imported.ts"));
    // The one-time secrets: said in the import's output, under each resource that has one.
    for (const kind of new Set(Object.values(made).map(([k]) => k)))
      if (ONE_TIME[kind])
        expect(output).toMatch(
          new RegExp(`warning: ${kind}: '${ONE_TIME[kind]}' is shown by the service only when the object is created`),
        );
    const state = await resources(imported);
    expect(Object.keys(state).sort()).toEqual(Object.keys(createdState).sort());
    for (const [name, [kind]] of Object.entries(made)) {
      const got = state[name]!;
      const want = createdState[name]!;
      expect({ name, type: got.type }).toEqual({ name, type: `txmail:index:${kind}` });
      expect({ name, outputs: comparable(got.outputs) }).toEqual({ name, outputs: comparable(want.outputs) });
      // What the program declared is among the imported inputs, with the same values.
      expect({ name, inputs: comparable(got.inputs) }).toMatchObject({ name, inputs: comparable(want.inputs) });
      const secret = ONE_TIME[kind];
      if (secret) {
        // Booleans only: a failure must not print a secret.
        const createdHasIt = typeof want.outputs[secret] === "string" && want.outputs[secret] !== "";
        expect({ name, createdHasIt, importedEmpty: got.outputs[secret] === "" }).toEqual({
          name,
          createdHasIt: true,
          importedEmpty: true,
        });
      }
    }
  });

  it("the TypeScript it prints compiles and, as the program, changes nothing and writes nothing", async () => {
    const programDir = path.join(imported.stateDir, "program");
    const handWritten = fs.readFileSync(path.join(programDir, "index.ts"), "utf8");
    const generated = fs.readFileSync(path.join(imported.stateDir, "imported.ts"), "utf8");
    // A whole program: its imports, then every resource.
    expect(generated).toMatch(/^import \* as txmail from "pulumi-txmail";$/m);
    for (const name of Object.keys(made)) expect(generated).toContain(`"${name}"`);
    const body = generated.replace(/^import .*;\n/gm, "");
    fs.writeFileSync(
      path.join(programDir, "index.ts"),
      `import * as pulumi from "@pulumi/pulumi";\nimport * as txmail from "pulumi-txmail";\n${body}`,
    );
    try {
      const tsc = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [
          path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"),
          "--noEmit",
          "-p",
          programDir,
        ]);
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("close", (code) => resolve({ code, output }));
      });
      expect(tsc).toEqual({ code: 0, output: "" });
      await imported.stack.setConfig("declare", { value: "false" }); // the hand-written program's switch: unused here
      const control = controlClient(outOfBand);
      await control.resetCounters();
      const up = await imported.up();
      expect(up.summary.resourceChanges).toEqual({ same: 10 });
      expect((await control.counters()).writes).toBe(0);
    } finally {
      fs.writeFileSync(path.join(programDir, "index.ts"), handWritten);
    }
  });

  it("the program declaring them then changes nothing and writes nothing", async () => {
    await imported.stack.setConfig("declare", { value: "true" });
    const control = controlClient(outOfBand);
    await control.resetCounters();
    const up = await imported.up();
    expect(up.summary.resourceChanges).toEqual({ same: 10 });
    expect((await control.counters()).writes).toBe(0);
    const state = await resources(imported);
    for (const name of Object.keys(made)) {
      expect({ name, inputs: comparable(state[name]!.inputs) }).toEqual({
        name,
        inputs: comparable(createdState[name]!.inputs),
      });
    }
  });
});

describe("the code pulumi import generates (Pulumi YAML)", () => {
  it("declares every kind so that the next up is a no-op", async () => {
    const t = await createTestStack({
      programDir: path.join(__dirname, "..", "programs", "import-yaml"),
      name: "import-yaml",
      config: outOfBand.config(),
    });
    stacks.push(t);
    await t.up();
    const program = path.join(t.stateDir, "program", "Pulumi.yaml");
    const out = path.join(t.stateDir, "imported.yaml");
    await importAll(t, out);
    const generated = (YAML.parse(fs.readFileSync(out, "utf8")) as { resources: Record<string, unknown> }).resources;
    // The generated code as it is, all of it in the program.
    fs.writeFileSync(
      program,
      YAML.stringify({ ...YAML.parse(fs.readFileSync(program, "utf8")), resources: generated }),
    );
    expect(Object.keys(generated).sort()).toEqual(Object.keys(made).sort());
    const control = controlClient(outOfBand);
    await control.resetCounters();
    const up = await t.up();
    expect(up.summary.resourceChanges).toEqual({ same: 10 });
    expect((await control.counters()).writes).toBe(0);
  });
});

describe("txmail-import-plan, then pulumi import --file", () => {
  it("imports a sub account's objects through its explicit provider; the declaring program is then a no-op", async () => {
    const { client, accountId: parent } = outOfBand;
    const post = async (p: string, body: unknown, c = client) => (await c.post(p, body, Any)).data as any;
    // A sub account with six objects, made with its own key (what the service requires).
    const sub = await post(paths.subAccounts(parent), { name: "Beta", website: "beta.example.com" });
    const scopes = ["domains", "routes", "webhooks", "smtp-credentials"].flatMap((f) =>
      f === "domains" ? ["domains:read", "domains:write"] : [`${f}:read:all`, `${f}:write:all`],
    );
    const key = await post(paths.subAccountApiKeys(parent, sub.id), {
      label: "ops",
      scopes: [...scopes, "suppressions:read", "suppressions:write", "accounts:members:read", "accounts:members:add"],
    });
    const own = createClient({
      apiKey: key.secret_key,
      accountId: sub.id,
      baseUrl: outOfBand.baseUrl,
      rateLimit: false,
    });
    const s = sub.id as string;
    await post(paths.domains(s), { domain: "mail.acme.example.com" }, own);
    await post(
      paths.routes(s),
      { name: "inbound", url: "https://acme.example.com/in", recipient: "in@mail.acme.example.com" },
      own,
    );
    await post(
      paths.webhooks(s),
      { name: "events", url: "https://acme.example.com/hooks", on_bounced: true, scope: "global" },
      own,
    );
    await post(paths.smtpCredentials(s), { name: "relay", scope: "scoped", domains: ["mail.acme.example.com"] }, own);
    await post(
      paths.suppressions(s),
      { email: "gone@acme.example.com", reason: "hard bounce", expires_at: EXPIRES_AT },
      own,
    );
    await post(paths.members(s), { email: "ops@acme.example.com", role: "Analyst" }, own);

    // The stack holds the sub account's provider (declared alone first), then imports the plan.
    const t = await stack(outOfBand, "import-plan", {
      declare: { value: "false" },
      subAccountKey: { value: key.secret_key, secret: true },
      subAccountId: { value: s },
      baseUrl: { value: outOfBand.baseUrl },
    });
    await t.up();
    const { deployment } = JSON.parse(await t.exportText()) as { deployment: { resources: Array<{ urn: string }> } };
    const providerUrn = deployment.resources
      .map((r) => r.urn)
      .find((u) => u.endsWith("::pulumi:providers:txmail::acme"))!;
    expect(providerUrn).toBeDefined();

    const plan = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [path.join(REPO_ROOT, "dist/native/importPlan/cli.js"), "--account", s, "--provider", `acme=${providerUrn}`],
        {
          env: { PATH: process.env.PATH ?? "", TXMAIL_API_KEY: key.secret_key, TXMAIL_BASE_URL: outOfBand.baseUrl },
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect({ code: plan.code, stderr: plan.stderr }).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/1 Domain, 1 Route, 1 Webhook, 1 SmtpCredential, 1 Suppression\./),
    });
    expect(plan.stderr).toMatch(/AccountMember skipped: \d+ member/);
    const file = path.join(t.stateDir, "import.json");
    fs.writeFileSync(file, plan.stdout);

    const r = await cli(t, ["import", "--file", file, "--yes", "--protect=false", "--generate-code=false"]);
    expect({ code: r.code, output: r.code === 0 ? "" : r.output }).toEqual({ code: 0, output: "" });
    expect(Object.keys(await resources(t)).sort()).toEqual([
      "events",
      "inbound",
      "mail-acme-example-com",
      "relay",
      "suppression-gone-acme-example-com",
    ]);

    await t.stack.setConfig("declare", { value: "true" });
    const control = controlClient(outOfBand);
    await control.resetCounters();
    const up = await t.up();
    expect(up.summary.resourceChanges).toEqual({ same: 7 }); // 5 + the provider + the stack
    expect((await control.counters()).writes).toBe(0);
  });
});
