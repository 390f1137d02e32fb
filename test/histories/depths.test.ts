// The fast depth's engine model checked against the real engine (issue 59): the same short histories
// run through both depths (world.ts: the providers in process, each state simulated; engineWorld.ts:
// the Pulumi CLI on generated YAML programs and the native plugin) must leave, after every step,
// the same states and the same service. Ids differ between runs, so each state is compared as its
// resources by kind and name, each with its inputs and the service's record of the object it names,
// and the service as its live objects' records, without ids and times. One history per stack covers:
// add + up, an updatable change + up, a replacing change + up, `up --replace`, replaceOnChanges,
// remove + up, refresh after an out-of-band delete, destroy; a clone of A's project (stack C) with
// A's salt pinned, a rename with an alias, an import (and a preview after every clean up); then a
// killed create, a change, and the rerun's init failure (the object recorded as it is) before the up
// that updates it. Last, a Tenant on B: made with a webhook, the webhook changed in place, removed.
import { closeSharedDispatchers } from "../../provider/client";
import { type Cmd, describe as describeCmd, type Model, runCmd, type Settings } from "./commands";
import { type Depth, startWorld } from "./runner";
import type { World } from "./world";

jest.setTimeout(5 * 60_000);

afterAll(async () => {
  await closeSharedDispatchers();
});

const settings: Settings = { naturalKeys: true, stacks: 2, without: [] };

const HISTORY: Cmd[] = [
  // A: add + up (a kind of each family: in place, replaced, natural key), then changes.
  { t: "add", s: 0, kind: "Route", name: "a", v: 0 },
  { t: "add", s: 0, kind: "SmtpCredential", name: "a", v: 0 },
  { t: "add", s: 0, kind: "Domain", name: "a", v: 0 },
  { t: "up", s: 0 },
  { t: "update", s: 0, pick: 0, i: 0 }, // Route url → h1: in place
  { t: "up", s: 0 },
  { t: "replaceField", s: 0, pick: 1, i: 0 }, // SmtpCredential name: replaced
  { t: "up", s: 0 },
  { t: "remove", s: 0, pick: 2 }, // the Domain
  { t: "up", s: 0 },
  // A's project cloned with A's salt pinned in the committed configuration: C's objects are its own.
  { t: "clone", pin: true },
  // B: up --replace, replaceOnChanges, refresh after an out-of-band delete, destroy.
  { t: "add", s: 1, kind: "Webhook", name: "a", v: 0 },
  { t: "add", s: 1, kind: "ApiKey", name: "b", v: 1 },
  { t: "up", s: 1 },
  { t: "upReplace", s: 1, pick: 0 },
  { t: "replaceOnChanges", s: 1, pick: 0 },
  { t: "update", s: 1, pick: 0, i: 0 }, // Webhook url, replaced now
  { t: "up", s: 1 },
  { t: "oobDelete", pick: 3 }, // B's ApiKey (after A's two objects and B's Webhook)
  { t: "refresh", s: 1 },
  { t: "destroy", s: 0 },
  // B: a rename with an alias (the object kept), an import of a route made out of band.
  { t: "renameAlias", s: 1, pick: 0, to: "b" }, // and its up
  { t: "oobCreate", kind: "Route", name: "b", v: 1 },
  { t: "import", s: 1, pick: 0, name: "c" },
  // A: a create killed after the service committed, an updatable change, then the rerun that proves
  // the object through its key: an init failure (provider/core/initFailure.ts) — the engine records
  // the object as it is and fails the run — and the next up updates it. The program first drops
  // what the destroy left in it, so the killed run's one write is this route's create.
  { t: "remove", s: 0, pick: 0 },
  { t: "remove", s: 0, pick: 0 },
  { t: "add", s: 0, kind: "Route", name: "k", v: 0 },
  { t: "up", s: 0, kill: 1 },
  { t: "update", s: 0, pick: 0, i: 0 },
  { t: "up", s: 0 },
  { t: "up", s: 0 },
  // B: a Tenant with a webhook (its sub account, bootstrap key and webhook, the webhook made with the
  // bootstrap key in the sub account), the webhook's url changed in place, then the tenant removed.
  { t: "add", s: 1, kind: "Tenant", name: "a", v: 0 },
  { t: "optional", s: 1, pick: 3, i: 0 }, // its webhook
  { t: "up", s: 1 },
  { t: "update", s: 1, pick: 3, i: 2 }, // webhooks.hook.url → h2
  { t: "up", s: 1 },
  { t: "remove", s: 1, pick: 3 },
  { t: "up", s: 1 },
];

/** What may differ between two runs of one history: ids, times, counters, accounts, secrets, generated usernames and public keys. */
const VOLATILE =
  /(^id$|_id$|Id$|_at$|At$|count|Count|last_|usage|dns|Dns|_checked|stats|secret|password|username|public_key|^key$|^apiKey$)/;

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([k]) => !VOLATILE.test(k) && !k.startsWith("__"))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, stable(x)]),
    );
  return v;
}

/**
 * A world after a step, in terms two runs of the same history share. `same` says whether the
 * resource still names the object it named after the previous step (updated in place, or left) or
 * another (replaced): `ids` carries each resource's id from step to step.
 */
async function snapshot(w: World, ids: Map<string, string>) {
  const dump = await w.control.dumpState();
  const records = w.accountRecords(dump);
  const live = w.liveObjects(dump);
  const states = w.stacks.map((s) =>
    [...s.state.values()]
      .map((e) => {
        const resource = `${s.letter}:${e.kind}::${e.urn.split("::").pop()}`;
        const same = ids.has(resource) ? ids.get(resource) === e.id : "new";
        ids.set(resource, e.id);
        return {
          resource,
          same,
          inputs: stable(e.inputs),
          object: live.has(`${e.kind} ${e.id}`) ? stable(records.get(`${e.kind} ${e.id}`)?.record) : "gone",
        };
      })
      .sort((a, b) => a.resource.localeCompare(b.resource)),
  );
  const service = [...live]
    .filter((k) => !w.preexisting.has(k))
    .map((k) => `${k.split(" ")[0]} ${JSON.stringify(stable(records.get(k)?.record))}`)
    .sort();
  return { states, service, pendingDeletes: w.stacks.map((s) => s.pendingDelete.length) };
}

async function trace(depth: Depth) {
  const w = await startWorld(depth, settings.stacks);
  const model: Model = { programs: [[], [], []] };
  const steps: { step: string; problems: string[]; after: Awaited<ReturnType<typeof snapshot>> }[] = [];
  const ids = new Map<string, string>();
  try {
    for (const c of HISTORY) {
      const problems = await runCmd(settings, model, w, c);
      steps.push({ step: describeCmd(c), problems, after: await snapshot(w, ids) });
    }
  } finally {
    await w.close();
  }
  return { steps, ids };
}

test("the fast depth's engine model leaves the states and the service the real engine leaves", async () => {
  const [{ steps: fast }, { steps: engine, ids: engineIds }] = [await trace("fast"), await trace("engine")];
  const webhookBeforeAlias = engineIds.get("B:Webhook::a");
  expect(fast.flatMap((s) => s.problems)).toEqual([]);
  expect(engine.flatMap((s) => s.problems)).toEqual([]);
  // Step by step, so a difference names the first step where the model and the engine part.
  for (let i = 0; i < HISTORY.length; i++) expect({ at: i + 1, ...engine[i] }).toEqual({ at: i + 1, ...fast[i] });
  // The history did what it says: objects were made, replaced, deleted (a vacuous pass would not).
  const last = engine[engine.length - 1]!.after;
  expect(engine[21 - 1]!.after.states[0]).toEqual([]); // destroyed
  expect(last.states[0]!.map((r) => r.resource)).toEqual(["A:Route::k"]);
  // B's key, deleted out of band and refreshed away, made again by the up after the alias.
  expect(last.states[1]!.map((r) => r.resource)).toEqual(["B:ApiKey::b", "B:Route::c", "B:Webhook::b"]);
  // The clone's objects, made with its own salt, outlived A's destroy.
  expect(last.states[2]!.map((r) => [r.resource, r.object !== "gone"])).toEqual([
    ["C:Route::a", true],
    ["C:SmtpCredential::a", true],
  ]);
  const sameAfter = (step: number, resource: string) =>
    engine[step - 1]!.after.states.flat().find((r) => r.resource === resource)?.same;
  expect(sameAfter(6, "A:Route::a")).toBe(true); // updated in place
  expect(sameAfter(8, "A:SmtpCredential::a")).toBe(false); // replaced
  // up --replace within 24 h: the service answers the create with the same object, which stays.
  expect(sameAfter(15, "B:Webhook::a")).toBe(true);
  expect(sameAfter(18, "B:Webhook::a")).toBe(false); // replaceOnChanges
  expect(engineIds.get("B:Webhook::b")).toBe(webhookBeforeAlias); // renamed with an alias: the same object
  expect(webhookBeforeAlias).toBeDefined();
  // The killed create's object, recorded from the init failure as it is (the first url, the
  // program's inputs), then updated in place by the next up.
  const recovered = engine[30 - 1]!.after.states[0]!.find((r) => r.resource === "A:Route::k");
  expect(recovered?.same).toBe("new");
  expect((recovered?.object as Record<string, unknown>).url).not.toBe(
    (recovered?.inputs as Record<string, unknown>).url,
  );
  expect(sameAfter(31, "A:Route::k")).toBe(true);
  expect(last.states[0]![0]!.object).toMatchObject({
    url: (last.states[0]![0]!.inputs as Record<string, unknown>).url,
  });
  // The Tenant: its three resources made, its webhook updated in place (in its sub account), all deleted.
  const tenantUp = HISTORY.length - 4;
  const tenant = ["B:SubAccount::a", "B:SubAccountApiKey::a-bootstrap", "B:Webhook::a-webhook-hook"];
  expect(engine[tenantUp - 1]!.after.states[1]!.map((r) => [r.resource, r.object !== "gone"])).toEqual(
    expect.arrayContaining(tenant.map((t) => [t, true])),
  );
  expect(sameAfter(tenantUp + 2, "B:Webhook::a-webhook-hook")).toBe(true);
  expect(engine[tenantUp + 1]!.after.states[1]!.find((r) => r.resource === tenant[2])?.object).toMatchObject({
    url: "https://h2.example.com/in",
  });
});
