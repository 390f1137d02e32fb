// What a create does when it cannot know whether an earlier attempt created the object.
//
// The service stores 2xx/4xx outcomes under the Idempotency-Key, so a retry after a dropped
// connection replays the stored response: no duplicate. A 5xx is *not* stored (docs/contract/idempotency.md#rule-6):
// if the attempt committed and then failed, the retry executes again and a second object exists.
// The client tells us when that may have happened (`uncertain`); we then look for the twin — same
// creation fields, created since this create started, not owned by another resource of this
// process — and delete it. For services that keep names unique (domains) the retry instead gets a
// 409 "already exists": the object our failed attempt made, which we take if it is that recent.
//
// Safety: a twin is only deleted when every field the program set matches and it appeared during
// this create. Concurrent creates of the same collection in this provider process are awaited
// first and their objects are claimed, so one resource never deletes another's object. Two separate
// `pulumi up` runs creating identical objects in the same account at the same moment are the
// remaining ambiguity (docs/guide/behaviour.md#a-5xx-after-the-service-committed).
import { deepEqual } from "./canonicalJson";

/** Objects created or adopted by this provider process (never swept as twins). */
const claimed = new Set<string>();
/** POSTs in flight per collection (account + path). */
const inflight = new Map<string, Set<Promise<unknown>>>();
/** Clock skew allowed between this machine and the service when comparing creation times. */
const SKEW_MS = 60_000;

export function claim(collection: string, id: string): void {
  claimed.add(`${collection}\n${id}`);
}

export function isClaimed(collection: string, id: string): boolean {
  return claimed.has(`${collection}\n${id}`);
}

/** Tracks a POST so that a sweep of the same collection waits for it (and sees its object claimed). */
export async function tracked<T>(collection: string, post: Promise<T>): Promise<T> {
  let set = inflight.get(collection);
  if (!set) inflight.set(collection, (set = new Set()));
  set.add(post);
  try {
    return await post;
  } finally {
    set.delete(post);
    if (set.size === 0) inflight.delete(collection);
  }
}

/** Waits for the other POSTs in flight on this collection (their outcome does not matter here). */
export async function settleOthers(collection: string): Promise<void> {
  const others = [...(inflight.get(collection) ?? [])];
  await Promise.allSettled(others);
}

/** True when `createdAt` (ISO) is no earlier than `sinceMs` minus the allowed skew. */
export function createdSince(createdAt: unknown, sinceMs: number): boolean {
  const t = typeof createdAt === "string" ? Date.parse(createdAt) : NaN;
  return Number.isFinite(t) && t >= sinceMs - SKEW_MS;
}

/** Fields of a live record (camelCase outputs) that must equal the program's creation fields. */
export function matchesCreation(
  live: Record<string, unknown>,
  inputs: Record<string, unknown>,
  fields: readonly string[],
): boolean {
  return fields.every((f) => inputs[f] === undefined || deepEqual(live[f], inputs[f]));
}
