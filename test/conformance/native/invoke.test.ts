// The native plugin's data functions (Invoke), driven as the engine drives them, against the
// emulator on loopback: every function the served schema declares is invoked (a function the
// plugin advertises but does not serve fails here), each answer is checked against the objects
// made in the emulator and against the function's declared outputs; bad arguments come back as
// failures naming the field and the rule; the `connection` argument and the provider's
// configuration are what the look-ups use; Call says the package has no methods.
import { keysToCamel } from "../../../provider/core/casing";
import {
  ApiKey,
  ApiKeyWithSecret,
  Domain,
  RouteWithSecret,
  SubAccount,
  SubAccountUsage,
  WebhookWithSecret,
  paths,
} from "../../../provider/api";
import { closeSharedDispatchers, createClient, type TxmailClient } from "../../../provider/client";
import { SIG_KEY } from "../../../provider/core/secretMarks";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";
import { serve } from "../../../native/server";
import { ProviderClient, secret } from "./providerClient";

type Props = Record<string, unknown>;
interface FunctionSpec {
  inputs: { properties: Record<string, unknown>; required?: string[] };
  outputs: { properties: Record<string, unknown>; required?: string[] };
}

let emu: RunningEmulator;
let client: TxmailClient;
let p: ProviderClient;
let server: Awaited<ReturnType<typeof serve>>;
let functions: Record<string, FunctionSpec>;
/** The objects made in the emulator, as the service returns them on a read (no one-time secrets). */
const made: Record<string, Props> = {};

const settings = () => ({ apiKey: secret(emu.apiKey), accountId: emu.accountId, baseUrl: emu.baseUrl });
const tokenOf = (name: string) => `txmail:index:${name}`;

beforeAll(async () => {
  for (const k of ["TXMAIL_API_KEY", "TXMAIL_ACCOUNT_ID", "TXMAIL_BASE_URL"]) delete process.env[k];
  emu = await startEmulator({ port: 0, control: true });
  client = createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
  const a = emu.accountId;
  const post = async <S extends Parameters<TxmailClient["post"]>[2]>(path: string, body: unknown, schema: S) =>
    (await client.post(path, body, schema)).data;
  await post(paths.subAccounts(a), { name: "Acme", website: "acme.example.com" }, SubAccount);
  await post(paths.domains(a), { domain: "mail.invoke.example.com" }, Domain);
  made.domain = await client.get(paths.domain(a, "mail.invoke.example.com"), Domain);
  // A twin name first: the look-up by name answers the first one.
  const routes = [];
  for (const url of ["https://invoke.example.com/in", "https://invoke.example.com/other"])
    routes.push(await post(paths.routes(a), { name: "support", url, recipient: "" }, RouteWithSecret));
  const { secret: _routeSecret, ...route } = routes[0]!;
  made.route = route;
  made.otherRoute = (({ secret: _, ...r }) => r)(routes[1]!);
  const { secret: _hookSecret, ...webhook } = await post(
    paths.webhooks(a),
    { name: "events", url: "https://invoke.example.com/hooks", scope: "global", on_bounced: true },
    WebhookWithSecret,
  );
  made.webhook = webhook;
  const { secret_key: _key, ...apiKey } = await post(
    paths.apiKeys(a),
    { label: "ci", scopes: ["messages:send:all"] },
    ApiKeyWithSecret,
  );
  made.apiKey = await client.get(paths.apiKey(a, apiKey.id), ApiKey);
  made.usage = await client.get(paths.subAccountUsage(a), SubAccountUsage);

  server = await serve();
  p = new ProviderClient(server.port);
  await p.configure(settings());
  functions = (JSON.parse(await p.getSchema()) as { functions: Record<string, FunctionSpec> }).functions;
});

afterAll(async () => {
  p?.close();
  await server?.stop();
  await closeSharedDispatchers();
  await emu?.close();
});

/**
 * For each function of the package, the arguments of each case and the object it must answer. A
 * function the schema declares that is missing here fails the test (add its cases).
 */
const CASES: Record<string, Array<{ args: () => Props; expected: () => Props }>> = {
  getSubAccountUsage: [{ args: () => ({}), expected: () => made.usage! }],
  lookupDomain: [{ args: () => ({ domain: "mail.invoke.example.com" }), expected: () => made.domain! }],
  lookupRoute: [
    { args: () => ({ id: made.route!.id }), expected: () => made.route! },
    { args: () => ({ id: made.otherRoute!.id }), expected: () => made.otherRoute! },
    { args: () => ({ name: "support" }), expected: () => made.route! },
  ],
  lookupWebhook: [
    { args: () => ({ id: made.webhook!.id }), expected: () => made.webhook! },
    { args: () => ({ name: "events" }), expected: () => made.webhook! },
  ],
  lookupApiKey: [
    { args: () => ({ id: made.apiKey!.id }), expected: () => made.apiKey! },
    { args: () => ({ label: "ci" }), expected: () => made.apiKey! },
  ],
};

describe("every data function the served schema declares", () => {
  it("the schema declares the package's five functions", () => {
    expect(Object.keys(functions).sort()).toEqual(Object.keys(CASES).map(tokenOf).sort());
  });

  it("is served: each answers with the emulator's object, camelCased, in the declared outputs", async () => {
    const served: string[] = [];
    for (const [tok, spec] of Object.entries(functions)) {
      const name = tok.replace(/^txmail:index:/, "");
      const cases = CASES[name];
      if (!cases) throw new Error(`${tok}: the schema declares it, this test has no case for it`);
      for (const c of cases) {
        const { result, failures } = await p.invoke(tok, c.args());
        expect({ tok, failures }).toEqual({ tok, failures: [] });
        // Struct has no undefined: what the service leaves out is absent, and null stays null.
        expect({ tok, result }).toEqual({ tok, result: JSON.parse(JSON.stringify(keysToCamel(c.expected()))) });
        const declared = Object.keys(spec.outputs.properties);
        expect(Object.keys(result!).filter((k) => !declared.includes(k))).toEqual([]);
        expect((spec.outputs.required ?? []).filter((k) => !(k in result!))).toEqual([]);
        // Nothing in these results is secret (the schema declares no secret output).
        expect(JSON.stringify(result)).not.toContain(SIG_KEY);
      }
      served.push(name);
    }
    expect(served.sort()).toEqual(Object.keys(CASES).sort());
  });

  it("the usage lists the sub account made in the emulator", async () => {
    const { result } = await p.invoke(tokenOf("getSubAccountUsage"), {});
    expect(result!.subAccounts).toEqual([expect.objectContaining({ name: "Acme" })]);
  });
});

describe("bad arguments come back as failures naming the field and the rule", () => {
  it.each([
    ["lookupDomain", {}, "domain", /is required/],
    ["lookupDomain", { domain: "" }, "domain", />=1 characters/],
    ["lookupDomain", { domain: 7 }, "domain", /expected string, received number/],
    ["lookupRoute", {}, "id", /exactly one of `id` and `name`/],
    ["lookupRoute", { id: "x", name: "support" }, "id", /exactly one of `id` and `name`, not both/],
    ["lookupApiKey", {}, "id", /exactly one of `id` and `label`/],
    [
      "lookupWebhook",
      { nmae: "events" },
      "nmae",
      /lookupWebhook takes no argument 'nmae' \(it takes id, name, connection\)/,
    ],
    ["getSubAccountUsage", { connection: { accountId: "acct-1" } }, "connection.accountId", /must be an account id/],
    ["getSubAccountUsage", { connection: { baseUrl: "ftp://x" } }, "connection.baseUrl", /must be an http\(s\) URL/],
    ["getSubAccountUsage", { connection: { apiKey: secret(" k ") } }, "connection.apiKey", /white space/],
    ["getSubAccountUsage", { connection: { region: "eu" } }, "connection.region", /not a connection field/],
  ] as const)("%s %j: %s", async (name, args, property, reason) => {
    const { result, failures } = await p.invoke(tokenOf(name), args);
    expect(result).toBeUndefined();
    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  it("an unknown function is named, with those the plugin serves", async () => {
    await expect(p.invoke("txmail:index:lookupNothing", {})).rejects.toThrow(
      /unknown function 'txmail:index:lookupNothing'; this plugin serves txmail:index:getSubAccountUsage/,
    );
  });

  it("an object that is not there is an error naming what was looked for", async () => {
    await expect(p.invoke(tokenOf("lookupRoute"), { name: "nobody" })).rejects.toThrow(
      `txmail: no route named 'nobody' in account ${emu.accountId}`,
    );
  });
});

describe("the connection the look-ups use", () => {
  afterAll(() => p.configure(settings()));

  it("without configuration or `connection`, a look-up names the missing setting", async () => {
    await p.configure({});
    const { failures } = await p.invoke(tokenOf("getSubAccountUsage"), {});
    expect(failures).toEqual([
      { property: "txmail:apiKey", reason: expect.stringMatching(/^not set/) },
      { property: "txmail:accountId", reason: expect.stringMatching(/^not set/) },
    ]);
  });

  it("a `connection` argument (its key a secret) is used, and no answer carries the key", async () => {
    await p.configure({});
    const conn = { apiKey: secret(emu.apiKey), accountId: emu.accountId, baseUrl: emu.baseUrl };
    const { result, failures } = await p.invoke(tokenOf("lookupRoute"), { name: "support", connection: conn });
    expect(failures).toEqual([]);
    expect(result!.id).toBe(made.route!.id);
    const err = await p.invoke(tokenOf("lookupRoute"), { name: "nobody", connection: conn }).catch((e: Error) => e);
    expect(String((err as Error).message)).not.toContain(emu.apiKey);
  });

  it("a wrong key is the service's answer, without the key", async () => {
    const wrong = "wrong-key-0123456789";
    const conn = { apiKey: secret(wrong), accountId: emu.accountId, baseUrl: emu.baseUrl };
    const err = (await p.invoke(tokenOf("getSubAccountUsage"), { connection: conn }).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/HTTP 401: Invalid API key/);
    expect(err.message).not.toContain(wrong);
  });

  it("the provider's configuration from the engine's variables serves the look-ups", async () => {
    await p.configure(undefined, {
      "txmail:config:apiKey": emu.apiKey,
      "txmail:config:accountId": emu.accountId,
      "txmail:config:baseUrl": emu.baseUrl,
    });
    const { result } = await p.invoke(tokenOf("lookupApiKey"), { label: "ci" });
    expect(result!.id).toBe(made.apiKey!.id);
  });
});

it("Call answers UNIMPLEMENTED, saying the package has no methods", async () => {
  await expect(p.callMethod("txmail:index:Route/anything", {})).rejects.toMatchObject({
    code: 12,
    details: expect.stringMatching(/the txmail package has no methods/),
  });
});
