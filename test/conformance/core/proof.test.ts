// The proof through the key (provider/core/operations/proof.ts) after a killed create, with the real
// declarations and the real HTTP client against the emulator on loopback: whatever updatable field
// the program changed before the rerun — one added, one removed, a default spelled out — and however
// many objects of other stacks look alike, the rerun finds the object its earlier attempt made and
// makes no twin; each distinct rebuilt body is sent once. Also a create 0.1.x sent (the program's
// fields as given, not the canonical form) and left unrecorded.
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { Route, SmtpCredential, Webhook, paths } from "../../../provider/api";
import type { TxmailClient } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import type { AnyDeclaration } from "../../../provider/core/declaration";
import { makeProvider, type Provider } from "../../../provider/core/factory";
import { canonicalBody } from "../../../provider/core/operations/createForm";
import { createKey, programBody } from "../../../provider/core/operations/createKey";
import { route as routeSpec } from "../../../provider/resources/route";
import { smtpCredential as smtpSpec } from "../../../provider/resources/smtpCredential";
import { webhook as webhookSpec } from "../../../provider/resources/webhook";
import type { EmulatorControl } from "../../../emulator/control";
import type { RunningEmulator } from "../../../emulator/server";
import { saidOnStderr } from "../../../support/stderr";
import { isInitFailure } from "../../../provider/core/initFailure";

const urn = (kind: string, name: string) => `urn:pulumi:dev::proof::pulumi-nodejs:dynamic/txmail:${kind}::${name}`;
const MINE = "salt-of-my-dev-stack-0001";
const ROUTES = "POST /v2/accounts/{account_id}/routes";

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, control, client } = await openAccount());
});

afterAll(() => closeAccount(emu));

const route = makeProvider(routeSpec, apiFor);
const webhook = makeProvider(webhookSpec, apiFor);
const smtp = makeProvider(smtpSpec, apiFor);

/** The body this provider sends for `inputs` (the canonical form). */
const canonical = (spec: AnyDeclaration, inputs: Record<string, unknown>) => canonicalBody(spec, inputs);

/**
 * A create the service committed and nobody recorded (the run was killed before its answer): the
 * resource's first key, sent once with `body` — this provider's (`canonical`) or 0.1.x's (`programBody`).
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

/** Another stack's provider: the same code in another process (claims of its own). */
function otherStack(): Provider {
  let made: Provider | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    made = factory.makeProvider(routeSpec, api.apiFor);
  });
  return made!;
}

const routesNamed = async (name: string) => (await control.dumpState()).routes.filter((r) => r.name === name);

/**
 * The rerun as the engine runs it, with the route POSTs its create sent (statuses in order). A
 * proven object whose fields differ from the program comes back as an init failure with its id and
 * properties as they are (`recovered`, provider/core/initFailure.ts): the engine records it, and the
 * next up updates it — its outcome is what this returns then.
 */
async function rerun(provider: Provider, inputs: Record<string, unknown>) {
  await control.clearRequests();
  const { value: created, text } = await saidOnStderr(() =>
    provider.create(inputs).then(
      (made) => ({ ...made, recovered: undefined }),
      (e: unknown) => {
        if (!isInitFailure(e)) throw e;
        return { id: e.id, outs: e.properties, recovered: e };
      },
    ),
  );
  const posts = (await control.requests()).requests
    .filter((r) => `${r.method} ${r.template}` === ROUTES)
    .map((r) => r.status);
  if (!created.recovered) return { ...created, text, posts };
  const { outs } = await provider.update(created.id, created.outs, inputs);
  return { ...created, outs, text, posts };
}

const routeInputs = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  url: "https://in.example.com/a",
  recipient: "",
  __urn: urn("Route", name),
  __stackSalt: MINE,
  ...extra,
});

describe("a killed create, then the program changes its set of fields: the rerun finds its object", () => {
  test("(a) `enabled: true` (the default) added: the same body, replayed; one route", async () => {
    const inputs = routeInputs("a-added-default");
    const killed = await killedCreate(routeSpec, inputs, canonical(routeSpec, inputs));
    const again = await rerun(route, { ...inputs, enabled: true });
    expect(again.id).toBe(killed);
    expect(again.posts).toEqual([201]); // the replay: the canonical body spells the default out
    expect((await routesNamed("a-added-default")).map((r) => r.id)).toEqual([killed]);
  });

  test("(b) `enabled: false` added: proven through the key, recovered, updated next; one route", async () => {
    const inputs = routeInputs("b-added");
    const killed = await killedCreate(routeSpec, inputs, canonical(routeSpec, inputs));
    const again = await rerun(route, { ...inputs, enabled: false });
    expect(again.id).toBe(killed);
    expect(again.recovered?.message).toMatch(/recovered, not yet updated.*\(enabled\)/);
    expect(again.posts).toEqual([422, 201]); // the program's body, then the rebuilt earlier one
    expect((await client.get(paths.route(emu.accountId, killed), Route)).enabled).toBe(false);
    expect((await routesNamed("b-added")).map((r) => r.id)).toEqual([killed]);
  });

  test("(b) an optional field removed (attachments) and the url changed: recovered, converged next", async () => {
    const inputs = routeInputs("b-removed", { attachments: true, headers: false });
    const killed = await killedCreate(routeSpec, inputs, canonical(routeSpec, inputs));
    const { attachments: _, ...without } = inputs;
    const again = await rerun(route, { ...without, url: "https://in.example.com/b" });
    expect(again.id).toBe(killed);
    expect(again.recovered?.message).toMatch(/\(url\)/); // attachments is no longer the program's
    expect(again.posts).toEqual([422, 201]);
    const live = await client.get(paths.route(emu.accountId, killed), Route);
    expect(live.url).toBe("https://in.example.com/b");
    expect(live.attachments).toBe(true); // no longer set by the program: the service's value stands
    expect(again.outs).toMatchObject({ url: "https://in.example.com/b", attachments: true });
    expect((await routesNamed("b-removed")).map((r) => r.id)).toEqual([killed]);
  });

  test("(b) an optional field removed, nothing else: taken over as it is, a plain create", async () => {
    const inputs = routeInputs("b-only-removed", { attachments: true });
    const killed = await killedCreate(routeSpec, inputs, canonical(routeSpec, inputs));
    const { attachments: _, ...without } = inputs;
    const again = await rerun(route, without);
    expect(again.id).toBe(killed);
    expect(again.recovered).toBeUndefined(); // every field the program sets holds its value
    expect(again.text).toMatch(/taken over/);
    expect(again.posts).toEqual([422, 201]);
    expect(again.outs).toMatchObject({ attachments: true });
  });
});

describe("a killed create proven through the key with other values: recorded before it changes", () => {
  // Seed 5905 #2737 (test/histories/regressions.test.ts): a create that converged the proven object
  // and was killed after its update left an object whose first body nothing held, and the next
  // rerun, unable to prove it, made a twin. The create changes nothing now; the engine records the
  // object from the init failure, and a rerun killed after it still finds the object through the key.
  test("the object is handed back unchanged with its id and properties; killed again, still found", async () => {
    const inputs = routeInputs("recorded-first");
    const killed = await killedCreate(routeSpec, inputs, canonical(routeSpec, inputs));
    const changed = { ...inputs, url: "https://in.example.com/changed" };
    const failure = await route.create(changed).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isInitFailure(failure)) throw new Error(`expected an init failure, got ${String(failure)}`);
    expect(failure.id).toBe(killed);
    expect(failure.reasons).toEqual([failure.message]);
    expect(failure.message).toMatch(
      new RegExp(
        `Route ${killed} 'recorded-first': recovered, not yet updated: an interrupted run created it.*\\(url\\); run \`pulumi up\` again`,
      ),
    );
    // As it is: the service's url, in the properties and at the service; the program's only where the key stood for it.
    expect(failure.properties).toMatchObject({ url: inputs.url, name: "recorded-first" });
    expect((await client.get(paths.route(emu.accountId, killed), Route)).url).toBe(inputs.url);
    // That run was killed too before the engine recorded it: the next run's create (a provider
    // process of its own, like another stack's) still proves the object.
    const again = await rerun(otherStack(), changed);
    expect(again.id).toBe(killed);
    expect(again.recovered).toBeDefined();
    // The next up's update converges it (rerun stands for it): one route, the program's url.
    expect((await client.get(paths.route(emu.accountId, killed), Route)).url).toBe(changed.url);
    expect(again.outs).toMatchObject({ url: changed.url });
    expect((await routesNamed("recorded-first")).map((r) => r.id)).toEqual([killed]);
  });
});

describe("(c) a killed create, then more look-alikes of other stacks than any cap, all newer", () => {
  test("the stack's own is found, no twin; each distinct rebuilt body is offered once", async () => {
    const name = "c-crowded";
    const inputs = routeInputs(name);
    const killed = await killedCreate(routeSpec, inputs, canonical(routeSpec, inputs));
    // Twelve newer routes of the same name, made by twelve other stacks: six distinct urls, each twice.
    const theirs: string[] = [];
    for (let i = 0; i < 12; i++) {
      await control.advanceClock(1000); // strictly newer: ours is the last candidate
      const made = await otherStack().create({
        ...inputs,
        url: `https://in.example.com/theirs-${i % 6}`,
        __stackSalt: `salt-of-another-stack-${i}`,
      });
      theirs.push(made.id);
    }
    const again = await rerun(route, { ...inputs, url: "https://in.example.com/changed" });
    expect(again.id).toBe(killed);
    expect(again.recovered).toBeDefined();
    // The program's body (422), the six distinct look-alike bodies (422 each, once), then ours replayed.
    expect(again.posts).toEqual([422, 422, 422, 422, 422, 422, 422, 201]);
    const named = (await routesNamed(name)).map((r) => r.id).sort();
    expect(named).toEqual([killed, ...theirs].sort()); // 13: no twin, none of theirs touched
    for (const id of theirs) {
      expect((await client.get(paths.route(emu.accountId, id), Route)).url).toMatch(/theirs-\d$/);
    }
    expect(again.text).not.toMatch(/likely leftover/);
  });
});

describe("(d) a create 0.1.x sent (the program's fields as given) and left unrecorded, rerun by this version", () => {
  test("the program unchanged: the same key, proven through 0.1.x's form; one route", async () => {
    const inputs = routeInputs("d-same");
    const killed = await killedCreate(routeSpec, inputs, programBody(routeSpec, inputs));
    const again = await rerun(route, inputs);
    expect(again.id).toBe(killed);
    // The canonical body (422: 0.1.x left the flags out), then 0.1.x's body rebuilt (the replay).
    expect(again.posts).toEqual([422, 201]);
    expect((await routesNamed("d-same")).map((r) => r.id)).toEqual([killed]);
  });

  test("the url changed: proven; one route, converged", async () => {
    const inputs = routeInputs("d-changed");
    const killed = await killedCreate(routeSpec, inputs, programBody(routeSpec, inputs));
    const again = await rerun(route, { ...inputs, url: "https://in.example.com/d" });
    expect(again.id).toBe(killed);
    expect(again.recovered).toBeDefined();
    expect((await client.get(paths.route(emu.accountId, killed), Route)).url).toBe("https://in.example.com/d");
    expect((await routesNamed("d-changed")).map((r) => r.id)).toEqual([killed]);
  });

  test("`enabled: true` added since: proven through the fields held away from the defaults; one route", async () => {
    const inputs = routeInputs("d-added");
    const killed = await killedCreate(routeSpec, inputs, programBody(routeSpec, inputs));
    const again = await rerun(route, { ...inputs, enabled: true });
    expect(again.id).toBe(killed);
    // The canonical body, 0.1.x's with the program's fields (enabled: 422), then without the defaults.
    expect(again.posts).toEqual([422, 422, 201]);
    expect((await routesNamed("d-added")).map((r) => r.id)).toEqual([killed]);
  });

  test("a webhook (the ten event flags left out) is proven; one webhook", async () => {
    const inputs = {
      name: "d-hook",
      url: "https://in.example.com/hook",
      onBounced: true,
      scope: "global",
      domains: [],
      __urn: urn("Webhook", "d-hook"),
      __stackSalt: MINE,
    };
    const killed = await killedCreate(webhookSpec, inputs, programBody(webhookSpec, inputs));
    const again = await rerun(webhook, { ...inputs, onFailed: true });
    expect(again.id).toBe(killed);
    expect(again.recovered?.message).toMatch(/\(onFailed\)/);
    expect((await client.get(paths.webhook(emu.accountId, killed), Webhook)).on_failed).toBe(true);
    expect((await control.dumpState()).webhooks.filter((w) => w.name === "d-hook")).toHaveLength(1);
  });

  test("an SMTP credential (immutable) whose domains the service lower-cases: the same key, proven", async () => {
    const inputs = {
      name: "d-smtp",
      sandbox: false,
      scope: "scoped",
      domains: ["Mail.Example.com"],
      __urn: urn("SmtpCredential", "d-smtp"),
      __stackSalt: MINE,
    };
    const killed = await killedCreate(smtpSpec, inputs, programBody(smtpSpec, inputs));
    const again = await smtp.create(inputs);
    expect(again.id).toBe(killed);
    expect(String(again.outs.password)).toMatch(/.+/); // the replay's own password
    const all = (await control.dumpState()).smtp_credentials.filter((s) => s.name === "d-smtp");
    expect(all).toHaveLength(1);
    expect((await client.get(paths.smtpCredential(emu.accountId, killed), SmtpCredential)).domains).toEqual([
      "mail.example.com",
    ]);
  });
});
