// One generic dynamic provider, driven by a ResourceSpec. Every resource gets the same semantics:
// - check validates inputs with the spec's zod schema (skipping values unknown at preview) and
//   returns the canonical form, so state and diffs show what the service will store;
// - diff compares only the inputs the program sets, against the last known service values, so
//   drift found by refresh becomes an update and counters never become a diff;
// - create sends a derived Idempotency-Key (see idempotencyKey.ts) and survives replays of objects
//   that were deleted since and of failures that may no longer hold; `adoptId` adopts an existing
//   object instead of creating one;
// - read keeps one-time secrets from prior state, and reports an object deleted out of band as gone;
// - update sends only the fields that changed (the service rejects no-op updates);
// - delete treats 404 as done.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Api } from "./api";
import { isConflict, isForbidden, isNotFound, wasReplayed, wasRetried } from "./api";
import { camelToSnake, keysToCamel } from "./casing";
import { deepEqual } from "./canonicalJson";
import {
  type Connection,
  accountOf,
  connectionFieldProblem,
  connectionProblems,
  resolveConnection,
} from "./connection";
import { explainForbidden, forbiddenCause, keyInUse } from "./forbidden";
import { deriveIdempotencyKey } from "./idempotencyKey";
import type { Ctx, Props, ResourceSpec } from "./spec";
import { isUnknown } from "./unknowns";
import { progress } from "./progress";
import { claim, createdSince, isClaimed, matchesCreation, settleOthers, tracked } from "./uncertainCreate";

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface Provider {
  check(olds: Props, news: Props): Promise<{ inputs?: Props; failures?: CheckFailure[] }>;
  diff(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: boolean; replaces?: string[]; deleteBeforeReplace?: boolean; diffs?: string[] }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props?: Props): Promise<{ id?: string; props?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/**
 * How many derived idempotency keys one create may walk through. Every earlier attempt of the same
 * create within the service's 24 h record lifetime leaves one stored outcome on its key: the creation
 * of an object deleted since, or a 4xx (idempotency rule 5). A create steps past each in turn (one
 * cheap replayed request each) to the first key the service has not seen; this bound allows about one
 * destroyed or failed attempt per hour of that lifetime before giving up with a clear message.
 */
const MAX_GENERATIONS = 32;

/** One connection field, with the same rule (and words) as the stack config it overrides. */
const connectionField = (field: "apiKey" | "accountId" | "baseUrl") =>
  z
    .string()
    .min(1, "must not be empty")
    .superRefine((v, ctx) => {
      const problem = connectionFieldProblem(field, v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional();

const Connection = z
  .strictObject({
    apiKey: connectionField("apiKey"),
    accountId: connectionField("accountId"),
    baseUrl: connectionField("baseUrl"),
  })
  .optional();

const CommonInputs = z.object({
  connection: Connection,
  adoptId: z.string().min(1, "must not be empty").optional(),
  __urn: z.string().min(1).optional(),
  __stackSalt: z.string().min(1).optional(),
});

export function makeProvider<I extends Record<string, unknown>>(
  spec: ResourceSpec<I>,
  apiFor: (conn: Connection) => Api,
): Provider {
  const idOf = spec.idOf ?? ((r: Record<string, unknown>) => String(r.id));
  const outputsOf = (record: Record<string, unknown>): Record<string, unknown> => {
    const base = spec.outputsOf ? spec.outputsOf(record) : keysToCamel(record);
    delete base.object;
    return base;
  };
  /** Provider-local inputs that still matter to diff (e.g. a rotation trigger). */
  const localFields = [...spec.replaceOn.filter((f) => !spec.apiFields.includes(f)), ...(spec.stateFields ?? [])];
  const writeOnly = new Set<string>(spec.writeOnly ?? []);
  /** What state keeps of the inputs: write-only secrets only as digests. */
  const stored = (props: Props): Props => {
    const copy: Props = { ...props };
    for (const f of writeOnly) if (copy[f] !== undefined) copy[f] = digest(copy[f]);
    return copy;
  };
  /**
   * Outputs as state keeps them. Not kept: `id` (the resource's own id), `__urn` and `__stackSalt`
   * (inputs, kept with the inputs) and `updatedAt` (changes with every write; no class declares it). The engine rewrites
   * and re-serializes every property of every resource after each step, so each one dropped here is
   * paid for ~2 × resources times per `pulumi up` (bench/RESULTS.md).
   */
  const stateOf = (outs: Props): Props => {
    const { id: _id, __urn: _urn, __stackSalt: _salt, updatedAt: _updated, ...kept } = outs;
    return kept;
  };
  const what = (props: Props | undefined, id?: string) => `${spec.kind}${id ? ` ${id}` : ""}${label(props)}`;

  /**
   * Wraps a call so a 403 says which of its two causes it is (core/forbidden.ts): the scope the
   * operation needs, or the key's allow list shutting out this machine.
   */
  async function call<T>(op: keyof ResourceSpec<I>["scopes"], props: Props, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isForbidden(err)) {
        const needed = spec.scopes[op](props).join(" or ");
        const cause = await forbiddenCause(ctxFor(props).api);
        const also = cause === "scope" ? spec.forbiddenAlso?.[op] : undefined;
        const message =
          explainForbidden((err as Error).message, cause, `${spec.kind} ${op}`, keyInUse(props.connection), needed) +
          (also ? ` ${also}` : "");
        // Keeps the client's classification, so callers still branch on kind, replayed and retried.
        const { kind, replayed, retried } = err as { kind?: unknown; replayed?: unknown; retried?: unknown };
        throw Object.assign(new Error(message), { kind, replayed, retried, cause });
      }
      throw err;
    }
  }

  function ctxFor(props: Props) {
    const conn = resolveConnection(props.connection);
    return { conn, api: apiFor(conn) };
  }

  /** One object by id, or undefined when it does not exist (the spec's own read, else GET itemPath). */
  async function fetchRecord(ctx: Ctx, props: Props, id: string): Promise<Record<string, unknown> | undefined> {
    if (spec.fetch) return spec.fetch(ctx, props, id);
    try {
      return await ctx.api.get(spec.itemPath(ctx.conn, props, id), spec.record);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  function createBody(props: Props): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    for (const f of spec.apiFields) if (props[f] !== undefined) body[camelToSnake(f)] = props[f];
    return body;
  }

  function secretsFrom(created: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [output, field] of Object.entries(spec.createOnly ?? {})) out[output] = created[field];
    return out;
  }

  function withoutCreateOnly(record: Record<string, unknown>): Record<string, unknown> {
    const copy = { ...record };
    for (const field of Object.values(spec.createOnly ?? {})) delete copy[field];
    return copy;
  }

  async function adopt(props: Props): Promise<{ id: string; outs: Props }> {
    const { conn, api } = ctxFor(props);
    const adoptId = props.adoptId as string;
    const record = await call("read", props, () => fetchRecord({ conn, api }, props, adoptId));
    if (!record)
      throw new Error(`${spec.kind}: cannot adopt '${adoptId}': no such object in account ${conn.accountId}.`);
    const live = outputsOf(record);
    const unverifiable = new Set<string>(spec.inputOnly ?? []);
    const mismatched = spec.replaceOn.filter(
      (f) =>
        spec.apiFields.includes(f) && !unverifiable.has(f) && props[f] !== undefined && !deepEqual(live[f], props[f]),
    );
    if (mismatched.length > 0) {
      throw new Error(
        `${spec.kind}: cannot adopt '${adoptId}': ${mismatched.map((f) => `${f} is ${JSON.stringify(live[f])}, the program says ${JSON.stringify(props[f])}`).join("; ")}. ` +
          `These fields cannot change in place; make the program match the existing object or create a new one without adoptId.`,
      );
    }
    // Updatable differences converge to the program's values, as a later update would.
    const adopted = await updateRemote({ ...props, ...live }, props, idOf(record));
    claim(collectionOf(conn, props), idOf(record));
    const unknownSecrets = Object.fromEntries(Object.keys(spec.createOnly ?? {}).map((k) => [k, ""]));
    return {
      id: idOf(record),
      outs: stateOf(
        withState({ ...stored(props), ...outputsOf(adopted.record ?? record), ...unknownSecrets }, adopted.state),
      ),
    };
  }

  /** Key of a collection in this process's claim and in-flight tables (see uncertainCreate.ts). */
  const collectionOf = (conn: Connection, props: Props) => `${conn.baseUrl} ${spec.collectionPath(conn, props)}`;

  /** A created (or recovered) object: claimed in this process, reconciled, turned into outputs. */
  async function finishCreate(
    ctx: Ctx,
    props: Props,
    collection: string,
    id: string,
    created: Record<string, unknown>,
  ) {
    claim(collection, id);
    let record = withoutCreateOnly(created);
    if (spec.reconcile) record = await call("write", props, () => spec.reconcile!(ctx, { ...props, id }, record));
    return { id, outs: stateOf({ ...stored(props), ...outputsOf(record), ...secretsFrom(created) }) };
  }

  /** Identity fields a twin must share: what the program set and the service reports back. */
  const creationFields = spec.apiFields.filter((f) => !writeOnly.has(f) && !(spec.inputOnly ?? []).includes(f));

  /** Objects of this collection that look like the one just created (see uncertainCreate.ts). */
  async function twinsOf(ctx: Ctx, props: Props, collection: string, started: number, exceptId?: string) {
    await settleOthers(collection);
    const twins: Record<string, unknown>[] = [];
    for await (const rec of ctx.api.list(spec.collectionPath(ctx.conn, props), spec.record, spec.listQuery?.(props))) {
      const id = idOf(rec);
      if (id === exceptId || isClaimed(collection, id)) continue;
      if (!createdSince(rec.created_at, started)) continue;
      if (matchesCreation(outputsOf(rec), props, creationFields)) twins.push(rec);
    }
    return twins;
  }

  /** After a retried 5xx: deletes the object the failed attempt committed, if there is one. */
  async function sweepTwins(ctx: Ctx, props: Props, collection: string, id: string, started: number) {
    for (const twin of await twinsOf(ctx, props, collection, started, id)) {
      const twinId = idOf(twin);
      await call("delete", props, () => ctx.api.delete(spec.itemPath(ctx.conn, props, twinId))).catch((err) => {
        if (!isNotFound(err)) throw err;
      });
      progress(
        `${what(props, id)}: deleted ${twinId}, a duplicate the service created when an earlier attempt of this ` +
          `create failed with a server error after it had committed (idempotency rule 6: 5xx outcomes are not stored).`,
        props.__urn,
      );
    }
  }

  /**
   * A 409 on create. After a retried failure on a service that keeps names unique (domains), the
   * object is the one our failed attempt made: take it. On key creation it means the idempotent
   * replay of the secret expired (5 minutes): an earlier run created the key and never recorded it.
   */
  async function recoverConflict(
    err: unknown,
    ctx: Ctx,
    props: Props,
    collection: string,
    started: number,
  ): Promise<{ id: string; outs: Props } | "next-key" | undefined> {
    if (!isConflict(err)) return undefined;
    if (spec.uniqueName) {
      const record = await (
        spec.findExisting ? spec.findExisting(ctx, props) : ctx.api.get(spec.itemPath(ctx.conn, props, ""), spec.record)
      ).catch(() => undefined);
      if (record && wasRetried(err) && createdSince(record.created_at, started)) {
        return finishCreate(ctx, props, collection, idOf(record), record);
      }
      // Made before this create started (or not by a retry of ours): someone else's, never taken.
      const made = typeof record?.created_at === "string" ? ` (created ${record.created_at})` : "";
      throw new Error(
        `${what(props)}: already exists in account ${ctx.conn.accountId}${made} and was not created by this ` +
          `create, so the provider does not take it over. If it is yours to manage, add \`adoptId: ` +
          `"${spec.findExisting ? (record ? idOf(record) : "<its id>") : (nameOf(props) ?? "")}"\` to the resource; otherwise choose another name. ` +
          `(Service message: ${(err as Error).message})`,
      );
    }
    if (Object.keys(spec.createOnly ?? {}).length === 0) return undefined;
    const orphans = await twinsOf(ctx, props, collection, Date.now() - 24 * 3600_000);
    if (orphans.length === 0) return "next-key"; // the orphan was deleted: a fresh key is safe
    const ids = orphans.map((o) => idOf(o)).join(", ");
    throw new Error(
      `${what(props)}: an earlier run created this ${spec.kind} (${ids}) but did not finish recording it, and the ` +
        `service no longer replays its secret (it does so for 5 minutes only), so nobody holds that secret. ` +
        `Delete ${orphans.length === 1 ? "that key" : "those keys"} (for example in the dashboard, or with ` +
        `\`adoptId: "${idOf(orphans[0]!)}"\` followed by \`pulumi destroy --target\`), then run \`pulumi up\` again: ` +
        `the provider then creates a new key. (Service message: ${(err as Error).message})`,
    );
  }

  async function updateRemote(
    olds: Props,
    news: Props,
    id: string,
  ): Promise<{ record?: Record<string, unknown>; state?: Props }> {
    const { conn, api } = ctxFor(news);
    const changed = spec.apiFields.filter(
      (f) => !writeOnly.has(f) && news[f] !== undefined && !deepEqual(olds[f], news[f]),
    );
    let record: Record<string, unknown> | undefined;
    let state: Props | undefined;
    if (changed.length > 0 && !spec.immutable) {
      let body: Record<string, unknown> = Object.fromEntries(changed.map((f) => [camelToSnake(f), news[f]]));
      if (spec.prepareUpdate) ({ body, state } = spec.prepareUpdate(olds, news, body));
      const sent = body;
      if (Object.keys(sent).length > 0)
        record = await call("write", news, () => api.put(spec.itemPath(conn, news, id), sent, spec.record));
    }
    if (spec.reconcile) {
      record = await call("write", news, async () => {
        const current = record ?? (await api.get(spec.itemPath(conn, news, id), spec.record));
        return spec.reconcile!({ conn, api }, { ...news, id }, current, olds);
      });
    }
    return { record, state };
  }

  return {
    async check(olds, news) {
      const own: Record<string, unknown> = {};
      const unknown: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(news)) {
        if (k === "__provider" || k in CommonInputs.shape) continue;
        (isUnknown(v) ? unknown : own)[k] = v;
      }
      const failures: CheckFailure[] = [];
      const shape = spec.inputs as unknown as z.ZodObject;
      const mask = Object.fromEntries(Object.keys(unknown).map((k) => [k, true as const]));
      // Values unknown at preview are checked at update time, when they are known.
      const schema = Object.keys(mask).length > 0 ? shape.omit(mask as never) : shape;
      const parsed = schema.safeParse(own);
      if (!parsed.success) failures.push(...toFailures(parsed.error));
      const common = CommonInputs.safeParse({
        connection: isUnknown(news.connection) ? undefined : news.connection,
        adoptId: news.adoptId,
        __urn: news.__urn,
        __stackSalt: news.__stackSalt,
      });
      if (!common.success) failures.push(...toFailures(common.error));
      if (failures.length > 0) return { failures };
      // The connection this resource would use, wherever each field comes from: a preview that
      // passes is an up that can reach the service (issue: a bad txmail:accountId used to pass).
      const connection = connectionProblems(news.connection as Record<string, unknown> | undefined);
      if (connection.length > 0) throw new Error(connection.join("; "));
      const inputs: Props = { ...(parsed.data as Record<string, unknown>), ...unknown };
      const crossField = spec.validate?.(inputs, olds) ?? [];
      if (crossField.length > 0) return { failures: crossField };
      for (const k of ["connection", "adoptId", "__urn", "__stackSalt"])
        if (news[k] !== undefined) (inputs as Record<string, unknown>)[k] = news[k];
      return { inputs };
    },

    async diff(_id, olds, news) {
      const changed: string[] = [];
      const replaces: string[] = [];
      for (const f of [...spec.apiFields, ...localFields]) {
        if (news[f] === undefined) continue; // not managed by the program: the service's value stands
        const next = writeOnly.has(f) ? digest(news[f]) : news[f];
        if (isUnknown(news[f]) || !deepEqual(olds[f], next)) {
          changed.push(f);
          if (spec.replaceOn.includes(f) || spec.immutable) replaces.push(f);
        }
      }
      // A different account means a different object; new credentials for the same one do not.
      const oldConn = olds.connection ?? {};
      const newConn = news.connection ?? {};
      if (isUnknown(newConn) || accountOf(oldConn) !== accountOf(newConn)) replaces.push("connection");
      else if (!deepEqual(oldConn, newConn)) changed.push("connection");
      return {
        changes: changed.length > 0 || replaces.length > 0,
        replaces: [...new Set(replaces)],
        // Every changed input (replacing or not), for a native provider's detailed diff.
        diffs: [...new Set([...changed, ...replaces])],
        deleteBeforeReplace: replaces.length > 0 && (spec.deleteBeforeReplace?.(olds, news) ?? false),
      };
    },

    async create(inputs) {
      if (inputs.adoptId) return adopt(inputs);
      if (!inputs.__urn)
        throw new Error(`${spec.kind}: missing resource identity; create it through the pulumi-txmail SDK classes.`);
      const { conn, api } = ctxFor(inputs);
      const path = spec.collectionPath(conn, inputs);
      const body = createBody(inputs);
      let replayedFailure: unknown; // the last key's answer, when it was a stored failure
      for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
        // Provider-local replace triggers (e.g. `rotation`) are part of the identity: a rotated key
        // must not replay the creation of the key it replaces.
        const identity = { body, local: Object.fromEntries(localFields.map((f) => [f, inputs[f]])) };
        const idempotencyKey = deriveIdempotencyKey({
          stackSalt: inputs.__stackSalt,
          urn: inputs.__urn,
          accountId: conn.accountId,
          method: "POST",
          path,
          body: identity,
          generation,
        });
        const collection = collectionOf(conn, inputs);
        const started = Date.now();
        replayedFailure = undefined;
        let posted: { data: Record<string, unknown>; replayed: boolean; uncertain?: boolean };
        try {
          posted = await tracked(
            collection,
            call("write", inputs, () => api.post(path, body, spec.created, { idempotencyKey })),
          );
        } catch (err) {
          if (wasReplayed(err)) {
            // A stored 4xx of an earlier attempt (e.g. a 403 before a scope was added to the key):
            // it created nothing, so the next derived key cannot duplicate anything, and its answer
            // is today's.
            replayedFailure = err;
            continue;
          }
          const recovered = await recoverConflict(err, { conn, api }, inputs, collection, started);
          if (recovered === "next-key") continue;
          if (recovered) return recovered;
          if (isConflict(err) && spec.conflictHint) {
            throw Object.assign(
              new Error(`${what(inputs)}: ${spec.conflictHint(inputs)} (Service message: ${(err as Error).message})`),
              {
                kind: "conflict",
              },
            );
          }
          throw err;
        }
        const { data, replayed } = posted;
        const id = idOf(data);
        if (replayed && !(await fetchRecord({ conn, api }, inputs, id))) {
          // The service replayed the creation of an object deleted since (same URN and inputs
          // within the 24 h record lifetime): move to the next derived key.
          continue;
        }
        claim(collection, id); // before the sweep, so a concurrent sweep never takes it for a twin
        if (posted.uncertain) await sweepTwins({ conn, api }, inputs, collection, id, started);
        return finishCreate({ conn, api }, inputs, collection, id, data);
      }
      if (replayedFailure !== undefined) {
        throw new Error(
          `${what(inputs)}: the service answered each of ${MAX_GENERATIONS} derived idempotency keys with a stored ` +
            `outcome of an earlier attempt (kept for 24 h); giving up. The last one: ${(replayedFailure as Error).message}`,
        );
      }
      throw new Error(
        `${spec.kind}: the service keeps replaying creations of deleted objects; giving up after ${MAX_GENERATIONS} keys.`,
      );
    },

    async read(id, props = {}) {
      const { conn, api } = ctxFor(props);
      const record = await call("read", props, () => fetchRecord({ conn, api }, props, id));
      if (!record) return { id: "" }; // deleted out of band: gone from state, re-created by the next up
      const kept = Object.fromEntries(Object.keys(spec.createOnly ?? {}).map((k) => [k, props[k] ?? ""]));
      return { id, props: stateOf({ ...props, ...outputsOf(record), ...kept }) };
    },

    async update(id, olds, news) {
      const { record, state } = await updateRemote(olds, news, id);
      const kept = Object.fromEntries(Object.keys(spec.createOnly ?? {}).map((k) => [k, olds[k] ?? ""]));
      return {
        outs: stateOf(withState({ ...olds, ...stored(news), ...(record ? outputsOf(record) : {}), ...kept }, state)),
      };
    },

    async delete(id, props) {
      const { conn, api } = ctxFor(props);
      try {
        await call("delete", props, () => api.delete(spec.itemPath(conn, props, id)));
      } catch (err) {
        if (!isNotFound(err)) throw new Error(`${what(props, id)}: ${(err as Error).message}`);
      }
    },
  };
}

/** Outputs with a spec's extra update state applied (prepareUpdate): undefined fields removed. */
function withState(outs: Props, state: Props | undefined): Props {
  const merged: Props = { ...outs, ...state };
  for (const [k, v] of Object.entries(state ?? {})) if (v === undefined) delete merged[k];
  return merged;
}

/** A stable digest for write-only values: enough to notice a change, useless to an attacker. */
function digest(value: unknown): unknown {
  if (value === undefined || isUnknown(value)) return value;
  return `sha256:${createHash("sha256").update(String(value)).digest("hex")}`;
}

/** The name a person knows an object by (a domain's name, a route's name, a key's label). */
function nameOf(props: Props | undefined): string | undefined {
  const name = props?.name ?? props?.label ?? props?.email ?? props?.domain;
  return typeof name === "string" ? name : undefined;
}

function label(props: Props | undefined): string {
  const name = nameOf(props);
  return name === undefined ? "" : ` '${name}'`;
}

/** Zod issues → engine check failures naming the input (with its index path) and the rule. */
export function toFailures(error: z.ZodError): CheckFailure[] {
  return error.issues.map((issue) => {
    const property = issue.path.reduce<string>(
      (acc, seg) => (typeof seg === "number" ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
      "",
    );
    return { property: property || "(inputs)", reason: `${property || "inputs"}: ${issue.message}` };
  });
}
