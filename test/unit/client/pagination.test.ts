import type { List } from "../../../provider/api/common";
import { TxmailApiError } from "../../../provider/client/errors";
import { findFirst, findInPages, paginate } from "../../../provider/client/pagination";

type Item = { id: string };
const items = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ id: `id-${i}` }));

/** Serves `all` in pages of `size` with opaque cursors, recording each `after` it was asked for. */
function pager(all: Item[], size = 100) {
  const calls: Array<string | undefined> = [];
  const fetchPage = async (after: string | undefined): Promise<List<Item>> => {
    calls.push(after);
    const start = after ? Number(after.slice(2)) : 0;
    const data = all.slice(start, start + size);
    const has_more = start + size < all.length;
    return { object: "list", data, pagination: { has_more, next_cursor: has_more ? `c:${start + size}` : null } };
  };
  return { calls, fetchPage };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("paginate", () => {
  test("250 items in 3 pages", async () => {
    const p = pager(items(250));
    const got = await collect(paginate(p.fetchPage));
    expect(got.map((i) => i.id)).toEqual(items(250).map((i) => i.id));
    expect(p.calls).toEqual([undefined, "c:100", "c:200"]);
  });
  test("an empty list is one request", async () => {
    const p = pager([]);
    expect(await collect(paginate(p.fetchPage))).toEqual([]);
    expect(p.calls).toHaveLength(1);
  });
  test("exactly one full page: has_more false ends it", async () => {
    const p = pager(items(100));
    expect(await collect(paginate(p.fetchPage))).toHaveLength(100);
    expect(p.calls).toHaveLength(1);
  });
  test("has_more without a cursor is an error, not a loop", async () => {
    const fetchPage = async (): Promise<List<Item>> => ({ object: "list", data: [], pagination: { has_more: true } });
    await expect(collect(paginate(fetchPage, { path: "/v2/accounts/a/routes" }))).rejects.toThrow(
      /next_cursor is missing/,
    );
  });
  test("a repeated cursor is an error, not a loop", async () => {
    const fetchPage = async (): Promise<List<Item>> => ({
      object: "list",
      data: [{ id: "x" }],
      pagination: { has_more: true, next_cursor: "same" },
    });
    await expect(collect(paginate(fetchPage))).rejects.toBeInstanceOf(TxmailApiError);
  });
  test("maxPages bounds the walk", async () => {
    let n = 0;
    const fetchPage = async (): Promise<List<Item>> => ({
      object: "list",
      data: [],
      pagination: { has_more: true, next_cursor: `c${n++}` },
    });
    await expect(collect(paginate(fetchPage, { maxPages: 5 }))).rejects.toThrow(/more than 5 pages/);
    expect(n).toBe(5);
  });
});

describe("findInPages", () => {
  test("stops fetching once found", async () => {
    const p = pager(items(1000));
    expect(await findInPages(p.fetchPage, "id-150")).toEqual({ id: "id-150" });
    expect(p.calls).toEqual([undefined, "c:100"]);
  });
  test("undefined when absent, after reading every page", async () => {
    const p = pager(items(250));
    expect(await findInPages(p.fetchPage, "nope")).toBeUndefined();
    expect(p.calls).toHaveLength(3);
  });
  test("findFirst works on any async iterable", async () => {
    async function* g() {
      yield 1;
      yield 2;
      throw new Error("must not be reached");
    }
    expect(await findFirst(g(), (x) => x === 2)).toBe(2);
  });
});
