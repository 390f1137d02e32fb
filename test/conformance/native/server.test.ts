// The native provider's gRPC service (native/server.ts), driven as the engine drives a plugin,
// against the emulator on loopback: Configure hands it its settings, CheckConfig and DiffConfig
// answer, the detailed diff says what replaces, a Read without properties (`pulumi import`) returns
// inputs, secrets leave in the wire's secret form, and the provider's stack salt is in the keys.
import { saidOnStderr } from "../../../support/stderr";
import * as fs from "node:fs";
import * as path from "node:path";
import { Route, paths } from "../../../provider/api";
import { closeSharedDispatchers, createClient, type TxmailClient } from "../../../provider/client";
import { SECRET_SIG, SIG_KEY } from "../../../provider/core/secretMarks";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";
import { serve } from "../../../native/server";
import type * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { canonicalBody } from "../../../provider/core/operations/createForm";
import { createKey } from "../../../provider/core/operations/createKey";
import { route as routeSpec } from "../../../provider/resources/route";
import { ProviderClient, secret, urnOf } from "./providerClient";

let emu: RunningEmulator;
let client: TxmailClient;
let p: ProviderClient;
let server: Awaited<ReturnType<typeof serve>>;

const isSecret = (v: unknown) =>
  typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
const settings = (extra: Record<string, unknown> = {}) => ({
  apiKey: secret(emu.apiKey),
  accountId: emu.accountId,
  baseUrl: emu.baseUrl,
  ...extra,
});
const ROUTE = { name: "support", url: "https://example.com/in", recipient: "support@mail.example.com" };

beforeAll(async () => {
  for (const k of ["TXMAIL_API_KEY", "TXMAIL_ACCOUNT_ID", "TXMAIL_BASE_URL"]) delete process.env[k];
  emu = await startEmulator({ port: 0, control: true });
  client = createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
  server = await serve();
  p = new ProviderClient(server.port);
});

afterAll(async () => {
  p?.close();
  await server?.stop();
  await closeSharedDispatchers();
  await emu?.close();
});

describe("the plugin itself", () => {
  it("serves the committed package schema and the package's version", async () => {
    const root = path.join(__dirname, "..", "..", "..");
    expect(await p.getSchema()).toBe(fs.readFileSync(path.join(root, "native", "schema.json"), "utf8"));
    const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(await p.getPluginVersion()).toBe(version);
  });
});

describe("Configure", () => {
  it("hands the provider its settings (args): a create reaches the configured account", async () => {
    const resp = await p.configure(settings());
    expect(resp.getAcceptsecrets()).toBe(true);
    const urn = urnOf("Route", "configured");
    const checked = await p.check(urn, {}, ROUTE);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).not.toHaveProperty("__urn");
    const { id, outs } = await p.create(urn, checked.inputs);
    expect(await client.get(paths.route(emu.accountId, id), Route)).toMatchObject({ name: "support" });
    expect(isSecret(outs.secret)).toBe(true);
    expect(outs).not.toHaveProperty("__urn");
  });

  it("takes the engine's txmail:config:<key> variables when no args come", async () => {
    await p.configure(undefined, {
      "txmail:config:apiKey": emu.apiKey,
      "txmail:config:accountId": emu.accountId,
      "txmail:config:baseUrl": emu.baseUrl,
    });
    const urn = urnOf("Route", "from-variables");
    const { id } = await p.create(urn, (await p.check(urn, {}, { ...ROUTE, name: "vars" })).inputs);
    expect(await client.get(paths.route(emu.accountId, id), Route)).toMatchObject({ name: "vars" });
  });

  it("without settings, a resource's check fails naming the missing one (a failure of the resource)", async () => {
    await p.configure({});
    const { failures } = await p.check(urnOf("Route", "nothing"), {}, ROUTE);
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^txmail:apiKey: not set/) }]);
  });
});

describe("CheckConfig", () => {
  it("names the key and the rule of a malformed setting", async () => {
    const { failures } = await p.checkConfig({}, settings({ accountId: "acct-1", baseUrl: "ftp://example.com" }));
    expect(failures).toEqual([
      { property: "accountId", reason: expect.stringMatching(/^txmail:accountId: must be an account id/) },
      { property: "baseUrl", reason: expect.stringMatching(/^txmail:baseUrl: must be an http\(s\) URL/) },
    ]);
  });

  it("never echoes the API key in a failure", async () => {
    const key = " sk-this-is-the-key ";
    const { failures } = await p.checkConfig({}, settings({ apiKey: secret(key) }));
    expect(failures).toEqual([{ property: "apiKey", reason: "txmail:apiKey: must not start or end with white space" }]);
    expect(JSON.stringify(failures)).not.toContain("this-is-the-key");
  });

  it("keeps the API key secret (also one set without --secret), draws a stack salt once and keeps it", async () => {
    const first = await p.checkConfig({}, { ...settings(), apiKey: emu.apiKey });
    expect(first.failures).toEqual([]);
    expect(isSecret(first.inputs.apiKey)).toBe(true);
    expect(first.inputs.__stackSalt).toMatch(/^[0-9a-f]{32}$/);
    const again = await p.checkConfig(first.inputs, settings());
    expect(again.inputs.__stackSalt).toBe(first.inputs.__stackSalt);
  });

  it("never takes the salt from configuration, which travels through git: a pin is ignored and said", async () => {
    const pin = "a-pin-committed-with-the-project";
    const { value: mine, text } = await saidOnStderr(() => p.checkConfig({}, settings({ stackSalt: pin })));
    expect(mine.inputs.__stackSalt).toMatch(/^[0-9a-f]{32}$/);
    expect(text).toContain("txmail:stackSalt is set in this stack's configuration and is no longer used");
    // A clone's stack of the same name on its own backend: the same committed configuration, an empty
    // state, another salt.
    const clone = await p.checkConfig({}, settings({ stackSalt: pin }));
    expect(clone.inputs.__stackSalt).not.toBe(mine.inputs.__stackSalt);
  });
});

describe("DiffConfig", () => {
  const base = () => ({ ...settings(), __stackSalt: "a".repeat(32) });
  it("replaces the provider's resources when the account changes", async () => {
    const d = await p.diffConfig(base(), { ...base(), accountId: "00000000-0000-4000-8000-000000000001" });
    expect(d).toMatchObject({ changes: "some", replaces: ["accountId"], diffs: ["accountId"] });
  });
  it("updates in place for a new key or URL of the same account, and ignores the salt", async () => {
    expect(await p.diffConfig(base(), { ...base(), apiKey: secret("another-key") })).toMatchObject({
      changes: "some",
      replaces: [],
      diffs: ["apiKey"],
    });
    const { value, text } = await saidOnStderr(() => p.diffConfig(base(), { ...base(), __stackSalt: "b".repeat(32) }));
    expect(value).toMatchObject({ changes: "none" });
    // Another provider's inputs (a plugin upgrade renamed the default provider): its salt is new, said.
    expect(text).toContain("this stack's txmail provider changed");
  });
});

describe("Diff", () => {
  it("details which changed inputs update and which replace", async () => {
    await p.configure(settings());
    const route = await p.diff(urnOf("Route", "r"), "id-1", { ...ROUTE }, { ...ROUTE, name: "helpdesk" });
    expect(route).toMatchObject({ changes: "some", replaces: [], diffs: ["name"], detailed: { name: "update" } });
    const domain = await p.diff(urnOf("Domain", "d"), "id-2", { domain: "a.example.com" }, { domain: "b.example.com" });
    expect(domain).toMatchObject({ changes: "some", replaces: ["domain"], detailed: { domain: "replace" } });
    expect(await p.diff(urnOf("Route", "r"), "id-1", { ...ROUTE }, { ...ROUTE })).toMatchObject({ changes: "none" });
  });
});

describe("Read without properties (what `pulumi import` sends)", () => {
  it("reads the object by id and returns the inputs a program would declare; that program then has no diff", async () => {
    await p.configure(settings());
    const { data: made } = await client.post(
      paths.routes(emu.accountId),
      { name: "existing", url: "https://example.com/existing", recipient: "in@mail.example.com", enabled: false },
      Route,
    );
    const urn = urnOf("Route", "imported");
    const read = await p.read(urn, String(made.id));
    expect(read.id).toBe(String(made.id));
    expect(read.inputs).toEqual({
      name: "existing",
      url: "https://example.com/existing",
      recipient: "in@mail.example.com",
      attachments: expect.any(Boolean),
      headers: expect.any(Boolean),
      groupByMessageId: expect.any(Boolean),
      stripReplies: expect.any(Boolean),
      enabled: false,
    });
    // The signing secret was shown once, at creation: unknown to an import, and still a secret.
    expect(isSecret(read.props!.secret)).toBe(true);
    const program = {
      name: "existing",
      url: "https://example.com/existing",
      recipient: "in@mail.example.com",
      enabled: false,
    };
    const checked = await p.check(urn, read.inputs!, program);
    expect(await p.diff(urn, String(made.id), read.props!, checked.inputs)).toMatchObject({ changes: "none" });
  });

  it("reports an object that does not exist as gone", async () => {
    await p.configure(settings());
    expect((await p.read(urnOf("Route", "gone"), "00000000-0000-4000-8000-00000000dead")).id).toBe("");
  });
});

describe("secrets", () => {
  it("an input that arrives secret leaves secret, in outputs and inputs", async () => {
    await p.configure(settings());
    const urn = urnOf("Route", "secret-url");
    const checked = await p.check(urn, {}, { ...ROUTE, name: "s", url: secret("https://example.com/token-in-url") });
    expect(isSecret(checked.inputs.url)).toBe(true);
    const { id, outs } = await p.create(urn, checked.inputs);
    expect(isSecret(outs.url)).toBe(true);
    const read = await p.read(urn, id, outs, checked.inputs);
    expect(isSecret(read.props!.url)).toBe(true);
    expect(isSecret(read.inputs!.url)).toBe(true);
  });
});

describe("an init failure: an interrupted run's object recovered, not yet updated", () => {
  it("reaches the engine as ErrorResourceInitFailed: the object's id, its properties (secrets marked), the reasons", async () => {
    const salt = "3".repeat(32);
    await p.configure(settings({ __stackSalt: salt }));
    const urn = urnOf("Route", "recovered");
    const program = { ...ROUTE, name: "recovered" };
    // The create of a run killed before the engine heard its answer: committed, recorded nowhere.
    const identity = { ...program, __urn: urn, __stackSalt: salt };
    const collection = paths.routes(emu.accountId);
    const key = createKey(routeSpec, identity, { urn, accountId: emu.accountId, path: collection }, 0);
    const { data: made } = await client.post(collection, canonicalBody(routeSpec, identity), routeSpec.created, {
      idempotencyKey: key,
    });
    const signing = String(made.secret);
    expect(signing.length).toBeGreaterThan(8);
    // The recipient arrives secret (a program's choice): it must leave secret in the recorded properties too.
    const changed = (
      await p.check(urn, {}, { ...program, recipient: secret(program.recipient), url: "https://example.com/changed" })
    ).inputs;
    const err = await p.create(urn, changed).then(
      () => undefined,
      (e: unknown) => e as grpc.ServiceError,
    );
    const [details] = err?.metadata?.get("grpc-status-details-bin") ?? [];
    if (!(details instanceof Buffer)) throw new Error(`no init failure in the create's answer: ${String(err)}`);
    const status = statusproto.Status.deserializeBinary(details);
    const detail = status
      .getDetailsList()[0]!
      .unpack(provproto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
    expect(detail?.getId()).toBe(String(made.id));
    expect(detail?.getReasonsList()).toEqual([expect.stringMatching(/recovered, not yet updated.*\(url\)/)]);
    const recorded = detail!.getProperties()!.toJavaScript() as Record<string, unknown>;
    expect(recorded.url).toBe(ROUTE.url); // as it is
    expect(recorded.recipient).toEqual({ [SIG_KEY]: SECRET_SIG, value: ROUTE.recipient });
    // The replay's signing secret, marked; nowhere else in the answer.
    expect(recorded.secret).toEqual({ [SIG_KEY]: SECRET_SIG, value: signing });
    expect(Buffer.from(details).toString("latin1").split(signing)).toHaveLength(2);
    expect(status.getMessage()).not.toContain(signing);
    // The next up diffs the recorded object against the program: an update, which converges it.
    expect(await p.diff(urn, String(made.id), recorded, changed)).toMatchObject({ changes: "some", replaces: [] });
    await p.update(urn, String(made.id), recorded, changed);
    expect((await client.get(paths.route(emu.accountId, String(made.id)), Route)).url).toBe(
      "https://example.com/changed",
    );
  });
});

describe("the provider's stack salt", () => {
  it("is part of every create's idempotency key", async () => {
    const urn = urnOf("Route", "salted");
    const create = async (salt: string) => {
      await p.configure(settings({ __stackSalt: salt }));
      return (await p.create(urn, (await p.check(urn, {}, { ...ROUTE, name: "salted" })).inputs)).id;
    };
    const first = await create("1".repeat(32));
    expect(await create("1".repeat(32))).toBe(first); // the same key: the service replays the creation
    expect(await create("2".repeat(32))).not.toBe(first); // another stack's salt: another object
  });
});
