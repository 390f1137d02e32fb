// The control surface (/_emulator/, X-Emulator-Control) through emulator/control.ts: off unless
// enabled, token checked, faults by method + path pattern with counts, counters, dump.
import { EmulatorControl } from "../../../emulator/control";
import { RequestLog } from "../../../emulator/requestLog";
import { type Emu, expectError, makeSub, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start({ control: { token: "conformance-token" } });
});
afterAll(() => emu.close());

describe("Control surface", () => {
  test("Control: off unless enabled (404), wrong token 401", async () => {
    const off = await start({ control: false });
    try {
      expect(off.controlToken).toBeUndefined();
      expect((await fetch(`${off.baseUrl}/_emulator/counters`)).status).toBe(404);
    } finally {
      await off.close();
    }
    expect(emu.controlToken).toBe("conformance-token");
    await expect(new EmulatorControl(emu.baseUrl, "wrong-token!").counters()).rejects.toThrow(/401/);
  });

  test("Control: faults fire `count` times on matching method + path only", async () => {
    await emu.control.clearFaults();
    await emu.control.injectFault({
      method: "GET",
      path: "/v2/accounts/*/routes",
      kind: "error-before",
      status: 503,
      count: 2,
    });
    await emu.control.injectFault({ method: "*", path: "/v2/ping", kind: "rate-limit", retryAfter: null });
    expect((await emu.req("GET", emu.acct("/domains"))).status).toBe(200);
    expect((await emu.req("GET", emu.acct("/routes"))).status).toBe(503);
    expect((await emu.req("GET", emu.acct("/routes"))).status).toBe(503);
    expect((await emu.req("GET", emu.acct("/routes"))).status).toBe(200);
    const rl = await emu.req("GET", "/v2/ping");
    expectError(rl, 429, "Too many requests, rate limited.");
    expect(rl.headers.get("retry-after")).toBeNull();
    await emu.control.injectFault({ method: "GET", path: "/v2/ping", kind: "rate-limit", retryAfter: 3 });
    expect((await emu.req("GET", "/v2/ping")).headers.get("retry-after")).toBe("3");
    const faults = await emu.control.faults();
    expect(faults.map((f) => [f.kind, f.fired, f.remaining])).toEqual([
      ["error-before", 2, 0],
      ["rate-limit", 1, 0],
      ["rate-limit", 1, 0],
    ]);
    await expect(emu.control.injectFault({ method: "GET", path: "/x", kind: "nope" as never })).rejects.toThrow(/400/);
  });

  test("Control: a fault lets `skip` matching requests through, of any method it lists", async () => {
    await emu.control.clearFaults();
    await emu.control.injectFault({ method: "GET,DELETE", path: "/v2/ping", kind: "error-before", skip: 2 });
    expect((await emu.req("POST", "/v2/ping")).status).not.toBe(500); // not a listed method: not counted
    expect((await emu.req("GET", "/v2/ping")).status).toBe(200);
    expect((await emu.req("GET", "/v2/ping")).status).toBe(200);
    expect((await emu.req("GET", "/v2/ping")).status).toBe(500);
    expect((await emu.req("GET", "/v2/ping")).status).toBe(200);
    expect((await emu.control.faults()).map((f) => [f.fired, f.skip])).toEqual([[1, 0]]);
    await expect(
      emu.control.injectFault({ method: "GET", path: "/v2/ping", kind: "error-before", skip: -1 }),
    ).rejects.toThrow(/400/);
  });

  test("Control: delay-after commits (and stores the replay) before holding the answer", async () => {
    await emu.control.clearFaults();
    await emu.control.injectFault({ method: "POST", path: "/v2/accounts/*/routes", kind: "delay-after", delayMs: 400 });
    const name = `held-${Date.now()}`;
    const body = { name, url: "https://h.example.com/", recipient: "" };
    const pending = emu.req("POST", emu.acct("/routes"), { body, idem: name });
    await new Promise((r) => setTimeout(r, 150));
    const list = await emu.req("GET", emu.acct("/routes"));
    expect(list.body.data.map((r: { name: string }) => r.name)).toContain(name);
    // Already completed: a retry while the answer is held gets the replay, not "in progress".
    const early = await emu.req("POST", emu.acct("/routes"), { body, idem: name });
    expect([early.status, early.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    const first = await pending;
    expect(first.status).toBe(201);
    const replay = await emu.req("POST", emu.acct("/routes"), { body, idem: name });
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.body.id]).toEqual([
      201,
      "true",
      first.body.id,
    ]);
  });

  test("Control: counters per method + route template, reads and writes, reset", async () => {
    await emu.control.resetCounters();
    await emu.req("GET", emu.acct("/routes"));
    await emu.req("GET", emu.acct("/routes"));
    await emu.req("POST", emu.acct("/routes"), { body: { name: "c", url: "https://h.example.com/", recipient: "" } });
    await emu.req("GET", "/v2/nowhere");
    const c = await emu.control.counters();
    expect(c).toMatchObject({ reads: 3, writes: 1, total: 4 });
    expect(c.endpoints).toEqual({
      "GET /v2/accounts/{account_id}/routes": 2,
      "POST /v2/accounts/{account_id}/routes": 1,
      "GET (unmatched)": 1,
    });
    await emu.control.resetCounters();
    expect(await emu.control.counters()).toEqual({ reads: 0, writes: 0, total: 0, endpoints: {}, keys: {} });
  });

  test("Control: the request log keeps arrival order, route template and status sent; control calls stay out", async () => {
    await emu.control.clearFaults();
    await emu.control.clearRequests();
    await emu.control.injectFault({ method: "GET", path: "/v2/accounts/*/webhooks", kind: "drop-after" });
    await emu.req("GET", emu.acct("/routes?limit=5"));
    const created = await emu.req("POST", emu.acct("/routes"), {
      body: { name: uniq("logged"), url: "https://h.example.com/", recipient: "" },
    });
    await emu.req("DELETE", emu.acct(`/routes/${created.body.id}`));
    await emu.req("GET", "/v2/nowhere");
    await expect(emu.req("GET", emu.acct("/webhooks"))).rejects.toThrow();
    await emu.control.counters(); // a control call: not service traffic
    const { requests, dropped } = await emu.control.requests();
    expect(dropped).toBe(0);
    expect(requests.map((r) => [r.method, r.path, r.template, r.status])).toEqual([
      ["GET", emu.acct("/routes"), "/v2/accounts/{account_id}/routes", 200],
      ["POST", emu.acct("/routes"), "/v2/accounts/{account_id}/routes", 201],
      ["DELETE", emu.acct(`/routes/${created.body.id}`), "/v2/accounts/{account_id}/routes/{route_id}", 200],
      ["GET", "/v2/nowhere", null, 404],
      ["GET", emu.acct("/webhooks"), "/v2/accounts/{account_id}/webhooks", null],
    ]);
    const seqs = requests.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    await emu.control.clearRequests();
    expect((await emu.control.requests()).requests).toEqual([]);
  });

  test("Control: the request log is bounded and says how many entries it dropped", () => {
    const log = new RequestLog(4);
    for (let i = 1; i <= 11; i++) log.begin("GET", `/v2/x/${i}`, new Date(0).toISOString());
    const { requests, dropped } = log.snapshot();
    expect(requests.map((r) => [r.seq, r.path])).toEqual([
      [8, "/v2/x/8"],
      [9, "/v2/x/9"],
      [10, "/v2/x/10"],
      [11, "/v2/x/11"],
    ]);
    expect(dropped).toBe(7);
    expect(() => new RequestLog(0)).toThrow(/positive integer/);
  });

  test("Control: the state dump lists every object with its account, incl. soft-deleted sub accounts, and no secrets", async () => {
    const sub = await makeSub(emu);
    const k = await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/api-keys`), {
      body: { label: "dumped", scopes: ["routes:read:all"] },
    });
    const r = await emu.req("POST", emu.acct("/routes"), {
      body: { name: "dumped", url: "https://h.example.com/", recipient: "" },
    });
    let d = await emu.control.dumpState();
    expect(d.api_keys.find((x) => x.id === k.body.id)).toMatchObject({ account_id: sub.id, label: "dumped" });
    expect(d.routes.find((x) => x.id === r.body.id)).toMatchObject({ account_id: emu.accountId });
    const text = JSON.stringify(d);
    expect(text).not.toContain(k.body.secret_key);
    expect(text).not.toContain(r.body.secret);
    expect(text).not.toContain(emu.apiKey);
    expect((await emu.req("GET", "/v2/ping", { key: k.body.secret_key })).status).toBe(200);
    await emu.req("DELETE", emu.acct(`/sub-accounts/${sub.id}`));
    d = await emu.control.dumpState();
    expect(d.accounts.find((a) => a.id === sub.id)).toMatchObject({ status: "deleted" });
    // Deleting a sub account revokes its keys: none is left in the store, the secret no longer
    // authenticates, and every key left belongs to a live account. (Soft-deleted sub accounts stay
    // in the dump, so "belongs to an account in the dump" would hold for an orphan too.)
    expect(d.api_keys.filter((x) => x.account_id === sub.id)).toEqual([]);
    expect((await emu.req("GET", "/v2/ping", { key: k.body.secret_key })).status).toBe(401);
    const live = new Set(d.accounts.filter((a) => a.status !== "deleted").map((a) => a.id));
    expect(d.api_keys.filter((x) => !live.has(x.account_id))).toEqual([]);
  });

  test("Control: the clock advances only forward", async () => {
    const a = await emu.control.clock();
    const b = await emu.control.advanceClock(90_000);
    expect(b.offsetMs - a.offsetMs).toBe(90_000);
    await expect(emu.control.advanceClock(-1)).rejects.toThrow(/400/);
  });
});
