// The guard on the delete (and take-over) path of an uncertain create, with the real provider
// declarations and the real HTTP client against the emulator on loopback. After a retried 5xx the
// provider deletes a twin, and on a 5xx-then-409 it takes a domain, only when the object was created
// during this create (`createdSince` in provider/core/uncertainCreate.ts). An identical object made
// earlier — by another program or person — must survive, and a domain someone else made must not be
// taken.
//
// "Earlier" is ten minutes, beyond the clock skew the guard allows (60 s): the test moves the
// process clock (Date.now, read by both the in-process emulator and the provider) forward after
// making the older object, so for both sides that object was made ten minutes before the create.
import { Domain, Route, paths } from "../../../provider/api";
import { closeSharedDispatchers, createClient, type TxmailClient } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider } from "../../../provider/core/factory";
import { domain as domainSpec } from "../../../provider/resources/domain";
import { route as routeSpec } from "../../../provider/resources/route";
import { controlClient, type EmulatorControl } from "../../../emulator/control";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";

const TEN_MINUTES = 10 * 60_000;
const urn = (kind: string, name: string) => `urn:pulumi:test::guards::pulumi-nodejs:dynamic/txmail:${kind}::${name}`;

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;
const realNow = Date.now.bind(Date);

beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true });
  control = controlClient(emu);
  client = createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
});

afterEach(async () => {
  jest.restoreAllMocks();
  await control.clearFaults();
});

afterAll(async () => {
  await closeSharedDispatchers();
  await emu?.close();
});

/** From now on, this process (provider and emulator alike) lives `ms` later. */
function timePasses(ms: number): void {
  jest.spyOn(Date, "now").mockImplementation(() => realNow() + ms);
}

async function routesNamed(name: string): Promise<Route[]> {
  const out: Route[] = [];
  for await (const r of client.list(paths.routes(emu.accountId), Route)) if (r.name === name) out.push(r);
  return out;
}

describe("twin cleanup after a retried 5xx (the attempt committed, then failed)", () => {
  const route = makeProvider(routeSpec, apiFor);
  const inputs = (name: string) => ({ name, url: "https://guards.example.com/in", recipient: "" });

  test("deletes the twin its failed attempt made; an older identical object survives", async () => {
    const older = await client.post(paths.routes(emu.accountId), inputs("inbound"), Route);
    timePasses(TEN_MINUTES);
    await control.injectFault({ method: "POST", path: "/v2/accounts/{account_id}/routes", kind: "error-after" });

    const created = await route.create({ ...inputs("inbound"), __urn: urn("Route", "inbound") });

    const [fault] = await control.faults();
    expect(fault).toMatchObject({ kind: "error-after", fired: 1 }); // the twin was made
    const left = (await routesNamed("inbound")).map((r) => r.id).sort();
    expect(left).toEqual([older.data.id, created.id].sort()); // twin gone, the older one kept
  });
});

describe("a 409 on a domain create (the service keeps names unique)", () => {
  const domain = makeProvider(domainSpec, apiFor);
  const DOMAINS = "/v2/accounts/{account_id}/domains";

  test("after a 5xx that committed, takes the domain its own failed attempt made", async () => {
    await control.injectFault({ method: "POST", path: DOMAINS, kind: "error-after" });
    const created = await domain.create({ domain: "ours.guards.example.com", __urn: urn("Domain", "ours") });
    const live = await client.get(paths.domain(emu.accountId, "ours.guards.example.com"), Domain);
    expect(created.id).toBe(live.id);
  });

  test("does not take a domain someone else made before this create; fails naming it", async () => {
    const name = "theirs.guards.example.com";
    const theirs = (await client.post(paths.domains(emu.accountId), { domain: name }, Domain)).data;
    timePasses(TEN_MINUTES);
    // The first attempt fails before executing; its retry meets the other party's domain (409).
    await control.injectFault({ method: "POST", path: DOMAINS, kind: "error-before", status: 503 });

    const attempt = domain.create({ domain: name, __urn: urn("Domain", "theirs") });

    await expect(attempt).rejects.toThrow(
      new RegExp(
        `Domain '${name.replace(/\./g, "\\.")}': already exists .* not created by this create.*adoptId: "${name}"`,
      ),
    );
    expect((await control.faults())[0]).toMatchObject({ fired: 1 }); // the retry path was taken
    const after = await client.get(paths.domain(emu.accountId, name), Domain);
    expect(after).toEqual(theirs); // untouched
  });

  test("a 409 on the first attempt names the domain too", async () => {
    const name = "taken.guards.example.com";
    await client.post(paths.domains(emu.accountId), { domain: name }, Domain);
    await expect(domain.create({ domain: name, __urn: urn("Domain", "taken") })).rejects.toThrow(
      `Domain '${name}': already exists in account ${emu.accountId}`,
    );
  });
});
