// The rotating capability (Declaration.rotating): a credential made anew on a schedule, the one it
// succeeds kept live for an overlap so senders move over without a failed send, then revoked.
//
// It wraps the generic provider (factory.ts) and adds no branch to the operations: they run on the
// current object (`currentId`) with the schedule taken out of their inputs, and this module adds
//   - diff: an update (never a replacement) when a rotation or a revocation is due, or the schedule changed;
//   - update: the due rotation — the one beyond the previous revoked first (never three live), then
//     the next credential made by the generic create, whose idempotency key (operations/createKey.ts)
//     stands for the rotation's number instead of the schedule, so a run killed after the service
//     committed is answered with the same credential by its rerun; after the overlap, the previous
//     revoked;
//   - read: a previous deleted out of band is dropped; a current revoked out of band is drift, and
//     the next up rotates at once (while the previous lives: otherwise the resource is gone);
//   - delete: both objects.
// Only ids the state names are ever deleted (ownership: docs/guide/behaviour.md#proof).
// Time is rotationNow() (clock.ts); what is due is due.ts's decision, which `txmail-fleet rotate`
// reads ahead from the state, and TXMAIL_ROTATE_OLDER_THAN (clock.ts) makes an old enough current
// credential due early. The legacy string `rotation` (a replace trigger) is left to the generic
// provider unchanged.
import { deepEqual } from "../canonicalJson";
import type { AnyDeclaration, Props, Rotating } from "../declaration";
import { type InitFailure, isInitFailure, withProperties } from "../initFailure";
import type { Provider } from "../provider";
import { what } from "../operations/names";
import { stateOf } from "../operations/state";
import { progress } from "../progress";
import { rotateOlderThanMs, rotationNow, ROTATE_OLDER_THAN_ENV } from "./clock";
import { dueWork, rotatedAtOf } from "./due";
import { previousOutputs, previousSecretOf } from "./outputs";
import { type Schedule, isSchedule, periods } from "./schedule";

/** The generic provider with rotation on schedule, for a declaration that has the capability. */
export function withRotation(declaration: AnyDeclaration, inner: Provider): Provider {
  const r = declaration.rotating;
  if (!r) return inner;
  const s = new Slots(declaration, r);
  return {
    check: (olds, news) => inner.check(olds, news),
    create: async (inputs) => {
      const schedule = s.scheduleOf(inputs);
      const made = await inner.create(s.plain(inputs)).catch((e: unknown) => {
        // A recovered object goes into state as a first object on its schedule, like a created one.
        if (schedule && isInitFailure(e)) throw withProperties(e, defined(s.started(e.properties, e.id, schedule)));
        throw e;
      });
      if (!schedule) return made;
      return { id: made.id, outs: defined(s.started(made.outs, made.id, schedule)) };
    },
    diff: async (id, olds, news) => {
      const base = await inner.diff(id, s.plain(olds), s.plain(news));
      const due = s.due(olds, news);
      if (due.length === 0) return base;
      if (due.includes("rotate") || due.includes("revoke previous"))
        progress(`${what(declaration, news, s.currentId(olds, id))}: ${s.said(olds, news, due)}`, news.__urn);
      // Named after what changes: the secret (a rotation), the previous secret (a revocation), the
      // schedule itself. Not the schedule for a due rotation: the engine applies a `replaceOnChanges`
      // naming it to these names, and a due rotation is never a replacement.
      const named = due.map(
        (d) => ({ rotate: r.secret, "revoke previous": s.previousSecretName, schedule: r.input })[d],
      );
      return { ...base, changes: true, diffs: [...new Set([...(base.diffs ?? []), ...named])] };
    },
    update: async (id, olds, news) => {
      const current = s.currentId(olds, id);
      const applied =
        olds.currentGone === true
          ? { outs: stateOf({ ...olds, ...s.plain(news) }) } // nothing to update: the rotation below makes its successor
          : await inner.update(current, s.plain(olds), s.plain(news));
      const settled = await s.settle(inner, { ...applied.outs, currentId: current }, olds, news);
      // The rotation's create recovered an interrupted rotation's credential, not yet updated to the
      // program: the whole rotated state goes into the stack's state, and the next up updates it.
      if (settled.recovered) throw withProperties(Object.assign(settled.recovered, { id }), defined(settled.state));
      return { outs: defined(settled.state) };
    },
    read: async (id, props) => {
      if (typeof props?.currentId !== "string") return inner.read(id, props);
      const current = props.currentId;
      const found = await inner.read(current, props);
      const previous = typeof props.previousId === "string" ? props.previousId : undefined;
      const previousLives = previous !== undefined && !!(await inner.read(previous, props)).id;
      if (!found.id && !previousLives) return { id: "" };
      let outs: Props = found.id ? { ...found.props, currentId: current } : { ...props };
      if (!previousLives) outs = s.withoutPrevious(outs);
      if (!found.id) {
        // Drift: the credential senders hold was revoked. Kept (the previous still names an object
        // of this resource); the next up makes its successor at once.
        progress(
          `${what(declaration, props, current)}: the current credential was revoked or deleted out of band; ` +
            `the next \`pulumi up\` makes a new one (the previous, ${previous}, stays until its revocation).`,
          props.__urn,
          "WARNING",
        );
        outs = { ...outs, currentGone: true, [r.secret]: "" };
      }
      return { id, props: defined(outs) };
    },
    delete: async (id, props) => {
      const ids = [s.currentId(props, id), props.previousId].filter((x): x is string => typeof x === "string");
      for (const each of new Set(ids)) await inner.delete(each, props);
    },
  };
}

type Due = "rotate" | "revoke previous" | "schedule";

/** A rotating resource's slots in state: the current object, the previous one, the schedule's times. */
class Slots {
  private readonly previousSecret: string;
  get previousSecretName(): string {
    return this.previousSecret;
  }
  constructor(
    private readonly declaration: AnyDeclaration,
    private readonly r: Rotating,
  ) {
    this.previousSecret = previousSecretOf(r);
  }

  scheduleOf(props: Props): Schedule | undefined {
    const v = props[this.r.input];
    return isSchedule(v) ? v : undefined;
  }

  /** Inputs as the generic operations see them: without a schedule (it is no replace trigger). */
  plain(props: Props): Props {
    return this.scheduleOf(props) ? { ...props, [this.r.input]: undefined } : props;
  }

  currentId(state: Props, id: string): string {
    return typeof state.currentId === "string" ? state.currentId : id;
  }

  /** When the current object was made: state's, else the service's `createdAt` of the first object. */
  private rotatedAt(state: Props): number {
    return rotatedAtOf(state, rotationNow());
  }

  /** due.ts's decision now, with the early-rotation period this run was given. */
  private dueWork(olds: Props, schedule: Schedule) {
    return dueWork(olds, schedule, rotationNow(), rotateOlderThanMs());
  }

  /** What the next update does for the schedule (empty: nothing). */
  due(olds: Props, news: Props): Due[] {
    const was = this.scheduleOf(olds);
    const schedule = this.scheduleOf(news);
    const due: Due[] = [];
    if (!schedule) {
      // Leaving the schedule: the previous is revoked now (a string trigger replaces anyway).
      if (was && news[this.r.input] === undefined) due.push("schedule");
      if (was && typeof olds.previousId === "string") due.push("revoke previous");
      return due;
    }
    if (!deepEqual(was, schedule) || olds.rotatedAt === undefined) due.push("schedule");
    const work = this.dueWork(olds, schedule)?.work;
    if (work) due.push(work);
    return due;
  }

  said(olds: Props, news: Props, due: Due[]): string {
    const schedule = this.scheduleOf(news);
    const parts: string[] = [];
    if (due.includes("rotate")) {
      const dueAt = this.rotatedAt(olds) + (schedule ? periods(schedule).everyMs : 0);
      const cause = schedule && this.dueWork(olds, schedule)?.cause;
      parts.push(
        cause === "gone"
          ? "rotation: rotate (the current credential is gone)"
          : cause === "older than"
            ? `rotation: rotate (early: made ${iso(this.rotatedAt(olds))}, older than ${process.env[ROTATE_OLDER_THAN_ENV]}; due at ${iso(dueAt)})`
            : `rotation: rotate (due at ${iso(dueAt)})`,
      );
    }
    if (due.includes("revoke previous"))
      parts.push(`revoke previous ${String(olds.previousId)} (its overlap ends ${String(olds.previousRevokeAt)})`);
    return parts.join("; ");
  }

  /** Outputs of a first object made on a schedule. */
  started(outs: Props, id: string, schedule: Schedule): Props {
    return this.timed({ ...outs, [this.r.input]: schedule, currentId: id, rotations: 0 }, schedule);
  }

  withoutPrevious(outs: Props): Props {
    const { previousId: _id, previousRevokeAt: _at, ...rest } = outs as Record<string, unknown>;
    for (const name of Object.values(previousOutputs(this.r))) delete rest[name];
    return rest;
  }

  /** The schedule's instants, from `rotatedAt`. */
  private timed(outs: Props, schedule: Schedule): Props {
    const { everyMs, overlapMs } = periods(schedule);
    const at = this.rotatedAt(outs);
    const timed: Props = { ...outs, rotatedAt: iso(at), nextRotationAt: iso(at + everyMs) };
    if (typeof outs.previousId === "string") timed.previousRevokeAt = iso(at + overlapMs);
    return timed;
  }

  /** After the in-place update: the schedule's due work, and the state it leaves. */
  async settle(
    inner: Provider,
    outs: Props,
    olds: Props,
    news: Props,
  ): Promise<{ state: Props; recovered?: InitFailure }> {
    const schedule = this.scheduleOf(news);
    const due = this.due(olds, news);
    let state: Props = { ...outs, [this.r.input]: news[this.r.input] };
    delete state.currentGone;
    if (!schedule) {
      if (due.includes("revoke previous")) await inner.delete(String(olds.previousId), olds);
      const { rotations: _n, rotatedAt: _at, nextRotationAt: _next, ...rest } = this.withoutPrevious(state);
      return { state: rest };
    }
    state.rotations ??= 0;
    let recovered: InitFailure | undefined;
    if (due.includes("rotate")) ({ state, recovered } = await this.rotate(inner, state, olds, news));
    else if (due.includes("revoke previous")) {
      await inner.delete(String(olds.previousId), olds); // a 404 counts as done (operations/delete.ts)
      state = this.withoutPrevious(state);
    }
    return { state: this.timed(state, schedule), recovered };
  }

  /**
   * The next credential, made under the rotation's own idempotency key; the one it succeeds becomes
   * the previous (or, when that one is gone, the previous stays), and any older one is revoked before.
   */
  private async rotate(
    inner: Provider,
    state: Props,
    olds: Props,
    news: Props,
  ): Promise<{ state: Props; recovered?: InitFailure }> {
    const number = Number(olds.rotations ?? 0) + 1;
    const current = String(state.currentId);
    const currentLives = olds.currentGone !== true;
    const older = typeof olds.previousId === "string" ? olds.previousId : undefined;
    const kept = currentLives ? current : older;
    // The one the new credential will not keep is revoked first: its overlap is over (a rotation is
    // due only after `every`, longer than the overlap), and a run killed between the two steps then
    // leaves the current credential and at most one more live, never three. A rerun finds it gone
    // (a 404 counts as done, operations/delete.ts) and makes the next.
    for (const gone of [current, older]) {
      if (gone !== undefined && gone !== kept) await inner.delete(gone, olds);
    }
    // The generic create, as for a first object: the key's rotation field holds the rotation's number
    // (a string trigger can never spell an object), so a rerun sends this very key. An interrupted
    // rotation's credential it recovers (initFailure.ts) is the successor all the same.
    let recovered: InitFailure | undefined;
    const made = await inner
      .create({ ...news, adoptId: undefined, [this.r.input]: { rotation: number } })
      .catch((e: unknown) => {
        if (!isInitFailure(e)) throw e;
        recovered = e;
        return { id: e.id, outs: e.properties };
      });
    progress(
      `${what(this.declaration, news, made.id)}: rotated (rotation ${number}); ` +
        (kept ? `previous ${kept} stays live for the overlap.` : "no previous credential lives."),
      news.__urn,
    );
    const next: Props = {
      ...this.withoutPrevious(state),
      ...made.outs,
      [this.r.input]: news[this.r.input],
      currentId: made.id,
      rotations: number,
      rotatedAt: made.outs.createdAt,
    };
    if (kept !== undefined) {
      next.previousId = kept;
      for (const [output, previous] of Object.entries(previousOutputs(this.r)))
        next[previous] = kept === current ? (olds[output] ?? "") : (olds[previous] ?? "");
    }
    return { state: next, recovered };
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Outputs without the fields this module unset (the schedule taken out of a generic call's inputs,
 * a dropped previous): the engine's wire format has no `undefined`, and the dynamic face refuses one.
 */
function defined(outs: Props): Props {
  return Object.fromEntries(Object.entries(outs).filter(([, v]) => v !== undefined));
}
