// New credentials for the same account, and nothing else (a Tenant's rotated bootstrap key, which its
// children are reached with; provider/core/operations/update.ts `credentialsOnly`): the update sends
// no request — nothing to change, prove or reconcile — and records the credentials the next
// operation uses. With the real Domain declaration (a natural key and a reconcile step: the kind
// whose update otherwise costs two reads) and HTTP client against the emulator on loopback.
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { ApiKeyWithSecret, paths } from "../../../provider/api";
import type { TxmailClient } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import type { AnyDeclaration, Props } from "../../../provider/core/declaration";
import { makeProvider } from "../../../provider/core/factory";
import { domain as domainSpec } from "../../../provider/resources/domain";
import type { EmulatorControl } from "../../../emulator/control";
import type { RunningEmulator } from "../../../emulator/server";

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, control, client } = await openAccount());
});

afterAll(() => closeAccount(emu));

const provider = () => makeProvider(domainSpec as unknown as AnyDeclaration, apiFor);

/** A key of the account's own, made out of band: its id and secret. */
async function accountKey(label: string): Promise<{ id: string; secret: string }> {
  const { data } = await client.post(
    paths.apiKeys(emu.accountId),
    { label, scopes: ["domains:read", "domains:write", "domains:delete:all"] },
    ApiKeyWithSecret,
  );
  return { id: data.id, secret: data.secret_key };
}

const program = (apiKey: string, extra: Props = {}): Props => ({
  domain: "rotated-connection.example.com",
  connection: { apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl },
  __urn: "urn:pulumi:dev::creds::pulumi-nodejs:dynamic/txmail:Domain::d",
  __stackSalt: "salt-of-the-credentials-stack",
  ...extra,
});

async function checked(olds: Props, news: Props): Promise<Props> {
  const r = await provider().check(olds, news);
  if (!r.inputs) throw new Error(JSON.stringify(r.failures));
  return r.inputs;
}

test("an update of the credentials alone sends no request; the next operation uses the new ones", async () => {
  const [first, second] = [await accountKey("first"), await accountKey("second")];
  const made = await provider().create(await checked({}, program(first.secret)));

  const news = await checked(made.outs, program(second.secret));
  expect(await provider().diff(made.id, made.outs, news)).toMatchObject({ changes: true, diffs: ["connection"] });
  const before = (await control.counters()).total;
  const { outs } = await provider().update(made.id, made.outs, news);
  expect((await control.counters()).total - before).toBe(0);
  expect((outs.connection as Props).apiKey).toBe(second.secret);
  expect(outs.domain).toBe(made.outs.domain);

  // The first key revoked (a rotation's overlap over): the state's credentials still reach the object.
  await client.delete(`${paths.apiKeys(emu.accountId)}/${first.id}`);
  expect((await provider().read(made.id, outs)).id).toBe(made.id);
  await provider().delete(made.id, outs);
  expect((await control.dumpState()).domains.map((d) => d.domain)).not.toContain("rotated-connection.example.com");
});

test("new credentials with a changed field take the whole update: proven, then sent", async () => {
  const [first, second] = [await accountKey("third"), await accountKey("fourth")];
  const made = await provider().create(await checked({}, program(first.secret, { domain: "both.example.com" })));
  const news = await checked(
    made.outs,
    program(second.secret, { domain: "both.example.com", trackingSubdomain: "clicks" }),
  );
  const diffs = (await provider().diff(made.id, made.outs, news)).diffs ?? [];
  expect(diffs).toContain("connection");
  expect(diffs.length).toBeGreaterThan(1);
  await control.clearRequests();
  await provider().update(made.id, made.outs, news);
  const sent = (await control.requests()).requests.map((e) => `${e.method} ${e.template}`);
  expect(sent).toContain("GET /v2/accounts/{account_id}/domains/{domain}"); // the identity check
  expect(sent.some((r) => r.startsWith("PUT "))).toBe(true);
});
