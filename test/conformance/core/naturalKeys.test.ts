// Objects the service addresses by a key that outlives them — a domain's name, a suppression's
// address, a member's user id — with the real declarations and the real HTTP client against the
// emulator on loopback. Two stacks on one account (two provider instances with different salts and
// URNs): stack A's object is removed (out of band, or by A) and stack B makes one under the same
// key. A's refresh then reports its object gone, A's delete leaves B's and says so, A's update
// refuses, A's re-add within the record lifetime fails naming B's object with the adoptId line
// (provider/core/operations/fetchRecord.ts `identify`). `adoptId` means the object it names.
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { AccountMember, Domain, MemberList, Suppression, paths } from "../../../provider/api";
import type { TxmailClient } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider, type Provider } from "../../../provider/core/factory";
import { readForImport } from "../../../provider/core/importRead";
import { accountMember as memberSpec } from "../../../provider/resources/accountMember";
import { domain as domainSpec } from "../../../provider/resources/domain";
import { suppression as suppressionSpec } from "../../../provider/resources/suppression";
import type { RunningEmulator } from "../../../emulator/server";
import { saidOnStderr } from "../../../support/stderr";

const MINE = "salt-of-stack-a-project-one";
const THEIRS = "salt-of-stack-b-project-two";
const urnA = (kind: string, name: string) => `urn:pulumi:dev::one::pulumi-nodejs:dynamic/txmail:${kind}::${name}`;
const urnB = (kind: string, name: string) => `urn:pulumi:dev::two::pulumi-nodejs:dynamic/txmail:${kind}::${name}`;

let emu: RunningEmulator;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, client } = await openAccount());
});

afterAll(() => closeAccount(emu));

type Kinds = { domain: Provider; suppression: Provider; member: Provider };

/** Stack B: the same code in another process (claims of its own). */
function otherStack(): Kinds {
  let made: Kinds | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    made = {
      domain: factory.makeProvider(domainSpec, api.apiFor),
      suppression: factory.makeProvider(suppressionSpec, api.apiFor),
      member: factory.makeProvider(memberSpec, api.apiFor),
    };
  });
  return made!;
}

const a: Kinds = {
  domain: makeProvider(domainSpec, apiFor),
  suppression: makeProvider(suppressionSpec, apiFor),
  member: makeProvider(memberSpec, apiFor),
};
const b = otherStack();

const liveDomain = (name: string) => client.get(paths.domain(emu.accountId, name), Domain);
const members = async () => (await client.get(paths.members(emu.accountId), MemberList)).data;
async function suppressionsOf(email: string) {
  const found: Suppression[] = [];
  for await (const s of client.list(paths.suppressions(emu.accountId), Suppression, { query: { email } }))
    found.push(s);
  return found;
}
const later = () => new Date(Date.now() + 86_400_000).toISOString();

describe("Domain: paths take the name", () => {
  const inputs = (name: string, salt: string, urn: (k: string, n: string) => string) => ({
    domain: name,
    __urn: urn("Domain", "mail"),
    __stackSalt: salt,
  });

  test("A removes its domain, B makes one of that name, A adds it back: fails naming B's, B's untouched", async () => {
    const name = "readd.example.com";
    const mine = await a.domain.create(inputs(name, MINE, urnA));
    await a.domain.delete(mine.id, mine.outs);
    const theirs = await b.domain.create(inputs(name, THEIRS, urnB));
    const before = await liveDomain(name);

    // The replay names A's deleted domain; the name now holds B's.
    await expect(a.domain.create(inputs(name, MINE, urnA))).rejects.toThrow(
      new RegExp(`Domain '${name.replace(/\./g, "\\.")}': already exists .*adoptId: "${theirs.id}"`, "s"),
    );
    expect(await liveDomain(name)).toEqual(before);
    expect(before.id).toBe(theirs.id);
  });

  test("removed out of band, re-made by B: A's refresh says gone, update refuses, delete leaves B's", async () => {
    const name = "oob.example.com";
    const mine = await a.domain.create(inputs(name, MINE, urnA));
    await client.delete(paths.domain(emu.accountId, name));
    const theirs = await b.domain.create(inputs(name, THEIRS, urnB));
    const before = await liveDomain(name);

    expect((await a.domain.read(mine.id, mine.outs)).id).toBe("");

    const news = { ...inputs(name, MINE, urnA), trackingSubdomain: "clicks" };
    await expect(a.domain.update(mine.id, mine.outs, news)).rejects.toThrow(
      `Domain ${mine.id} '${name}': not updated: this stack's object is gone, and another Domain is in its place (${theirs.id}`,
    );

    const { text } = await saidOnStderr(() => a.domain.delete(mine.id, mine.outs));
    expect(text).toContain(`Domain ${mine.id} '${name}': gone already; another Domain is in its place (${theirs.id}`);
    expect(text).toContain("it was not deleted");
    expect(await liveDomain(name)).toEqual(before);
  });

  test("adoptId names the domain by its uuid or its name; a program naming another domain is refused", async () => {
    const one = (await client.post(paths.domains(emu.accountId), { domain: "adopt-id.example.com" }, Domain)).data;
    const two = (await client.post(paths.domains(emu.accountId), { domain: "adopt-name.example.com" }, Domain)).data;
    const byId = await a.domain.create({ ...inputs(one.domain, MINE, urnA), adoptId: one.id });
    expect(byId.id).toBe(one.id);
    const byName = await a.domain.create({ ...inputs(two.domain, MINE, urnA), adoptId: two.domain });
    expect(byName.id).toBe(two.id);
    // The uuid names `one`: the program's `two` cannot change in place.
    await expect(a.domain.create({ ...inputs(two.domain, MINE, urnA), adoptId: one.id })).rejects.toThrow(
      `Domain: cannot adopt '${one.id}': domain is "${one.domain}", the program says "${two.domain}"`,
    );
    await expect(
      a.domain.create({ ...inputs(one.domain, MINE, urnA), adoptId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toThrow("no such object");
  });

  test("a domain imported by name: import and the next refresh record its uuid; another under the name is gone", async () => {
    const name = "imported.example.com";
    const made = (await client.post(paths.domains(emu.accountId), { domain: name }, Domain)).data;
    const imported = await readForImport(domainSpec, a.domain, name);
    expect(imported?.id).toBe(made.id);

    // A state written by an earlier version, which recorded the name as the id.
    const { id: _id, ...outs } = imported!.props;
    const refreshed = await a.domain.read(name, outs);
    expect(refreshed.id).toBe(made.id);
    expect(refreshed.props?.domain).toBe(name);

    // That domain removed and another made under the name: its createdAt tells them apart.
    await client.delete(paths.domain(emu.accountId, name));
    const other = (await client.post(paths.domains(emu.accountId), { domain: name }, Domain)).data;
    expect((await a.domain.read(name, outs)).id).toBe("");
    const { text } = await saidOnStderr(() => a.domain.delete(name, outs));
    expect(text).toContain(`another Domain is in its place (${other.id}`);
    expect((await liveDomain(name)).id).toBe(other.id);
  });
});

describe("Suppression: delete takes the address", () => {
  const inputs = (salt: string, urn: (k: string, n: string) => string, expiresAt: string) => ({
    email: "bounce@readd.example.com",
    reason: "bounced",
    expiresAt,
    __urn: urn("Suppression", "bounce"),
    __stackSalt: salt,
  });

  test("removed out of band, re-made by B: A's refresh says gone, delete leaves B's, re-add names B's", async () => {
    const expiresAt = later();
    const mine = await a.suppression.create(inputs(MINE, urnA, expiresAt));
    await client.delete(paths.suppressionByAddress(emu.accountId, "bounce@readd.example.com"));
    const theirs = await b.suppression.create(inputs(THEIRS, urnB, expiresAt));
    expect(theirs.id).not.toBe(mine.id);

    expect((await a.suppression.read(mine.id, mine.outs)).id).toBe("");

    const { text } = await saidOnStderr(() => a.suppression.delete(mine.id, mine.outs));
    expect(text).toContain(
      `Suppression ${mine.id} 'bounce@readd.example.com': gone already; another Suppression is in its place (${theirs.id}`,
    );
    expect(text).toContain("it was not deleted");
    expect((await suppressionsOf("bounce@readd.example.com")).map((s) => s.id)).toEqual([theirs.id]);

    // Re-added within the record lifetime: the replay names A's removed suppression.
    await expect(a.suppression.create(inputs(MINE, urnA, expiresAt))).rejects.toThrow(`adoptId: "${theirs.id}"`);
    expect((await suppressionsOf("bounce@readd.example.com")).map((s) => s.id)).toEqual([theirs.id]);
  });
});

describe("AccountMember: the user id outlives the membership", () => {
  const inputs = (salt: string, urn: (k: string, n: string) => string) => ({
    email: "dana@readd.example.com",
    role: "Developer",
    __urn: urn("AccountMember", "dana"),
    __stackSalt: salt,
  });

  test("removed out of band, the same person re-added by B: A's refresh says gone, delete leaves B's, re-add names it", async () => {
    const mine = await a.member.create(inputs(MINE, urnA));
    await client.delete(paths.member(emu.accountId, mine.id));
    await new Promise((r) => setTimeout(r, 5)); // another created_at, to the millisecond
    const theirs = await b.member.create(inputs(THEIRS, urnB));
    expect(theirs.id).toBe(mine.id); // one user id per person
    const held = (await members()).find((m) => m.user_id === theirs.id);
    expect(held?.created_at).toBe(theirs.outs.createdAt);

    expect((await a.member.read(mine.id, mine.outs)).id).toBe("");

    const { text } = await saidOnStderr(() => a.member.delete(mine.id, mine.outs));
    expect(text).toContain(
      `AccountMember ${mine.id} 'dana@readd.example.com': gone already; another AccountMember is in its place (${theirs.id}, created ${String(theirs.outs.createdAt)})`,
    );
    expect(text).toContain("it was not deleted");
    expect((await members()).find((m) => m.user_id === theirs.id)).toEqual(AccountMember.parse(held));

    await expect(a.member.create(inputs(MINE, urnA))).rejects.toThrow(`adoptId: "${theirs.id}"`);
    expect((await members()).find((m) => m.user_id === theirs.id)).toEqual(held);
  });

  test("B's own membership: read, delete as before", async () => {
    const theirs = (await members()).find((m) => m.role === "Developer")!;
    const outs = { ...inputs(THEIRS, urnB), createdAt: theirs.created_at };
    expect((await b.member.read(theirs.user_id, outs)).id).toBe(theirs.user_id);
    await b.member.delete(theirs.user_id, outs);
    expect((await members()).find((m) => m.user_id === theirs.user_id)).toBeUndefined();
  });
});
