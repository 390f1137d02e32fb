// This process's bookkeeping for creates that cannot know everything the service did.
//
// The service stores 2xx/4xx outcomes under the Idempotency-Key, so a retry after a dropped
// connection replays the stored response: no duplicate. A 5xx is *not* stored (docs/contract/idempotency.md#rule-6):
// if the attempt committed and then failed, the retry executes again and a second object exists
// that no key names. The client says when that may have happened (`uncertain`); the create then
// looks for objects made meanwhile with the same values and *reports* them (operations/candidates.ts):
// looking alike is no proof — another stack may have made one at the same moment — so none is
// ever deleted or taken. Objects a resource of this process made or adopted are "held" here — all
// the word says is that this process's resources own them — and a look waits for this process's
// other creates in the same collection, so it never reports a sibling's object.
/** Objects a resource of this provider process made or adopted (never reported as leftovers). */
const held = new Set<string>();
/** POSTs in flight per collection (account + path). */
const inflight = new Map<string, Set<Promise<unknown>>>();
/** Clock skew allowed between this machine and the service when comparing creation times. */
const SKEW_MS = 60_000;

export function holdHere(collection: string, id: string): void {
  held.add(`${collection}\n${id}`);
}

export function heldHere(collection: string, id: string): boolean {
  return held.has(`${collection}\n${id}`);
}

/** Tracks a POST so that a sweep of the same collection waits for it (and sees its object held). */
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
