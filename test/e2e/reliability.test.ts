// Reliability on the real engine, with faults injected by the emulator into every create path of a
// program holding one of every create-capable resource plus a Tenant component (programs/all).
// Every scenario ends with the same verdict, taken from the service's own records (the emulator's
// state dump), not from Pulumi's outputs: 0 duplicates, 0 orphans, state matches service (same ids
// per kind, and a refresh finds nothing to change). Out-of-band changes (objects deleted or changed
// at the service, then restored by the next up) are proven for both faces by the fleet's drift
// check and its remediation (test/e2e/fleet/drift.test.ts).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { kindOfToken } from "../../provider/api/typeTokens";
import type { FaultSpec } from "../../emulator/faults";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, FACES, type Face, type TestStack } from "./harness";
import { onFace } from "./onFace";
import { killProvider, until } from "../../support/processes";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(15 * 60_000);

const PROGRAM = path.join(__dirname, "programs", "all");
/** Route templates of every create the program makes. */
const DOMAINS = "/v2/accounts/{account_id}/domains";
const CREATES = [
  "/v2/accounts/{account_id}/sub-accounts",
  "/v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys",
  "/v2/accounts/{account_id}/api-keys",
  "/v2/accounts/{account_id}/domains",
  "/v2/accounts/{account_id}/routes",
  "/v2/accounts/{account_id}/webhooks",
  "/v2/accounts/{account_id}/smtp-credentials",
];
/** Objects the program makes: 7 direct + the tenant's sub account, 2 keys, domain, route, webhook, SMTP. */
const EXPECTED_OBJECTS = 14;

interface Scenario {
  svc: TestService;
  t: TestStack;
  baseline: Set<string>;
  dataDir: string;
}

const open: Scenario[] = [];

async function scenario(env: Record<string, string> = {}, face: Face = "dynamic"): Promise<Scenario> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-rel-"));
  const svc = await startService({ dataDir });
  const baseline = new Set(serviceObjects(await controlClient(svc).dumpState()).map((o) => o.id));
  const t = await createTestStack({ programDir: PROGRAM, name: `rel-${face}`, config: svc.config(), env, face });
  const s = { svc, t, baseline, dataDir };
  open.push(s);
  return s;
}

afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.t.dispose();
    await s.svc.close();
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
});

/** The service objects in state: custom resources of either face's txmail tokens (not the Tenant component). */
async function stateIds(t: TestStack): Promise<Array<{ kind: string; id: string }>> {
  const exp = JSON.parse(await t.exportText(false)) as {
    deployment: { resources?: Array<{ type: string; custom?: boolean; id?: string }> };
  };
  return (exp.deployment.resources ?? []).flatMap((r) => {
    const kind = r.custom ? kindOfToken(r.type) : undefined;
    return kind ? [{ kind, id: r.id ?? "" }] : [];
  });
}

const byKind = (xs: Array<{ kind: string; id: string }>) => {
  const m: Record<string, string[]> = {};
  for (const x of xs) (m[x.kind] ??= []).push(x.id);
  for (const k of Object.keys(m)) m[k]!.sort();
  return m;
};

/** 0 duplicates, 0 orphans, state matches service. */
async function expectConsistent(s: Scenario, svc: TestService = s.svc): Promise<void> {
  const service = serviceObjects(await controlClient(svc).dumpState()).filter((o) => !s.baseline.has(o.id));
  const state = await stateIds(s.t);
  expect(service).toHaveLength(EXPECTED_OBJECTS);
  expect(byKind(service)).toEqual(byKind(state));
  const refresh = await s.t.refresh();
  expect(Object.keys(refresh.summary.resourceChanges ?? {}).filter((k) => k !== "same")).toEqual([]);
}

async function injectOnEveryCreate(
  svc: TestService,
  f: Omit<FaultSpec, "method" | "path">,
  except?: string,
): Promise<void> {
  const control = controlClient(svc);
  for (const p of CREATES) if (p !== except) await control.injectFault({ method: "POST", path: p, ...f });
}

/** Ids of the service's objects (made by the scenario) that the state does not record. */
async function extraObjects(s: Scenario): Promise<string[]> {
  const recorded = new Set((await stateIds(s.t)).map((o) => o.id));
  return serviceObjects(await controlClient(s.svc).dumpState())
    .filter((o) => !s.baseline.has(o.id) && !recorded.has(o.id))
    .map((o) => o.id);
}

/** The likely leftovers a run reported (provider/core/leftovers.ts): id → the URL its report says to DELETE. */
function reportedLeftovers(log: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of log.matchAll(/likely leftover: \w+ ([0-9a-f-]{36})[^\n]*?\(DELETE (\S+?)[ )]/g))
    found.set(m[1]!, m[2]!);
  return found;
}

/** Deletes every reported leftover the way its report says. */
async function deleteAsTold(s: Scenario, log: string): Promise<void> {
  for (const url of reportedLeftovers(log).values()) await s.svc.client.delete(new URL(url).pathname);
}

// Faults the HTTP client absorbs on its own (a retry with the same key replaying a dropped answer,
// a service that restarts): run on the dynamic face only, since both faces send every request
// through the same client (provider/client) and nothing of the face is on these paths. What each
// create path must do itself is send its idempotency key, which the dropped answer proves on every
// path; the rest is the client's alone, for every path alike, and proven against the emulator in
// test/conformance/client/client.emulator.test.ts: a 5xx before commit ("injected 5xx before
// execution: retried with the same key, one key created"), a timed-out create that meets its own
// run in progress ("headers timeout while the emulator still works -> retry -> in-progress 409 ->
// replay"), a 429 storm (its rate-limiting tests; on the real engine, test/e2e/busyAccount.test.ts).
describe("faults on every create path that the client absorbs (real engine, emulator faults)", () => {
  test("response dropped after the service committed: the retry replays, 0 duplicates", async () => {
    const s = await scenario();
    await injectOnEveryCreate(s.svc, { kind: "drop-after", count: 2 });
    await s.t.up();
    await expectConsistent(s);
  });

  test("emulator restarted mid-up (same data dir and port): the run completes", async () => {
    const s = await scenario();
    const port = Number(new URL(s.svc.baseUrl).port);
    // Slow the creates down so the restart lands in the middle of the run.
    await injectOnEveryCreate(s.svc, { kind: "delay", delayMs: 400, count: 2 });
    const up = s.t.up();
    let upSettled = false;
    void up.then(
      () => (upSettled = true),
      () => (upSettled = true),
    );
    await until("some creates", async () => (await controlClient(s.svc).counters()).writes >= 3);
    await s.svc.close();
    // The restart landed in the middle of the run: the up was still going when the service stopped…
    expect(upSettled).toBe(false);
    await new Promise((r) => setTimeout(r, 1_500));
    s.svc = await startService({ dataDir: s.dataDir, port });
    await up;
    // …and finished against the restarted service (its counters start at zero).
    expect((await controlClient(s.svc).counters()).writes).toBeGreaterThan(0);
    await expectConsistent(s);
  });
});

// Faults whose outcome the provider decides — a replay matched to the resource (idempotency keys
// from its URN and the stack salt), a stray of a 5xx reported (never deleted: nothing proves whose it
// is), a crashed create replayed by the next run, drift read back. What depends on the face runs on both: the native one names resources and
// keeps the salt its own way (the crashed create replayed by its key), and reads drift back through
// its own Read and Diff. What the generic provider below both faces decides alone — reporting a
// stray, reporting an orphan whose replay expired — runs on one face each.
describe.each(FACES)("%s face", (face) => {
  const on = (only: Face) => onFace(face, only);

  describe("faults on every create path that the provider resolves (real engine, emulator faults)", () => {
    on("native")(
      "5xx after commit (not stored, idempotency rule 6): every stray is reported by id, none is deleted",
      async () => {
        const s = await scenario({}, face);
        // Not on domains: their names are unique, so the retry meets a 409 and the create fails
        // naming the domain (test/conformance/core/ownership.test.ts).
        await injectOnEveryCreate(s.svc, { kind: "error-after", status: 500, count: 2 }, DOMAINS);
        const up = await s.t.up();
        expect(up.summary.result).toBe("succeeded");
        const strays = await extraObjects(s);
        expect(strays.length).toBeGreaterThan(0);
        expect([...reportedLeftovers(s.t.log()).keys()].sort()).toEqual(strays.sort());
        await deleteAsTold(s, s.t.log());
        await expectConsistent(s);
      },
    );
  });

  describe("provider process killed mid-create, then pulumi up again", () => {
    /** Holds the account key's create after commit, kills the provider, and waits for the failed run. */
    async function killDuringKeyCreate(s: Scenario): Promise<void> {
      const control = controlClient(s.svc);
      await control.injectFault({ method: "POST", path: CREATES[2]!, kind: "delay-after", delayMs: 20_000 });
      let ended: string | undefined;
      const up = s.t.up().then(
        () => (ended = "succeeded"),
        (e: Error) => (ended = e.message),
      );
      // Bounded generously (a loaded machine takes minutes to reach the key's create), and cut short
      // with the run's own words if it ends before the key is committed.
      await until(
        "the key to be committed",
        async () => {
          if (ended !== undefined) throw new Error(`the up ended before the key was committed: ${ended}`);
          return (await control.dumpState()).api_keys.some((k) => k.label === "key-v1");
        },
        240_000,
      );
      expect(killProvider(s.t)).toBeGreaterThan(0);
      expect(await up).not.toBe("succeeded");
      await control.clearFaults();
    }

    test("within the 5-minute window: the create replays the same key and secret, 0 duplicates", async () => {
      const s = await scenario({}, face);
      await killDuringKeyCreate(s);
      await s.t.up();
      await expectConsistent(s);
      // The secret in state is the key's real secret (the replay returned it): it authenticates.
      const exp = JSON.parse(await s.t.exportText(true)) as {
        deployment: { resources: Array<{ type: string; outputs?: { secretKey?: { plaintext?: string } } }> };
      };
      const key = exp.deployment.resources.find((r) => r.type.endsWith(":ApiKey"))!;
      const secret = JSON.parse(key.outputs!.secretKey!.plaintext!) as string;
      const res = await fetch(`${s.svc.baseUrl}/v2/accounts/${s.svc.accountId}/routes`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.status).toBe(200);
    });

    on("dynamic")(
      "after the window: a new key is made; the orphan is reported by id, left alone, and deleted as told",
      async () => {
        const s = await scenario({}, face);
        await killDuringKeyCreate(s);
        await controlClient(s.svc).advanceClock(6 * 60_000);
        const orphan = (await controlClient(s.svc).dumpState()).api_keys.find((k) => k.label === "key-v1")!;
        expect((await s.t.up()).summary.result).toBe("succeeded");
        const reported = reportedLeftovers(s.t.log());
        expect(reported.has(orphan.id)).toBe(true);
        // Keys whose creation was in flight when the provider died are reported the same way.
        const extra = await extraObjects(s);
        expect(extra).toContain(orphan.id);
        expect(extra.filter((id) => !reported.has(id))).toEqual([]);
        await deleteAsTold(s, s.t.log());
        await expectConsistent(s);
      },
    );
  });
});
