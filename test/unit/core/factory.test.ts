// The generic provider's semantics, against an in-memory fake of the API (no network): check
// failures name the input and the rule, diff separates replacements from updates, create survives
// replays of deleted objects, read keeps one-time secrets and reports deleted objects as gone.
import { isInitFailure } from "../../../provider/core/initFailure";
import { z } from "zod";
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import type { Kind } from "../../../provider/api/kinds";
import type { Declaration } from "../../../provider/core/declaration";
import { UNKNOWN } from "../../../provider/core/unknowns";
import { saidOnStderr } from "../../../support/stderr";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";

class NotFound extends Error {
  readonly category = "not-found";
}

class Mismatch extends Error {
  readonly category = "idempotency-mismatch";
}

/** A fake service storing widgets, with an idempotency table like the real one. */
class FakeApi implements Api {
  records = new Map<string, Record<string, unknown>>();
  replays = new Map<string, Record<string, unknown>>();
  /** The body each key was first used with (rule 2: the same key with another body is a 422). */
  bodies = new Map<string, string>();
  calls: string[] = [];
  /** Simulates a 5xx after commit on the next POST: the object is created twice, the retry is `uncertain`. */
  failAfterCommit = false;
  /** The next POST commits (object and stored answer) and its answer is lost: a run killed then. */
  loseNextAnswer = false;
  /** Answers the next POST with this error instead. */
  nextPostError: Error | undefined;
  // Ids unique across fakes: the provider remembers the ids it created in this process.
  private static seq = 0;

  async get<T>(path: string, schema: z.ZodType<T, unknown>): Promise<T> {
    this.calls.push(`GET ${path}`);
    const r = this.records.get(path.split("/").pop()!);
    if (!r) throw new NotFound("not found");
    return schema.parse(r);
  }
  async post<T>(path: string, body: unknown, schema: z.ZodType<T, unknown>, opts?: { idempotencyKey?: string }) {
    this.calls.push(`POST ${path}`);
    const stored = opts?.idempotencyKey ? this.replays.get(opts.idempotencyKey) : undefined;
    if (this.nextPostError) {
      const e = this.nextPostError;
      this.nextPostError = undefined;
      throw e;
    }
    const key = opts?.idempotencyKey;
    if (key && this.bodies.has(key) && this.bodies.get(key) !== JSON.stringify(body)) {
      throw new Mismatch("Idempotency-Key already used with a different payload");
    }
    if (key) this.bodies.set(key, JSON.stringify(body));
    if (stored) return { data: schema.parse(stored), replayed: true };
    const uncertain = this.failAfterCommit;
    if (uncertain) {
      this.failAfterCommit = false;
      this.insert(body); // committed, then the 5xx: not stored, so the retry executes again
    }
    const record = this.insert(body);
    if (opts?.idempotencyKey) this.replays.set(opts.idempotencyKey, record);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new Error("killed before the answer arrived");
    }
    return { data: schema.parse(record), replayed: false, uncertain };
  }
  private insert(body: unknown): Record<string, unknown> {
    const id = `w${++FakeApi.seq}`;
    const created_at = new Date().toISOString();
    const record = { id, color: "red", ...(body as object), secret: `s3cret-${id}`, hits: 0, created_at };
    this.records.set(id, record);
    return record;
  }
  async *list<T>(_path: string, schema: z.ZodType<T, unknown>): AsyncIterable<T> {
    this.calls.push(`LIST ${_path}`);
    for (const r of [...this.records.values()]) yield schema.parse(r);
  }
  async put<T>(path: string, body: unknown, schema: z.ZodType<T, unknown>): Promise<T> {
    this.calls.push(`PUT ${path} ${JSON.stringify(body)}`);
    const id = path.split("/").pop()!;
    const r = this.records.get(id);
    if (!r) throw new NotFound("not found");
    Object.assign(r, body);
    return schema.parse(r);
  }
  async delete(path: string): Promise<void> {
    this.calls.push(`DELETE ${path}`);
    if (!this.records.delete(path.split("/").pop()!)) throw new NotFound("not found");
  }
}

const Widget = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  color: z.string(),
  hits: z.number(),
  created_at: z.string(),
});
const inputs = z.object({
  name: z.string().min(1, "must not be empty"),
  size: z.number().int().min(1, "must be at least 1"),
  color: z.enum(["red", "blue"]).optional(),
  rotation: z.string().optional(),
});

const declaration: Declaration<z.infer<typeof inputs>> = {
  kind: "Widget" as Kind, // made up: no kind of the list
  sdk: { outputs: [] },
  title: (p) => p.name,
  listing: { listed: true },
  inputs,
  apiFields: ["name", "size", "color"],
  replaceOn: ["color", "rotation"],
  createOnly: { secret: "secret" },
  record: Widget,
  created: Widget.extend({ secret: z.string() }),
  collectionPath: () => "/widgets",
  itemPath: (_c, _p, id) => `/widgets/${id}`,
  scopes: { read: () => ["widgets:read"], write: () => ["widgets:write"], delete: () => ["widgets:delete"] },
};

function setup() {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
  const api = new FakeApi();
  return { api, provider: makeProvider(declaration, () => api) };
}

const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:Widget::w";

describe("check", () => {
  it("names every invalid input and its rule", async () => {
    const { provider } = setup();
    const r = await provider.check({}, { name: "", size: 0, __urn: urn });
    expect(r.failures).toEqual([
      { property: "name", reason: "name: must not be empty" },
      { property: "size", reason: "size: must be at least 1" },
    ]);
  });

  it("skips values unknown at preview and keeps them", async () => {
    const { provider } = setup();
    const r = await provider.check({}, { name: UNKNOWN, size: 2, __urn: urn });
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toMatchObject({ name: UNKNOWN, size: 2 });
  });

  it("rejects a malformed connection override", async () => {
    const { provider } = setup();
    const r = await provider.check({}, { name: "a", size: 1, connection: { accountId: "nope" } });
    expect(r.failures?.[0].property).toBe("connection.accountId");
  });
});

describe("diff", () => {
  const olds = { name: "a", size: 1, color: "red", hits: 5, __urn: urn };

  it("reports no change when only counters moved", async () => {
    const { provider } = setup();
    expect(
      await provider.diff("w1", { ...olds, hits: 99 }, { name: "a", size: 1, color: "red", __urn: urn }),
    ).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("updates in place for updatable fields and replaces for replace triggers", async () => {
    const { provider } = setup();
    expect(await provider.diff("w1", olds, { name: "b", size: 1, color: "red" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await provider.diff("w1", olds, { name: "a", size: 1, color: "blue" })).toMatchObject({
      replaces: ["color"],
    });
    expect(await provider.diff("w1", olds, { name: "a", size: 1, color: "red", rotation: "2026-11" })).toMatchObject({
      replaces: ["rotation"],
    });
  });

  it("treats an unknown value as a change and a new account as a replacement", async () => {
    const { provider } = setup();
    expect(await provider.diff("w1", olds, { name: UNKNOWN, size: 1 })).toMatchObject({ changes: true });
    const same = await provider.diff("w1", olds, { name: "a", size: 1, connection: { accountId: ACCOUNT } });
    expect(same.replaces).not.toContain("connection");
    const other = "22222222-2222-4222-8222-222222222222";
    const moved = await provider.diff("w1", olds, { name: "a", size: 1, connection: { accountId: other } });
    expect(moved.replaces).toContain("connection");
  });

  it("leaves fields the program does not set to the service", async () => {
    const { provider } = setup();
    expect((await provider.diff("w1", olds, { name: "a", size: 1 })).changes).toBe(false);
  });
});

describe("create, read, update, delete", () => {
  it("creates once: a second create of the same resource is a replay, not a duplicate", async () => {
    const { api, provider } = setup();
    const first = await provider.create({ name: "a", size: 1, __urn: urn });
    const again = await provider.create({ name: "a", size: 1, __urn: urn });
    expect(again.id).toBe(first.id);
    expect(api.records.size).toBe(1);
    expect(first.outs.secret).toBe(`s3cret-${first.id}`);
  });

  /** A create whose answer never arrives (the run was killed): the object exists, no one recorded it. */
  async function killedCreate(api: FakeApi, provider: ReturnType<typeof makeProvider>, props: Record<string, unknown>) {
    api.loseNextAnswer = true;
    await expect(provider.create(props)).rejects.toThrow("killed before the answer arrived");
    return [...api.records.keys()].pop()!;
  }

  it("an earlier attempt with other updatable values (a killed run, then a change) is recovered through its key", async () => {
    // The service answers the key, offered the earlier attempt's body rebuilt from the object, with
    // that very object: proven this stack's, handed to the engine unchanged as an init failure with
    // its properties — the secret of the replay among them — and updated by the next up.
    const { api, provider } = setup();
    const killed = await killedCreate(api, provider, { name: "a", size: 1, __urn: urn });
    const failure = await provider.create({ name: "a", size: 2, __urn: urn }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isInitFailure(failure)) throw new Error(`expected an init failure, got ${String(failure)}`);
    expect(failure.id).toBe(killed);
    expect(api.records.size).toBe(1);
    expect(api.records.get(killed)).toMatchObject({ size: 1 });
    expect(failure.properties).toMatchObject({ size: 1, secret: `s3cret-${killed}` });
    const next = await provider.update(killed, failure.properties, { name: "a", size: 2, __urn: urn });
    expect(api.records.get(killed)).toMatchObject({ size: 2 });
    expect(next.outs).toMatchObject({ size: 2, secret: `s3cret-${killed}` });
  });

  it("an earlier attempt whose object is gone makes a new one; a look-alike is never taken", async () => {
    const { api, provider } = setup();
    const first = await killedCreate(api, provider, { name: "c", size: 1, __urn: urn });
    api.records.delete(first); // deleted since
    const next = await provider.create({ name: "c", size: 2, __urn: urn });
    expect([...api.records.keys()]).toEqual([next.id]);

    // An identical object made by hand beside the killed run's: only the one the key names is taken.
    const other = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:Widget::other";
    const made = await killedCreate(api, provider, { name: "d", size: 1, __urn: other });
    const handMade = {
      ...api.records.get(made)!,
      id: "hand-made",
      created_at: new Date(Date.now() + 1000).toISOString(),
    };
    api.records.set("hand-made", { ...handMade });
    const rerun = await provider.create({ name: "d", size: 2, __urn: other }).catch((e: unknown) => e);
    expect(isInitFailure(rerun) && rerun.id).toBe(made); // recovered, to be updated by the next up
    expect(api.records.get("hand-made")).toEqual(handMade);
  });

  it("never takes or deletes another stack's object: a stack removes and re-adds its own with other values", async () => {
    const { api, provider } = setup();
    const mine = { name: "ci", size: 1, __urn: urn, __stackSalt: "salt-of-my-dev-stack" };
    const theirs = await provider.create({ ...mine, __stackSalt: "salt-of-their-dev-stack" });
    const theirRecord = { ...api.records.get(theirs.id)! };
    const first = await provider.create(mine);
    await provider.delete(first.id, first.outs);
    const again = await provider.create({ ...mine, size: 5 });
    expect(again.id).not.toBe(theirs.id);
    expect(api.records.get(theirs.id)).toEqual(theirRecord);
    expect(api.calls.filter((c) => c.startsWith("DELETE"))).toEqual([`DELETE /widgets/${first.id}`]);
  });

  it("moves to a fresh key when the replayed object was deleted since", async () => {
    const { api, provider } = setup();
    const first = await provider.create({ name: "a", size: 1, __urn: urn });
    await provider.delete(first.id, first.outs);
    const second = await provider.create({ name: "a", size: 1, __urn: urn });
    expect(second.id).not.toBe(first.id);
    expect(api.records.size).toBe(1);
  });

  it("creates a new object for a rotation while the old one still exists", async () => {
    const { api, provider } = setup();
    const first = await provider.create({ name: "a", size: 1, __urn: urn });
    const rotated = await provider.create({ name: "a", size: 1, rotation: "2026-11", __urn: urn });
    expect(rotated.id).not.toBe(first.id);
    expect(api.records.size).toBe(2);
  });

  it("keeps stacks with the same URN apart by their salt, and replays within one stack", async () => {
    const { api, provider } = setup();
    const mine = await provider.create({ name: "a", size: 1, __urn: urn, __stackSalt: "salt-of-my-dev-stack" });
    const theirs = await provider.create({ name: "a", size: 1, __urn: urn, __stackSalt: "salt-of-their-dev-stack" });
    expect(theirs.id).not.toBe(mine.id);
    const rerun = await provider.create({ name: "a", size: 1, __urn: urn, __stackSalt: "salt-of-my-dev-stack" });
    expect(rerun.id).toBe(mine.id);
    expect(api.records.size).toBe(2);
    expect(mine.outs).not.toHaveProperty("__stackSalt"); // an input only: not repeated in the outputs
    const checked = await provider.check({}, { name: "a", size: 1, __urn: urn, __stackSalt: "salt-of-my-dev-stack" });
    expect(checked.inputs?.__stackSalt).toBe("salt-of-my-dev-stack"); // check passes it through to create
  });

  it("ignores the salt in diff, so a stack made before the salt existed is not updated", async () => {
    const { provider } = setup();
    const olds = { name: "a", size: 1, color: "red", __urn: urn };
    expect(await provider.diff("w1", olds, { ...olds, __stackSalt: "new-salt" })).toMatchObject({ changes: false });
    expect(await provider.diff("w1", olds, { ...olds, __stackSalt: UNKNOWN })).toMatchObject({ changes: false });
  });

  it("keeps one-time secrets on read and reports an object deleted out of band as gone", async () => {
    const { api, provider } = setup();
    const { id, outs } = await provider.create({ name: "a", size: 1, __urn: urn });
    api.records.get(id)!.name = "changed out of band";
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ name: "changed out of band", secret: outs.secret });
    api.records.delete(id);
    expect(await provider.read(id, outs)).toEqual({ id: "" });
  });

  it("sends only changed fields and skips no-op updates", async () => {
    const { api, provider } = setup();
    const { id, outs } = await provider.create({ name: "a", size: 1, __urn: urn });
    await provider.update(id, outs, { ...outs, name: "b" });
    expect(api.calls.at(-1)).toBe(`PUT /widgets/${id} {"name":"b"}`);
    const before = api.calls.length;
    const same = await provider.update(id, { ...outs, name: "b" }, { ...outs, name: "b" });
    expect(api.calls.length).toBe(before);
    expect(same.outs.secret).toBe(outs.secret);
  });

  it("treats a delete of an object already gone as done", async () => {
    const { provider } = setup();
    await expect(provider.delete("w404", {})).resolves.toBeUndefined();
  });

  it("adopts an existing object by id, converging updatable fields", async () => {
    const { api, provider } = setup();
    const existing = await provider.create({ name: "old", size: 3, color: "red", __urn: "urn:other" });
    const adopted = await provider.create({ name: "new", size: 3, color: "red", adoptId: existing.id, __urn: urn });
    expect(adopted.id).toBe(existing.id);
    expect(api.records.get(existing.id)!.name).toBe("new");
    expect(adopted.outs.secret).toBe("");
    await expect(
      provider.create({ name: "x", size: 3, color: "blue", adoptId: existing.id, __urn: urn }),
    ).rejects.toThrow(/color is "red", the program says "blue"/);
  });
});

/** What the provider said while `run` ran (its progress lines go to stderr without an engine). */
const said = async (run: () => Promise<unknown>) => (await saidOnStderr(run)).text;

describe("create after a retried 5xx (idempotency rule 6)", () => {
  const urn = (n: string) => `urn:pulumi:s::p::pulumi-nodejs:dynamic/txmail:Widget::${n}`;

  test("reports the stray the failed attempt may have committed, and deletes nothing", async () => {
    const { api, provider } = setup();
    api.failAfterCommit = true;
    let id = "";
    const text = await said(async () => ({ id } = await provider.create({ name: "a", size: 1, __urn: urn("a") })));
    const stray = [...api.records.keys()].find((k) => k !== id)!;
    expect(api.records.size).toBe(2);
    expect(api.calls.filter((c) => c.startsWith("DELETE"))).toEqual([]);
    expect(text).toContain(`likely leftover: Widget ${stray} 'a'`);
    expect(text).toContain(`(txmail-likely-leftover Widget ${stray})`);
    expect(text).not.toContain(`leftover Widget ${id}`);
  });

  test("never reports an identical object another resource of this process created", async () => {
    const { api, provider } = setup();
    const first = await provider.create({ name: "same", size: 1, __urn: urn("first") });
    api.failAfterCommit = true;
    const text = await said(() => provider.create({ name: "same", size: 1, __urn: urn("second") }));
    expect(api.records.size).toBe(3);
    expect(text).not.toContain(first.id);
  });

  test("leaves objects with different creation fields out of the report", async () => {
    const { api, provider } = setup();
    api.records.set("old", {
      id: "old",
      name: "other",
      size: 1,
      color: "red",
      hits: 0,
      created_at: new Date().toISOString(),
    });
    api.failAfterCommit = true;
    const text = await said(() => provider.create({ name: "mine", size: 1, __urn: urn("mine") }));
    expect(text).not.toContain("old");
  });
});

describe("create answered 409 for a secret-bearing object (replay window passed)", () => {
  const conflict = () => Object.assign(new Error("409 can no longer be replayed"), { category: "conflict" });
  const urn = "urn:pulumi:s::p::pulumi-nodejs:dynamic/txmail:Widget::k";

  test("creates under the next key and reports the look-alike, untouched", async () => {
    const { api, provider } = setup();
    const orphan = { id: "orphan", name: "k", size: 2, color: "red", hits: 0, created_at: new Date().toISOString() };
    api.records.set("orphan", { ...orphan });
    api.nextPostError = conflict();
    let id = "";
    const text = await said(async () => ({ id } = await provider.create({ name: "k", size: 2, __urn: urn })));
    expect(id).not.toBe("orphan");
    expect(api.records.get("orphan")).toEqual(orphan);
    expect(text).toMatch(/likely leftover: Widget orphan 'k'.*no longer says which key.*it was not touched/s);
  });

  test("creates a fresh object under the next key when nothing looks alike", async () => {
    const { api, provider } = setup();
    api.nextPostError = conflict();
    const { id, outs } = await provider.create({ name: "k", size: 2, __urn: urn });
    expect(api.records.has(id)).toBe(true);
    expect(outs.secret).toBe(`s3cret-${id}`);
  });
});

// A capability is the declaration's, not the kind's: a made-up kind that declares `watches` gets the
// watcher's operations from the factory, and nothing in the generic operations asks for a kind.
describe("the watches capability", () => {
  const watcher: Declaration<z.infer<typeof inputs>> = {
    ...declaration,
    // The watched object is named by the inputs (as a DomainVerification names its domain).
    itemPath: (_c, p, id) => `/widgets/${String(p.name ?? id)}`,
    watches: { missing: (p, accountId) => `no widget '${String(p.name)}' in ${accountId}.` },
  };
  const watching = () => {
    process.env.TXMAIL_API_KEY = "test-sk-key";
    process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
    const api = new FakeApi();
    return { api, provider: makeProvider(watcher, () => api) };
  };
  const watched = { id: "w1", name: "w1", size: 1, color: "red", hits: 0, created_at: "2026-01-01T00:00:00Z" };

  it("creates by reading the watched object, sending nothing that makes one", async () => {
    const { api, provider } = watching();
    api.records.set("w1", { ...watched });
    const { id } = await provider.create({ name: "w1", size: 1, __urn: urn });
    expect(id).toBe("w1");
    expect(api.calls.filter((c) => !c.startsWith("GET "))).toEqual([]);
  });

  it("says the capability's words when the watched object is missing", async () => {
    const { provider } = watching();
    await expect(provider.create({ name: "nope", size: 1, __urn: urn })).rejects.toThrow(
      `Widget: no widget 'nope' in ${ACCOUNT}. Nothing was changed.`,
    );
  });

  it("deletes nothing and refuses adoptId", async () => {
    const { api, provider } = watching();
    api.records.set("w1", { ...watched });
    await provider.delete("w1", { name: "w1", size: 1 });
    expect(api.calls).toEqual([]);
    expect(api.records.has("w1")).toBe(true);
    const { failures } = await provider.check({}, { name: "w1", size: 1, adoptId: "w1" });
    expect(failures).toEqual([
      { property: "adoptId", reason: "adoptId: a Widget makes no object at the service: there is nothing to adopt" },
    ]);
  });
});
