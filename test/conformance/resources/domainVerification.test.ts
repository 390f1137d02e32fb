// DomainVerification through the generic provider (the code both faces call), with the real HTTP
// client against the emulator on loopback, its DNS state set through the control surface: it
// checks at once, waits one service cache period at a time, fails naming each record not seen,
// refuses bad input before anything is sent, is re-verified after a refresh found a record gone,
// and never changes anything at the service. (Real DNS: test/e2e/domainVerification.test.ts.)
import { Domain, paths } from "../../../provider/api";
import { closeSharedDispatchers, createClient, type TxmailClient } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider, type Provider } from "../../../provider/core/factory";
import { apiKey as apiKeySpec } from "../../../provider/resources/apiKey";
import { domain as domainSpec } from "../../../provider/resources/domain";
import { domainVerification } from "../../../provider/resources/domainVerification";
import { controlClient, type EmulatorControl } from "../../../emulator/control";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";

const CHECK = "POST /v2/accounts/{account_id}/domains/{domain}/check-dns";
const urn = (kind: string, name: string) => `urn:pulumi:dev::dv::txmail:index:${kind}::${name}`;

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;
let verifications: Provider;
let domains: Provider;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true });
  control = controlClient(emu);
  client = createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
  // The emulator's clock stands still between checks: its one-minute cache is left by advancing it.
  process.env.TXMAIL_DNS_CHECK_INTERVAL_MS = "200";
  verifications = makeProvider(domainVerification, apiFor);
  domains = makeProvider(domainSpec, apiFor);
});

afterAll(async () => {
  delete process.env.TXMAIL_DNS_CHECK_INTERVAL_MS;
  await closeSharedDispatchers();
  await emu?.close();
});

async function newDomain(name: string): Promise<void> {
  const checked = await domains.check({}, { domain: name, __urn: urn("Domain", name), __stackSalt: "s".repeat(20) });
  await domains.create(checked.inputs!);
}

async function checked(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await verifications.check({}, { ...inputs, __urn: urn("DomainVerification", String(inputs.domain)) });
  if (!result.inputs) throw new Error(JSON.stringify(result.failures));
  return result.inputs;
}

const checks = () => control.requestCount(CHECK);

describe("DomainVerification", () => {
  it("checks once and is done when the service already sees the records", async () => {
    await newDomain("ready.example.com");
    await control.setDomainVerified("ready.example.com", true);
    await control.resetCounters();
    const { id, outs } = await verifications.create(await checked({ domain: "ready.example.com" }));
    expect(id).toBe("ready.example.com");
    expect(outs).toMatchObject({ domain: "ready.example.com", verified: true, dnsValid: true });
    expect((outs.dnsRecords as Array<{ propagated: boolean }>).every((r) => r.propagated)).toBe(true);
    expect(await checks()).toBe(1);
  });

  it("waits for the service's next check after the records appear: two checks", async () => {
    await newDomain("later.example.com");
    await control.resetCounters();
    const created = verifications.create(await checked({ domain: "later.example.com", timeoutSeconds: 30 }));
    // The first check saw nothing; the records appear and the service's cache expires.
    for (let i = 0; i < 200 && (await checks()) < 1; i++) await new Promise((r) => setTimeout(r, 25));
    await control.setDomainVerified("later.example.com", true, { apply: false });
    await control.advanceClock(61_000);
    const { outs } = await created;
    expect(outs.verified).toBe(true);
    expect(await checks()).toBe(2);
  });

  it("fails after its timeout naming each record not seen, and changes nothing", async () => {
    await newDomain("never.example.com");
    const before = await client.get(paths.domain(emu.accountId, "never.example.com"), Domain);
    const error = await verifications.create(await checked({ domain: "never.example.com", timeoutSeconds: 1 })).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/domain never\.example\.com: DNS not verified within 1 s/);
    for (const r of before.dns_records.filter((d) => d.required)) expect(error).toContain(`${r.type} ${r.host}`);
    // Optional records are not what "required" waits for.
    for (const r of before.dns_records.filter((d) => !d.required)) expect(error).not.toContain(r.host);
    expect(error).toMatch(/The domain itself .* was not changed/);
    const after = await client.get(paths.domain(emu.accountId, "never.example.com"), Domain);
    expect({ ...after, last_dns_check_at: null }).toEqual({ ...before, last_dns_check_at: null });
  });

  it("names a domain the key's account does not have, and checks nothing", async () => {
    await control.resetCounters();
    const error = await verifications.create(await checked({ domain: "elsewhere.example.com" })).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/domain "elsewhere\.example\.com" is not a domain of account .*same connection/);
    expect(await checks()).toBe(0);
  });

  it("says which scope a key without the DNS check lacks", async () => {
    await newDomain("scoped.example.com");
    const keys = makeProvider(apiKeySpec, apiFor);
    const key = await keys.create(
      (
        await keys.check(
          {},
          {
            label: "read only",
            scopes: ["domains:read"],
            __urn: urn("ApiKey", "ro"),
            __stackSalt: "s".repeat(20),
          },
        )
      ).inputs!,
    );
    const connection = { apiKey: String(key.outs.secretKey), accountId: emu.accountId, baseUrl: emu.baseUrl };
    const error = await verifications.create({ ...(await checked({ domain: "scoped.example.com" })), connection }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/domains:write/);
  });

  it("refuses bad input before sending anything, naming the field and the rule", async () => {
    const failures = async (inputs: Record<string, unknown>) =>
      (await verifications.check({}, { domain: "x.example.com", ...inputs })).failures ?? [];
    expect(await failures({ timeoutSeconds: 0 })).toEqual([
      { property: "timeoutSeconds", reason: expect.stringMatching(/timeoutSeconds: must be at least 1/) },
    ]);
    expect(await failures({ timeoutSeconds: 3601 })).toEqual([
      { property: "timeoutSeconds", reason: expect.stringMatching(/at most 3600/) },
    ]);
    expect(await failures({ recordsToVerify: "some" })).toEqual([
      { property: "recordsToVerify", reason: expect.stringMatching(/recordsToVerify: .*"required"|"all"/) },
    ]);
    expect(await failures({ adoptId: "x.example.com" })).toEqual([
      { property: "adoptId", reason: expect.stringMatching(/makes no object at the service/) },
    ]);
    expect(await failures({ domain: "not a domain" })).toEqual([
      { property: "domain", reason: expect.stringMatching(/^domain: /) },
    ]);
  });

  it("reads a record gone at refresh, verifies again at the next up, and deletes nothing", async () => {
    await newDomain("drift.example.com");
    await control.setDomainVerified("drift.example.com", true);
    const inputs = await checked({ domain: "drift.example.com" });
    const { id, outs } = await verifications.create(inputs);
    expect(await verifications.diff(id, { ...inputs, ...outs }, inputs)).toMatchObject({ changes: false });

    await control.setDomainVerified("drift.example.com", false, { apply: false });
    await control.advanceClock(61_000);
    const read = await verifications.read(id, { ...inputs, ...outs });
    expect(read.props).toMatchObject({ verified: false, dnsValid: false });
    const diff = await verifications.diff(id, read.props!, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [], diffs: ["verified"] });

    await control.resetCounters();
    await verifications.delete(id, read.props!);
    expect((await control.counters()).total).toBe(0);
    await client.get(paths.domain(emu.accountId, "drift.example.com"), Domain); // still there
  });
});
