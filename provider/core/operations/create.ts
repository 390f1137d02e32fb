// create: one POST under this resource's derived Idempotency-Key (createKey.ts), and what the
// service's answer proves (answer.ts), decided in one switch. The rule everywhere: the provider
// takes, updates or deletes an object only when it is proven this stack's — the service answered
// this stack's own key with it. Objects that merely look alike (by name, values or time) are
// reported as likely leftovers and never touched (candidates.ts, docs/guide/behaviour.md#proof).
// `adoptId` adopts an existing object instead: the program's word for it (adopt, below).
//
// One direction of calls: `create` runs named stages in order (checkBeforeSending, firstAttempt,
// then per key createKey, send and settle), and the stages call leaves (createForm.ts, createKey.ts,
// answer.ts, proof.ts, candidates.ts, state.ts) that never call back into this file.
import { isConflict } from "../api";
import { deepEqual } from "../canonicalJson";
import type { Ctx, Props } from "../declaration";
import { requireSavedSalt } from "../freshSalt";
import { progress } from "../progress";
import type { StateObjects } from "../stateObjects";
import { InitFailure } from "../initFailure";
import { createdSince, holdHere } from "../uncertainCreate";
import { type Answer, type Attempt, send } from "./answer";
import { earlierAttempts, reportCandidates, sameNamed, strays } from "./candidates";
import { type KindContext, collectionOf, connect } from "./context";
import { canonicalBody } from "./createForm";
import { createKey } from "./createKey";
import { byIdAlone, fetchRecord } from "./fetchRecord";
import { nameOf, what } from "./names";
import { exists, proveEarlierAttempt } from "./proof";
import { withScopeHint } from "./scopeHint";
import { keptSecrets, secretsFrom, stateOf, stored, withState, withoutCreateOnly } from "./state";
import { changedFields, updateRemote } from "./update";

/**
 * How many derived idempotency keys one create may walk through. Every earlier attempt of the same
 * create within the service's 24 h record lifetime leaves one stored outcome on its key: the creation
 * of an object deleted since, or a 4xx (docs/contract/idempotency.md#rule-5). A create steps past each in turn (one
 * cheap replayed request each) to the first key the service has not seen; this bound allows about one
 * destroyed or failed attempt per hour of that lifetime before giving up with a clear message.
 */
const MAX_GENERATIONS = 32;

type Created = { id: string; outs: Props };

export async function create(k: KindContext, inputs: Props): Promise<Created> {
  const replaced = new Replaced(k.stateObjects, inputs.__urn);
  if (inputs.adoptId && !replaced.adopted(inputs.adoptId)) return adopt(k, inputs);
  const urn = checkBeforeSending(k, inputs);
  const attempt = firstAttempt(k, inputs);
  const post = { urn, accountId: attempt.ctx.conn.accountId, path: attempt.path };
  let storedFailure: unknown; // the last key's answer, when it was a stored failure
  for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
    const key = createKey(k.declaration, inputs, post, generation);
    const started = Date.now();
    const answer: Answer = await send(attempt, attempt.body, key);
    if (answer.kind === "storedFailure") {
      // E.g. a 403 before a scope was added to the key: it created nothing, so the next key
      // cannot duplicate anything, and its answer is today's.
      storedFailure = answer.error;
      continue;
    }
    const created = await settle(attempt, answer, key, started, replaced);
    if (created) return created;
  }
  throw outOfKeys(k, inputs, storedFailure);
}

/** What must hold before anything is sent; the resource's URN, which every key stands for. */
function checkBeforeSending(k: KindContext, inputs: Props): string {
  const { declaration } = k;
  const urn = inputs.__urn;
  if (!urn)
    throw new Error(`${declaration.kind}: missing resource identity; create it through the pulumi-txmail SDK classes.`);
  if (inputs.adoptId)
    progress(
      `${what(declaration, inputs)}: replaced by a new object: \`adoptId: "${String(inputs.adoptId)}"\` names ` +
        `the object this resource adopted, which is the one being replaced.`,
      urn,
    );
  requireSavedSalt(inputs.__stackSalt, what(declaration, inputs));
  return urn;
}

/** The POST every key of this create sends, and what its stages share. */
function firstAttempt(k: KindContext, inputs: Props): Attempt {
  const ctx = connect(k, inputs);
  return {
    k,
    ctx,
    inputs,
    path: k.declaration.collectionPath(ctx.conn, inputs),
    // The POST body in the one canonical form (createForm.ts): every API field under its API name,
    // in the declaration's order, the service's defaults filled in, each as the service keeps it.
    body: canonicalBody(k.declaration, inputs),
    collection: collectionOf(k, ctx.conn, inputs),
    reported: new Set(),
  };
}

/**
 * What one key's answer proves, decided in one switch: this resource's object (returned), the next
 * key (undefined), or the create's failure (thrown).
 */
async function settle(
  attempt: Attempt,
  answer: Exclude<Answer, { kind: "storedFailure" }>,
  key: string,
  started: number,
  replaced: Replaced,
): Promise<Created | undefined> {
  const { k, ctx, inputs } = attempt;
  switch (answer.kind) {
    case "created": {
      const id = k.idOf(answer.record);
      holdHere(attempt.collection, id); // before the look for strays, so a concurrent look never reports it
      if (answer.strayPossible) reportStrays(attempt, await strays(attempt, started, id), started);
      return replaced.made(await finishCreate(k, ctx, inputs, attempt.collection, id, answer.record), false);
    }
    case "replayed": {
      const id = k.idOf(answer.record);
      // The creation of an object deleted since (the same resource destroyed and created again
      // within the record lifetime): the next key. Another object in its place (attempt.displacedBy)
      // may be this resource's own, made under a later key, or another stack's: the next key's
      // answer says which, and a 409 there names it.
      if (!(await exists(attempt, id, answer.record))) return undefined;
      // The object this create replaces (its own earlier creation under the same key): never the new one.
      if (replaced.isReplaced(id)) return undefined;
      return replaced.made(await finishCreate(k, ctx, inputs, attempt.collection, id, answer.record), true);
    }
    case "otherPayload": {
      const earlier = await proveEarlierAttempt(attempt, key);
      if (earlier.kind === "ours") {
        const id = k.idOf(earlier.record);
        if (replaced.isReplaced(id)) return undefined;
        // Noted before the take-over, which may hand the object to the engine as an init failure.
        replaced.made({ id }, true);
        return takeOver(attempt, earlier.record);
      }
      if (earlier.kind === "unproven") reportCandidates(attempt, earlier.candidates, earlier.why);
      return undefined; // gone, made nothing, or unproven: the next key makes this resource's object
    }
    case "secretExpired":
      reportCandidates(
        attempt,
        sameNamed(attempt, await earlierAttempts(attempt)),
        "an earlier run created this key under this stack's idempotency key and did not record it; the service " +
          "replays its secret for 5 minutes only, so it no longer says which key that was",
      );
      return undefined;
    case "nameTaken":
      throw await nameTaken(attempt, answer.error, answer.afterRetry, started, replaced);
    case "refused": {
      const failure =
        replaced.conflict(attempt, answer.error) ??
        (attempt.displacedBy && isConflict(answer.error)
          ? await nameTaken(attempt, answer.error, false, started, replaced)
          : refused(attempt, answer.error));
      // The run's error may be the last word on a stray (the program may drop or replace the
      // resource next), so it is also reported.
      if (answer.strayPossible) await reportStraysOfFailure(attempt, started);
      throw failure;
    }
  }
}

/**
 * The end of every create (fresh, replayed, or a watching kind's, watch.ts): the object is held in
 * this process, reconciled, and turned into the outputs state keeps.
 */
export async function finishCreate(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  id: string,
  created: Record<string, unknown>,
): Promise<{ id: string; outs: Props }> {
  holdHere(collection, id);
  let record = withoutCreateOnly(k, created);
  const reconcile = k.declaration.reconcile;
  if (reconcile) record = await withScopeHint(k, "write", props, () => reconcile(ctx, { ...props, id }, record));
  return { id, outs: stateOf({ ...stored(k, props), ...k.outputsOf(record), ...secretsFrom(k, created) }) };
}

/**
 * A create's view of the object it replaces (stateObjects.ts), when the engine said the resource is in
 * the stack's state — a replacement its diff asked for. The keys a replacement walks name its own
 * earlier creations; the state's object, whose id diff named, must never be recorded as the new one
 * (the engine would then delete it). Should no id have been named, the first live object the keys
 * name is taken to be it: a chain of keys holds at most the state's object and, after a killed
 * replacement, that replacement's own, in that order.
 */
class Replaced {
  private readonly state;
  /** The live object taken to be the replaced one, when no id was named. */
  private assumed: string | undefined;
  /** The replaced object, live, that this create stepped past: it shares this resource's key fields. */
  private steppedPast: string | undefined;
  constructor(
    private readonly objects: StateObjects,
    urn: string | undefined,
  ) {
    this.state = urn === undefined ? undefined : objects.stateObjectOf(urn);
  }
  /** `adoptId` names the object the state's resource adopted: this create replaces it. */
  adopted(adoptId: unknown): boolean {
    return this.state?.inState === true && this.state.adoptedAs === adoptId;
  }
  /** Whether `id`, a live object a key of this resource named, is the one being replaced. */
  isReplaced(id: string): boolean {
    if (!this.state?.inState) return false;
    if (this.state.ids.size === 0) this.assumed ??= id;
    const replaced = this.state.ids.size > 0 ? this.state.ids.has(id) : this.assumed === id;
    if (replaced) this.steppedPast = id;
    return replaced;
  }
  /**
   * Notes the object this create returns when the engine's delete of a replaced object could hit it:
   * a replacement's, or one that existed before (`earlier`: a replay or a proof named it).
   */
  made<T extends { id: string }>(created: T, earlier: boolean): T {
    if (this.state?.inState || earlier) this.objects.recordedByCreate(created.id);
    return created;
  }
  /**
   * A 409 after stepping past the replaced object: it still holds the name or address the service
   * keeps unique (create-before-delete, the engine's default for a forced replacement).
   */
  conflict(attempt: Attempt, err: unknown, holder?: string): Error | undefined {
    // The holder of the name, when the service says who: it must be the replaced object itself.
    const replacedHolds =
      holder !== undefined
        ? this.state?.ids.has(holder) === true || this.steppedPast === holder
        : this.steppedPast !== undefined;
    if (!isConflict(err) || !replacedHolds) return undefined;
    const { k, inputs } = attempt;
    return Object.assign(
      new Error(
        `${what(k.declaration, inputs)}: not replaced: the object being replaced (${holder ?? this.steppedPast}) still ` +
          `holds what the service keeps unique, and a replacement creates the new object before it deletes the ` +
          `old one. Add the resource option \`deleteBeforeReplace: true\` to replace it (the old object is ` +
          `deleted first), or change the name. Nothing was deleted. (Service message: ${(err as Error).message})`,
      ),
      { category: "conflict" },
    );
  }
}

/**
 * `adoptId`: takes over an existing object instead of creating one. Fields that cannot change in
 * place must match the program; updatable ones converge to the program's values. The object is the
 * one `adoptId` names, found by that id alone (or by the name, for a kind whose name names it), never
 * by the program's name: a program naming another is refused by the fixed-field check.
 */
export async function adopt(k: KindContext, props: Props): Promise<Created> {
  const { declaration } = k;
  const { conn, api } = connect(k, props);
  const adoptId = props.adoptId as string;
  const record = await withScopeHint(k, "read", props, () =>
    fetchRecord(k, { conn, api }, byIdAlone(k, props), adoptId),
  );
  if (!record)
    throw new Error(`${declaration.kind}: cannot adopt '${adoptId}': no such object in account ${conn.accountId}.`);
  const live = k.outputsOf(record);
  const unverifiable = new Set<string>(declaration.inputOnly ?? []);
  const mismatched = declaration.replaceOn.filter(
    (f) =>
      declaration.apiFields.includes(f) &&
      !unverifiable.has(f) &&
      props[f] !== undefined &&
      !deepEqual(live[f], props[f]),
  );
  if (mismatched.length > 0) {
    throw new Error(
      `${declaration.kind}: cannot adopt '${adoptId}': ${mismatched.map((f) => `${f} is ${JSON.stringify(live[f])}, the program says ${JSON.stringify(props[f])}`).join("; ")}. ` +
        `These fields cannot change in place; make the program match the existing object or create a new one without adoptId.`,
    );
  }
  // Updatable differences converge to the program's values, as a later update would.
  const adopted = await updateRemote(k, { conn, api }, { ...props, ...live }, props, k.idOf(record));
  holdHere(collectionOf(k, conn, props), k.idOf(record));
  // The service shows one-time secrets only at creation: an adopted object's are unknown ("").
  const unknownSecrets = keptSecrets(k, {});
  return {
    id: k.idOf(record),
    outs: stateOf(
      withState({ ...stored(k, props), ...k.outputsOf(adopted.record ?? record), ...unknownSecrets }, adopted.state),
    ),
  };
}

/**
 * The object the service named under this stack's key, made by an earlier run with other values
 * that change in place. Equal to the program in every field an update sends: this resource's object,
 * as a create returns it. Otherwise it is not changed here: it goes back to the engine as an init
 * failure with its id and its properties as they are (initFailure.ts says why), and the next `pulumi
 * up` updates the recorded object to the program's values. Its one-time secret is the replay's when
 * the replay carried it, else unknown ("").
 */
async function takeOver(attempt: Attempt, replayed: Record<string, unknown>): Promise<Created> {
  const { k, ctx, inputs } = attempt;
  const id = k.idOf(replayed);
  holdHere(attempt.collection, id);
  const live = await withScopeHint(k, "read", inputs, () =>
    ctx.api.get(k.declaration.itemPath(ctx.conn, inputs, id), k.declaration.record),
  ).catch(() => replayed);
  const secrets = Object.fromEntries(Object.entries(secretsFrom(k, replayed)).filter(([, v]) => v !== undefined));
  const outs = (record: Record<string, unknown>, state?: Props) =>
    stateOf(withState({ ...stored(k, inputs), ...k.outputsOf(record), ...keptSecrets(k, {}), ...secrets }, state));
  const olds = { ...inputs, ...k.outputsOf(live) };
  const differing = changedFields(k, olds, inputs);
  if (differing.length > 0) {
    throw new InitFailure(
      `${what(k.declaration, inputs, id)}: recovered, not yet updated: an interrupted run created it and did not ` +
        `record it, and the service answered this resource's own idempotency key with it. It is now in the ` +
        `stack's state as it is, with other values than the program's (${differing.join(", ")}); run \`pulumi up\` ` +
        `again to update it.`,
      id,
      outs(live),
    );
  }
  // The fields an update sends already hold the program's values: the kind's reconcile step, if any.
  const converged = await updateRemote(k, ctx, olds, inputs, id);
  progress(
    `${what(k.declaration, inputs, id)}: taken over: an earlier run created it with other values and did not ` +
      `record it, and the service answered this resource's own idempotency key with it.`,
    inputs.__urn,
  );
  return { id, outs: outs(converged.record ?? live, converged.state) };
}

/** After a 5xx that may have committed: the objects made meanwhile that look like this one, reported. */
function reportStrays(attempt: Attempt, found: Record<string, unknown>[], started: number): void {
  reportCandidates(
    attempt,
    found,
    "made during this create with the same values (those its record shows); the service may have committed an attempt it answered with a " +
      "server error, and it keeps no record of those (idempotency rule 6), so no key names it",
    started,
  );
}

/**
 * The strays of a create that failed after a 5xx, reported. The look is best effort: its own failure
 * (a key without the read scope) must not hide why the create failed, which the caller throws.
 */
async function reportStraysOfFailure(attempt: Attempt, started: number): Promise<void> {
  const found = await strays(attempt, started).catch(() => []);
  reportStrays(attempt, found, started);
}

/** A 409 on a kind whose name the service keeps unique: the object is never taken without `adoptId`. */
async function nameTaken(
  attempt: Attempt,
  err: unknown,
  afterRetry: boolean,
  started: number,
  replaced: Replaced,
): Promise<Error> {
  const { k, ctx, inputs } = attempt;
  const { declaration } = k;
  const record =
    attempt.displacedBy ??
    (await (
      declaration.findExisting
        ? declaration.findExisting(ctx, inputs)
        : ctx.api.get(declaration.itemPath(ctx.conn, inputs, ""), declaration.record)
    ).catch(() => undefined));
  const ownConflict = replaced.conflict(attempt, err, record && k.idOf(record));
  if (ownConflict) return ownConflict;
  const made = typeof record?.created_at === "string" ? ` (created ${record.created_at})` : "";
  const appeared = afterRetry && record !== undefined && createdSince(record.created_at, started);
  const recent = appeared
    ? " It appeared during this create, after an attempt the service answered with a server error: it may be " +
      "that attempt's, but nothing proves it is this stack's (idempotency rule 6)."
    : "";
  // Also said as a likely leftover, which outlives the run's error: a tenants file or program that
  // then drops the resource still has the object named, with its DELETE line.
  if (appeared) reportStrays(attempt, [record], started);
  // The object's own id: `adoptId` means the object it names, whoever re-makes one under the name.
  const adoptId = record ? k.idOf(record) : declaration.findExisting ? "<its id>" : (nameOf(declaration, inputs) ?? "");
  const said =
    err === undefined
      ? "The service replayed this resource's earlier creation, which is gone; another object is in its place."
      : `Service message: ${(err as Error).message}`;
  return new Error(
    `${what(declaration, inputs)}: already exists in account ${ctx.conn.accountId}${made}, and the provider ` +
      `takes over only objects it can prove are this stack's.${recent} If it is yours to manage, add ` +
      `\`adoptId: "${adoptId}"\` to the resource; otherwise choose another name. (${said})`,
  );
}

/** The create failed: the service's error, with the kind's own hint for a 409 it cannot resolve. */
function refused(attempt: Attempt, err: unknown): unknown {
  const { declaration } = attempt.k;
  if (!isConflict(err) || !declaration.conflictHint) return err;
  return Object.assign(
    new Error(
      `${what(declaration, attempt.inputs)}: ${declaration.conflictHint(attempt.inputs)} (Service message: ${(err as Error).message})`,
    ),
    { category: "conflict" },
  );
}

/** Why a create gave up after MAX_GENERATIONS keys. */
function outOfKeys(k: KindContext, inputs: Props, storedFailure: unknown): Error {
  if (storedFailure !== undefined) {
    return new Error(
      `${what(k.declaration, inputs)}: the service answered each of ${MAX_GENERATIONS} derived idempotency keys with a stored ` +
        `outcome of an earlier attempt (kept for 24 h); giving up. The last one: ${(storedFailure as Error).message}`,
    );
  }
  return new Error(
    `${k.declaration.kind}: the service keeps replaying creations of deleted objects; giving up after ${MAX_GENERATIONS} keys.`,
  );
}
