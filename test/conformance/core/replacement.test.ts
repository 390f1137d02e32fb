// Replacements within the service's 24 h record lifetime, driven the way the engine drives a
// provider (check with the state's old inputs, diff when the engine asks, create, then delete of
// the replaced id), with the real declarations and HTTP client against the emulator on loopback.
// A replacement's create derives the key its resource was first created under; the service
// replays that creation, and the replaced object must never come back as the new one
// (provider/core/stateObjects.ts, operations/create.ts `Replaced`).
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { Domain, Route, Webhook, paths } from "../../../provider/api";
import type { TxmailClient } from "../../../provider/client";
import type { AnyDeclaration, Props } from "../../../provider/core/declaration";
import type { Provider } from "../../../provider/core/factory";
import { domain as domainSpec } from "../../../provider/resources/domain";
import { route as routeSpec } from "../../../provider/resources/route";
import { webhook as webhookSpec } from "../../../provider/resources/webhook";
import type { EmulatorControl } from "../../../emulator/control";
import type { RunningEmulator } from "../../../emulator/server";
import { saidOnStderr } from "../../../support/stderr";

const urn = (kind: string, name: string) => `urn:pulumi:dev::rep::pulumi-nodejs:dynamic/txmail:${kind}::${name}`;
const SALT = "salt-of-the-replacing-stack";

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, control, client } = await openAccount());
});

afterAll(() => closeAccount(emu));

/** A provider process of its own (a run): what it was told of the state starts empty. */
function run<K extends "route" | "webhook" | "domain">(kind: K): Provider {
  let made: Provider | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    const spec = { route: routeSpec, webhook: webhookSpec, domain: domainSpec }[kind] as unknown as AnyDeclaration;
    made = factory.makeProvider(spec, api.apiFor);
  });
  return made!;
}

/** Check as the engine calls it, then the canonical inputs. */
async function checked(p: Provider, olds: Props, news: Props): Promise<Props> {
  const r = await p.check(olds, news);
  if (!r.inputs) throw new Error(JSON.stringify(r.failures));
  return r.inputs;
}

/** A first `pulumi up` of a resource: its state (inputs, id, outputs). */
async function firstUp(p: Provider, news: Props) {
  const inputs = await checked(p, {}, news);
  const made = await p.create(inputs);
  return { inputs, ...made };
}

const routeIds = async (name: string) =>
  (await control.dumpState()).routes.filter((r) => r.name === name).map((r) => r.id);

/**
 * A replacement the provider's diff asks for, as the engine drives it: check with the state's old
 * inputs, diff (naming the state's id), check again without them, create; the old id is deleted
 * after (create-before-delete).
 */
async function replacement(p: Provider, old: { id: string; inputs: Props; outs: Props }, news: Props) {
  const inputs = await checked(p, old.inputs, news);
  await p.diff(old.id, { ...old.inputs, ...old.outs }, inputs);
  return p.create(await checked(p, {}, news));
}

describe("a replacement within 24 h of the create, with the same key fields", () => {
  test.each([
    ["Route", "route"],
    ["Webhook", "webhook"],
  ] as const)("a %s: the replacement is a new object and the engine's delete removes only the old", async (kind, k) => {
    const name = `replaced-${k}`;
    const news: Props = {
      name,
      url: "https://rep.example.com/in",
      ...(k === "route" ? { recipient: "" } : { onDelivered: true }),
      __urn: urn(kind, name),
      __stackSalt: SALT,
      __replaceOnChanges: ["*"],
    };
    const old = await firstUp(run(k), news);
    const replacing = run(k);
    const made = await replacement(replacing, old, { ...news, url: "https://rep.example.com/in2" });
    expect(made.id).not.toBe(old.id);
    await replacing.delete(old.id, old.outs);
    const record = k === "route" ? Route : Webhook;
    const path = (id: string) => (k === "route" ? paths.route : paths.webhook)(emu.accountId, id);
    expect((await client.get(path(made.id), record)).id).toBe(made.id);
    await expect(client.get(path(old.id), record)).rejects.toThrow(/404|not found/i);
  });

  test("an updatable field changed (the key's 422): the old object is neither taken over nor reported", async () => {
    const name = "replaced-changed";
    const news: Props = {
      name,
      url: "https://rep.example.com/a",
      __urn: urn("Route", name),
      __stackSalt: SALT,
      __replaceOnChanges: ["url"],
    };
    const old = await firstUp(run("route"), news);
    const p = run("route");
    const { value: made, text } = await saidOnStderr(() =>
      replacement(p, old, { ...news, url: "https://rep.example.com/b" }),
    );
    expect(made.id).not.toBe(old.id);
    expect(text).not.toMatch(/taken over|likely leftover/);
    await p.delete(old.id, old.outs);
    expect(await routeIds(name)).toEqual([made.id]);
  });

  test("the replaced object made under a later key is not reported as a likely leftover", async () => {
    const name = "replaced-later-key";
    const news: Props = {
      name,
      url: "https://rep.example.com/l1",
      __urn: urn("Route", name),
      __stackSalt: SALT,
      __replaceOnChanges: ["url"],
    };
    // Created, destroyed, and created again with another url within 24 h: the object the state
    // holds is the second key's, and the first key's stored body is neither its nor the next one's.
    const first = await firstUp(run("route"), news);
    await run("route").delete(first.id, first.outs);
    const old = await firstUp(run("route"), { ...news, url: "https://rep.example.com/l2" });
    const p = run("route");
    const { value: made, text } = await saidOnStderr(() =>
      replacement(p, old, { ...news, url: "https://rep.example.com/l3" }),
    );
    expect(made.id).not.toBe(old.id);
    expect(text).not.toContain(`leftover: Route ${old.id}`);
    await p.delete(old.id, old.outs);
    expect(await routeIds(name)).toEqual([made.id]);
  });

  test("a replacement killed after the service committed, rerun: its own object, no twin", async () => {
    const name = "replaced-killed";
    const news: Props = {
      name,
      url: "https://rep.example.com/k",
      __urn: urn("Route", name),
      __stackSalt: SALT,
      __replaceOnChanges: ["url"],
    };
    const old = await firstUp(run("route"), news);
    const next = { ...news, url: "https://rep.example.com/k2" };
    const lost = await replacement(run("route"), old, next); // never recorded
    const rerun = run("route");
    const made = await replacement(rerun, old, next);
    expect(made.id).toBe(lost.id);
    await rerun.delete(old.id, old.outs);
    expect(await routeIds(name)).toEqual([made.id]);
  });

  test("the replacement replaced again, back to the first values: a third object", async () => {
    const name = "replaced-twice";
    const a: Props = {
      name,
      url: "https://rep.example.com/t",
      __urn: urn("Route", name),
      __stackSalt: SALT,
      __replaceOnChanges: ["url"],
    };
    const b = { ...a, url: "https://rep.example.com/t2" };
    const first = await firstUp(run("route"), a);
    const p2 = run("route");
    const second = await replacement(p2, first, b);
    await p2.delete(first.id, first.outs);
    const p3 = run("route");
    const third = await replacement(p3, { ...second, inputs: await checked(p3, {}, b) }, a);
    expect(third.id).not.toBe(second.id);
    expect(third.id).not.toBe(first.id);
    await p3.delete(second.id, second.outs);
    expect(await routeIds(name)).toEqual([third.id]);
  });
});

test("an adopted object, replaced by its diff: a new object, not the adopted one again", async () => {
  const name = "adopted";
  const theirs = (
    await client.post(paths.routes(emu.accountId), { name, url: "https://rep.example.com/ad", recipient: "" }, Route)
  ).data;
  const news: Props = {
    name,
    url: "https://rep.example.com/ad",
    adoptId: theirs.id,
    __urn: urn("Route", name),
    __stackSalt: SALT,
    __replaceOnChanges: ["url"],
  };
  const old = await firstUp(run("route"), news);
  expect(old.id).toBe(theirs.id);
  const p = run("route");
  const made = await replacement(p, old, { ...news, url: "https://rep.example.com/ad2" });
  expect(made.id).not.toBe(theirs.id);
  await p.delete(old.id, old.outs);
  expect(await routeIds(name)).toEqual([made.id]);
});

describe("a targeted replacement (`--replace`: checked without old inputs, no diff) within 24 h", () => {
  test("the service answers with the same object: the engine's delete of it is refused, the object stays", async () => {
    const name = "targeted";
    const news: Props = { name, url: "https://rep.example.com/x", __urn: urn("Route", name), __stackSalt: SALT };
    const old = await firstUp(run("route"), news);
    const p = run("route");
    const again = await p.create(await checked(p, {}, news));
    expect(again.id).toBe(old.id); // indistinguishable from the rerun of a killed create
    const { text } = await saidOnStderr(() => p.delete(old.id, old.outs));
    expect(text).toContain(`Route ${old.id} 'targeted': not deleted, and not replaced`);
    expect(await routeIds(name)).toEqual([old.id]);
  });
});

describe("a replacement the provider's diff asks for (the engine names the state's id)", () => {
  test("`replaceOnChanges` on an updatable field: a replacement, a new object", async () => {
    const name = "opted-in";
    const news: Props = {
      name,
      url: "https://rep.example.com/o",
      __urn: urn("Route", name),
      __stackSalt: SALT,
      __replaceOnChanges: ["url"],
    };
    const old = await firstUp(run("route"), news);
    const p = run("route");
    const next = await checked(p, old.inputs, { ...news, url: "https://rep.example.com/o2" });
    const diff = await p.diff(old.id, { ...old.inputs, ...old.outs }, next);
    expect(diff).toMatchObject({ changes: true, replaces: ["url"] });
    const replacement = await p.create(next);
    expect(replacement.id).not.toBe(old.id);
    await p.delete(old.id, old.outs);
    expect(await routeIds(name)).toEqual([replacement.id]);
  });

  test("without the option the same change is an update", async () => {
    const news: Props = { name: "plain", url: "https://rep.example.com/p", __urn: urn("Route", "plain") };
    const p = run("route");
    const next = await checked(p, news, { ...news, url: "https://rep.example.com/p2" });
    expect(await p.diff("any", news, next)).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("a Domain, whose name the service keeps unique", () => {
  test("a replacement created before the old one is deleted fails naming the option; nothing is deleted", async () => {
    const name = "forced.rep.example.com";
    const news: Props = {
      domain: name,
      __urn: urn("Domain", "forced"),
      __stackSalt: SALT,
      __replaceOnChanges: ["trackingSubdomain"],
    };
    const old = await firstUp(run("domain"), news);
    const p = run("domain");
    await expect(replacement(p, old, { ...news, trackingSubdomain: "t" })).rejects.toThrow(
      /not replaced: .*`deleteBeforeReplace: true`.*Nothing was deleted/s,
    );
    expect((await client.get(paths.domain(emu.accountId, name), Domain)).id).toBe(old.id);
  });

  test("with delete-before-replace (the engine deletes first): a new domain under the same name", async () => {
    const name = "dbr.rep.example.com";
    const news: Props = { domain: name, __urn: urn("Domain", "dbr"), __stackSalt: SALT };
    const old = await firstUp(run("domain"), news);
    const p = run("domain");
    const inputs = await checked(p, old.inputs, news);
    await p.diff(old.id, { ...old.inputs, ...old.outs }, inputs);
    await p.delete(old.id, old.outs);
    const made = await p.create(await checked(p, {}, news));
    expect(made.id).not.toBe(old.id);
    expect((await client.get(paths.domain(emu.accountId, name), Domain)).id).toBe(made.id);
  });
});
