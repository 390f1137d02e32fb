// The emulator's `shapes: "public"` switch (emulator/shapes.ts) over real HTTP, read with the
// provider's client: an API key's scopes arrive as objects and a suppression's unset `domain` and
// `reason` as "" (plain strings in the public description), and the provider's schemas read the same
// records from both emulators. The default stays the contract (null, strings). That every public
// answer matches the public description exactly is publicShapes.test.ts's.
import { startEmulator, type RunningEmulator } from "../../../emulator/server";
import { ApiKey, ListOf, Suppression, SuppressionsCreated, paths } from "../../../provider/api";
import { createClient, type TxmailClient } from "../../../provider/client";

let contract: RunningEmulator;
let alternative: RunningEmulator;
const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");

const clientOf = (e: RunningEmulator) =>
  createClient({ apiKey: e.apiKey, accountId: e.accountId, baseUrl: e.baseUrl, rateLimit: false });
const raw = async (e: RunningEmulator, path: string) =>
  (await (await fetch(e.baseUrl + path, { headers: { authorization: `Bearer ${e.apiKey}` } })).json()) as any;

/** The same key and suppression in an emulator; what the provider reads of them, without ids and times. */
async function readBack(e: RunningEmulator, client: TxmailClient) {
  const a = e.accountId;
  const key = await client.post(paths.apiKeys(a), { label: "ci", scopes: ["routes:read:all", "domains:read"] }, ApiKey);
  await client.post(paths.suppressions(a), { email: "gone@example.com", expires_at: EXPIRES_AT }, SuppressionsCreated);
  const keys = (await client.get(paths.apiKeys(a), ListOf(ApiKey))).data.filter((k) => k.id === key.data.id);
  const suppressions = (await client.get(paths.suppressions(a), ListOf(Suppression))).data;
  const plain = ({ id: _i, created_at: _c, updated_at: _u, account_id: _a, public_key: _p, ...rest }: any) => rest;
  return { created: plain(key.data), listed: keys.map(plain), suppressions: suppressions.map(plain) };
}

beforeAll(async () => {
  contract = await startEmulator({ port: 0 });
  alternative = await startEmulator({ port: 0, shapes: "public" });
});
afterAll(async () => {
  await contract?.close();
  await alternative?.close();
});

describe("the public description's alternative shapes", () => {
  it("are what the switch answers, and only with the switch", async () => {
    const fromContract = await readBack(contract, clientOf(contract));
    const fromAlternative = await readBack(alternative, clientOf(alternative));
    const keysContract = await raw(contract, paths.apiKeys(contract.accountId));
    const keysAlternative = await raw(alternative, paths.apiKeys(alternative.accountId));
    expect(typeof keysContract.data[0].scopes[0]).toBe("string");
    expect(keysAlternative.data[0].scopes[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), scope: expect.any(String), domain_id: null }),
    );
    const supContract = (await raw(contract, paths.suppressions(contract.accountId))).data[0];
    const supAlternative = (await raw(alternative, paths.suppressions(alternative.accountId))).data[0];
    expect([supContract.domain, supContract.reason]).toEqual([null, null]);
    expect([supAlternative.domain, supAlternative.reason]).toEqual(["", ""]);
    // The provider's schemas read the two as the same records: scope strings, null for unset.
    expect(fromAlternative).toEqual(fromContract);
    expect(fromAlternative.suppressions[0]).toMatchObject({ domain: null, reason: null });
    expect(fromAlternative.listed[0].scopes).toEqual(["routes:read:all", "domains:read"]);
  });
});
