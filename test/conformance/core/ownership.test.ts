// Proof before action, with the real declarations and the real HTTP client against the emulator on
// loopback: a create takes over an object only when the service answered this stack's own
// idempotency key with it (provider/core/operations/proof.ts), and never deletes, takes or changes
// an object that merely looks like one it made — another stack's, made with the same names and
// values on the same account — however it meets it: a 422 after a change, a 5xx that may have
// committed, a 409 on a unique name, a key whose secret can no longer be replayed.
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { ApiKey, Domain, Route, SubAccount, paths } from "../../../provider/api";
import type { TxmailClient } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import type { AnyDeclaration } from "../../../provider/core/declaration";
import { makeProvider, type Provider } from "../../../provider/core/factory";
import { createKey } from "../../../provider/core/operations/createKey";
import { apiKey as apiKeySpec } from "../../../provider/resources/apiKey";
import { domain as domainSpec } from "../../../provider/resources/domain";
import { route as routeSpec } from "../../../provider/resources/route";
import { subAccount as subAccountSpec } from "../../../provider/resources/subAccount";
import type { EmulatorControl } from "../../../emulator/control";
import type { RunningEmulator } from "../../../emulator/server";
import { saidOnStderr } from "../../../support/stderr";
import { type InitFailure, isInitFailure } from "../../../provider/core/initFailure";
import { isSecretValue } from "../../../provider/core/secretMarks";
import * as runtime from "../../../provider/runtime";
import * as native from "../../../native/provider";

const urn = (kind: string, name: string) => `urn:pulumi:dev::two::pulumi-nodejs:dynamic/txmail:${kind}::${name}`;
const MINE = "salt-of-my-dev-stack-0001";
const THEIRS = "salt-of-their-dev-stack-01";

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, control, client } = await openAccount());
});

afterEach(async () => {
  await control.clearFaults();
});

afterAll(() => closeAccount(emu));

/**
 * A create the service committed and nobody recorded (the run was killed before its answer): the
 * request the provider sends for `inputs` — its first key, its body — sent once.
 */
async function killedCreate(
  spec: AnyDeclaration,
  inputs: Record<string, unknown>,
  body: Record<string, unknown>,
): Promise<string> {
  const conn = { apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl };
  const path = spec.collectionPath(conn, inputs);
  const key = createKey(spec, inputs, { urn: String(inputs.__urn), accountId: emu.accountId, path }, 0);
  const { data } = await client.post(path, body, spec.created, { idempotencyKey: key });
  return String(data.id);
}

/** The init failure a create rejects with (provider/core/initFailure.ts); any other outcome fails the test. */
async function initFailureOf(created: Promise<unknown>): Promise<InitFailure> {
  const outcome = await created.then(
    (made) => made,
    (e: unknown) => e,
  );
  if (!isInitFailure(outcome)) throw new Error(`expected an init failure, got ${JSON.stringify(outcome) ?? outcome}`);
  return outcome;
}

/**
 * The other stack: the same code in another process, so with claims of its own (a provider process
 * never reports an object it made itself).
 */
function otherStack() {
  let made: { apiKey: Provider; subAccount: Provider } | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    made = {
      apiKey: factory.makeProvider(apiKeySpec, api.apiFor),
      subAccount: factory.makeProvider(subAccountSpec, api.apiFor),
    };
  });
  return made!;
}

const apiKey = makeProvider(apiKeySpec, apiFor);
const subAccount = makeProvider(subAccountSpec, apiFor);
const route = makeProvider(routeSpec, apiFor);
const domain = makeProvider(domainSpec, apiFor);

describe("two stacks on one account, the same names: one removes and re-adds its objects with other values", () => {
  const key = (salt: string, ipAllowList: string[]) => ({
    label: "ci",
    scopes: ["routes:read:all"],
    ipAllowList,
    __urn: urn("ApiKey", "ci"),
    __stackSalt: salt,
  });
  const account = (salt: string, website: string) => ({
    name: "acme",
    website,
    suspended: false,
    __urn: urn("SubAccount", "acme"),
    __stackSalt: salt,
  });

  test("the other stack's API key and sub account are never deleted, taken or changed", async () => {
    const other = otherStack();
    const theirKey = await other.apiKey.create(key(THEIRS, ["127.0.0.1/32"]));
    const theirAccount = await other.subAccount.create(account(THEIRS, "acme.example.com"));
    const before = {
      key: await client.get(paths.apiKey(emu.accountId, theirKey.id), ApiKey),
      account: await client.get(paths.subAccount(emu.accountId, theirAccount.id), SubAccount),
    };
    const myKey = await apiKey.create(key(MINE, ["127.0.0.1/32"]));
    const myAccount = await subAccount.create(account(MINE, "acme.example.com"));
    await apiKey.delete(myKey.id, myKey.outs);
    await subAccount.delete(myAccount.id, myAccount.outs);

    // Added back within the record lifetime with another updatable value: the same key, another body (422).
    const { value: again, text } = await saidOnStderr(async () => ({
      key: await apiKey.create(key(MINE, ["127.0.0.1/32", "10.0.0.0/8"])),
      account: await subAccount.create(account(MINE, "www.acme.example.com")),
    }));
    expect([again.key.id, again.account.id]).not.toContain(theirKey.id);
    expect([again.key.id, again.account.id]).not.toContain(theirAccount.id);
    expect(await client.get(paths.apiKey(emu.accountId, theirKey.id), ApiKey)).toEqual(before.key);
    expect(await client.get(paths.subAccount(emu.accountId, theirAccount.id), SubAccount)).toEqual(before.account);
    // The replay named this stack's own deleted objects: nothing of it is left, nothing to report.
    expect(text).not.toMatch(/taken over|likely leftover/);

    // After the key's 5-minute secret replay: the service no longer names the key; nothing is proven.
    await apiKey.delete(again.key.id, again.key.outs);
    await control.advanceClock(6 * 60_000);
    const late = await saidOnStderr(() => apiKey.create(key(MINE, ["127.0.0.1/32"])));
    expect(late.value.id).not.toBe(theirKey.id);
    expect(await client.get(paths.apiKey(emu.accountId, theirKey.id), ApiKey)).toEqual(before.key);
    expect(late.text).toContain(`likely leftover: ApiKey ${theirKey.id} 'ci'`);
    expect(late.text).toContain("it was not touched");
  });
});

describe("a killed create, then a change, then the rerun: proven through the key", () => {
  test("a sub account is recovered as it is, then updated by the next up: one object", async () => {
    const inputs = {
      name: "killed",
      website: "killed.example.com",
      suspended: false,
      __urn: urn("SubAccount", "k"),
      __stackSalt: MINE,
    };
    await killedCreate(subAccountSpec, inputs, { name: inputs.name, website: inputs.website });
    const made = (await control.dumpState()).accounts.filter((a) => a.name === "killed");
    expect(made).toHaveLength(1);
    const changed = { ...inputs, website: "changed.example.com" };
    const failure = await initFailureOf(subAccount.create(changed));
    // The engine records the object from the init failure: its id, its properties as they are.
    expect(failure.id).toBe(made[0]!.id);
    expect(failure.properties).toMatchObject({ website: "killed.example.com" });
    expect(failure.message).toMatch(/recovered, not yet updated.*\(website\).*run `pulumi up` again/);
    expect((await client.get(paths.subAccount(emu.accountId, failure.id), SubAccount)).website).toBe(
      "killed.example.com",
    );
    // The next up: the engine's diff of the recorded object against the program is an update, not a replacement.
    expect(await subAccount.diff(failure.id, failure.properties, changed)).toMatchObject({
      changes: true,
      replaces: [],
    });
    await subAccount.update(failure.id, failure.properties, changed);
    const live = await client.get(paths.subAccount(emu.accountId, failure.id), SubAccount);
    expect(live.website).toBe("changed.example.com");
    expect((await control.dumpState()).accounts.filter((a) => a.name === "killed")).toHaveLength(1);
  });

  test("suspended toggled before the rerun: the key stands for the fixed fields only, no twin", async () => {
    const inputs = {
      name: "toggled",
      website: "toggled.example.com",
      suspended: false,
      __urn: urn("SubAccount", "t"),
      __stackSalt: MINE,
    };
    await killedCreate(subAccountSpec, inputs, { name: inputs.name, website: inputs.website });
    const rerun = await subAccount.create({ ...inputs, suspended: true, suspensionReason: "unpaid" });
    const made = (await control.dumpState()).accounts.filter((a) => a.name === "toggled");
    expect(made.map((a) => a.id)).toEqual([rerun.id]);
    expect(made[0]!.status).toBe("suspended");
  });

  // The init failure's properties go into the stack's state: a secret in them leaves each face marked
  // secret, as a create's outputs do (provider/runtime.ts withSecretMarks; native/provider.ts).
  test.each(["dynamic", "native"] as const)(
    "an API key within the replay window (%s face): recovered with its real secret, kept secret",
    async (face) => {
      const keyUrn = face === "dynamic" ? urn("ApiKey", "k") : `urn:pulumi:dev::two::txmail:index:ApiKey::k`;
      const inputs = {
        label: `killed-key-${face}`,
        scopes: ["routes:read:all"],
        ipAllowList: [],
        connection: { apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl },
        __urn: keyUrn,
        __stackSalt: MINE,
      };
      const killed = await killedCreate(apiKeySpec, inputs, {
        label: inputs.label,
        scopes: inputs.scopes,
        ip_allow_list: [],
      });
      const changed = { ...inputs, ipAllowList: ["127.0.0.1/32"] };
      const SERIALIZED = 'exports.handler = () => require("pulumi-txmail/provider/kinds/apiKey")';
      const failure = await initFailureOf(
        face === "dynamic"
          ? runtime.dynamicProvider("ApiKey").create({ ...changed, __provider: SERIALIZED })
          : native.create(keyUrn, changed),
      );
      expect(failure.id).toBe(killed);
      const { secretKey, connection, ...rest } = failure.properties as Record<string, Record<string, unknown>>;
      expect(isSecretValue(secretKey)).toBe(true);
      expect(isSecretValue(connection!.apiKey)).toBe(true);
      const secretText = String(secretKey!.value);
      for (const plain of [JSON.stringify(rest), failure.message, ...failure.reasons]) {
        expect(plain).not.toContain(secretText);
        expect(plain).not.toContain(emu.apiKey);
      }
      // The dynamic face's serialized provider stays with the recorded object, as a create's outputs
      // keep it (the host loads a later update's and delete's provider from there); the native face has none.
      expect(rest.__provider).toBe(face === "dynamic" ? SERIALIZED : undefined);
      // The replay's own secret, which works; the object not changed yet.
      const res = await fetch(`${emu.baseUrl}/v2/accounts/${emu.accountId}/routes`, {
        headers: { authorization: `Bearer ${secretText}` },
      });
      expect(res.status).toBe(200);
      expect((await client.get(paths.apiKey(emu.accountId, killed), ApiKey)).ip_allow_list).toEqual([]);
      // The next up's update converges it and keeps the secret.
      const recorded = { ...rest, secretKey: secretText, connection: { ...connection, apiKey: emu.apiKey } };
      const { outs } = await apiKey.update(killed, recorded, changed);
      expect(outs.secretKey).toBe(secretText);
      expect((await client.get(paths.apiKey(emu.accountId, killed), ApiKey)).ip_allow_list).toEqual(["127.0.0.1/32"]);
      expect((await control.dumpState()).api_keys.filter((k) => k.label === inputs.label)).toHaveLength(1);
    },
  );
});

describe("a 5xx after the service committed (not stored: idempotency rule 6)", () => {
  test("another stack's same-named route made meanwhile, and the stray itself, are reported, not deleted", async () => {
    const body = { name: "inbound", url: "https://two.example.com/in", recipient: "" };
    const theirs = (await client.post(paths.routes(emu.accountId), body, Route)).data;
    await control.injectFault({ method: "POST", path: "/v2/accounts/{account_id}/routes", kind: "error-after" });
    const { value: mine, text } = await saidOnStderr(() =>
      route.create({ ...body, __urn: urn("Route", "inbound"), __stackSalt: MINE }),
    );
    expect((await control.faults())[0]).toMatchObject({ fired: 1 }); // the stray was made
    const named = (await control.dumpState()).routes.filter((r) => r.name === "inbound").map((r) => r.id);
    expect(named).toHaveLength(3); // theirs, the stray, mine: nothing deleted
    const stray = named.find((id) => id !== theirs.id && id !== mine.id)!;
    expect(await client.get(paths.route(emu.accountId, theirs.id), Route)).toEqual(theirs);
    for (const id of [stray, theirs.id]) expect(text).toContain(`(txmail-likely-leftover Route ${id})`);
    expect(text).not.toContain(`leftover Route ${mine.id}`);
  });

  test("a domain met again by the retry (409) is never taken: the run fails naming it", async () => {
    const name = "ours.two.example.com";
    await control.injectFault({ method: "POST", path: "/v2/accounts/{account_id}/domains", kind: "error-after" });
    const failed = domain.create({ domain: name, __urn: urn("Domain", "ours"), __stackSalt: MINE });
    await expect(failed).rejects.toThrow(/already exists .*appeared during this create.*adoptId: "[0-9a-f-]{36}"/s);
    expect((await control.faults())[0]).toMatchObject({ fired: 1 });
    // Untouched, and the adoption the message offers (its uuid) takes it.
    const met = await client.get(paths.domain(emu.accountId, name), Domain);
    await expect(failed).rejects.toThrow(`adoptId: "${met.id}"`);
    const adopted = await domain.create({
      domain: name,
      adoptId: met.id,
      __urn: urn("Domain", "ours"),
      __stackSalt: MINE,
    });
    expect(adopted.id).toBe(met.id);
  });

  test("a domain someone else made before is named, untouched", async () => {
    const name = "theirs.two.example.com";
    const theirs = (await client.post(paths.domains(emu.accountId), { domain: name }, Domain)).data;
    await expect(domain.create({ domain: name, __urn: urn("Domain", "theirs"), __stackSalt: MINE })).rejects.toThrow(
      `Domain '${name}': already exists in account ${emu.accountId}`,
    );
    expect(await client.get(paths.domain(emu.accountId, name), Domain)).toEqual(theirs);
  });
});
