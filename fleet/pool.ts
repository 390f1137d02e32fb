// Bounded parallelism: at most `limit` tasks at once, started in order, each told which of the
// `limit` lanes runs it (a lane runs its tasks one after another). `stopped()` is asked before each
// start, so an interrupted fleet lets the running shards finish and starts no new one.
export async function runBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, lane: number) => Promise<R>,
  stopped: () => boolean = () => false,
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = new Array(items.length).fill(undefined);
  let next = 0;
  const lane = async (laneIndex: number) => {
    while (next < items.length && !stopped()) {
      const i = next++;
      results[i] = await task(items[i]!, laneIndex);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, (_, k) => lane(k)));
  return results;
}
