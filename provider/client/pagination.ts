// Cursor pagination over the list envelope: `after` takes the previous page's `next_cursor`, the end is
// `has_more: false`. Bounded, and guarded against a server that repeats or omits a cursor (which would
// otherwise loop forever).
import type { List } from "../api/common";
import { TxmailApiError } from "./errors";

/** The API's maximum (and default) page size. */
export const MAX_PAGE_SIZE = 100;
/** 10 000 pages of 100 = a million objects: far beyond any account this provider manages. */
export const DEFAULT_MAX_PAGES = 10_000;

export type FetchPage<T> = (after: string | undefined) => Promise<List<T>>;

export interface PaginateOptions {
  maxPages?: number;
  /** For error messages. */
  method?: string;
  path?: string;
}

/** Yields every item of every page, fetching the next page only when the consumer wants more. */
export async function* paginate<T>(
  fetchPage: FetchPage<T>,
  opts: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let after: string | undefined;
  for (let page = 1; page <= maxPages; page++) {
    const list = await fetchPage(after);
    yield* list.data;
    if (!list.pagination.has_more) return;
    const next = list.pagination.next_cursor;
    if (!next) throw paginationError(opts, "has_more is true but next_cursor is missing");
    if (seen.has(next))
      throw paginationError(opts, "the service returned a cursor it had already returned (pagination loop)");
    seen.add(next);
    after = next;
  }
  throw paginationError(opts, `more than ${maxPages} pages`);
}

/** Pages until an item with `id` is found (and stops fetching there), or the list ends. */
export async function findInPages<T extends { id: string }>(
  fetchPage: FetchPage<T>,
  id: string,
  opts: PaginateOptions = {},
): Promise<T | undefined> {
  return findFirst(paginate(fetchPage, opts), (item) => item.id === id);
}

/** The first item matching `pred`; returning from the loop closes the generator, so no page is wasted. */
export async function findFirst<T>(items: AsyncIterable<T>, pred: (item: T) => boolean): Promise<T | undefined> {
  for await (const item of items) if (pred(item)) return item;
  return undefined;
}

function paginationError(opts: PaginateOptions, what: string): TxmailApiError {
  return new TxmailApiError({
    category: "schema",
    method: opts.method ?? "GET",
    path: opts.path ?? "(list)",
    attempts: 1,
    serviceMessage: `pagination failed: ${what}`,
  });
}
