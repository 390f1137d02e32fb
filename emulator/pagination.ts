// Cursor pagination (docs/contract/limits.md#pagination): opaque cursors bound to their list, `after` / `before`
// mutually exclusive, `limit` 1–100 (default 100), stable order (creation order).
//
// A forward page (first page or `after`) has `has_more` = more items after it and `next_cursor`
// only then; `previous_cursor` when it did not start at the beginning. A `before` page has
// `has_more` = more items before it, `previous_cursor` only then, and always a `next_cursor`.
import { createHash } from "node:crypto";
import type { Pagination } from "../provider/api";
import { badRequest } from "./http/errors";
import type { ObjectType, Objects, Row } from "./store/objects";

export const MAX_LIMIT = 100;

export interface PageRequest {
  dir: "after" | "before";
  seq: number;
  limit: number;
  fromCursor: boolean;
}

const tag = (listKey: string) => createHash("sha256").update(listKey).digest("base64url").slice(0, 10);

export function encodeCursor(listKey: string, seq: number): string {
  return Buffer.from(JSON.stringify({ l: tag(listKey), s: seq })).toString("base64url");
}

function decodeCursor(name: string, v: string, listKey: string): number {
  let c: { l?: unknown; s?: unknown };
  try {
    c = JSON.parse(Buffer.from(v, "base64url").toString("utf8")) as typeof c;
  } catch {
    throw badRequest(`${name}: invalid cursor`);
  }
  if (typeof c !== "object" || c === null || typeof c.s !== "number" || !Number.isSafeInteger(c.s) || c.s < 0) {
    throw badRequest(`${name}: invalid cursor`);
  }
  if (c.l !== tag(listKey)) throw badRequest(`${name}: the cursor belongs to a different list or filter`);
  return c.s;
}

/** Strict query checking: only the named parameters, each at most once. */
export function checkQuery(query: URLSearchParams, allowed: readonly string[]): void {
  const seen = new Set<string>();
  for (const k of query.keys()) {
    if (!allowed.includes(k)) throw badRequest(`unknown query parameter '${k}'`);
    if (seen.has(k)) throw badRequest(`query parameter '${k}' given more than once`);
    seen.add(k);
  }
}

export const PAGE_QUERY = ["limit", "after", "before"] as const;

export function pageRequest(query: URLSearchParams, listKey: string): PageRequest {
  const after = query.get("after");
  const before = query.get("before");
  if (after !== null && before !== null) throw badRequest("after and before are mutually exclusive");
  const l = query.get("limit");
  let limit = MAX_LIMIT;
  if (l !== null) {
    if (!/^\d{1,4}$/.test(l) || Number(l) < 1 || Number(l) > MAX_LIMIT)
      throw badRequest("limit must be between 1 and 100");
    limit = Number(l);
  }
  if (before !== null) return { dir: "before", seq: decodeCursor("before", before, listKey), limit, fromCursor: true };
  if (after !== null) return { dir: "after", seq: decodeCursor("after", after, listKey), limit, fromCursor: true };
  return { dir: "after", seq: 0, limit, fromCursor: false };
}

export interface ListBody<T> {
  object: "list";
  data: T[];
  pagination: Pagination;
}

/** Builds the envelope from up to limit+1 rows fetched in the page's direction. */
export function envelope<S, T>(rows: Row<S>[], req: PageRequest, listKey: string, map: (r: Row<S>) => T): ListBody<T> {
  const more = rows.length > req.limit;
  const pageRows = rows.slice(0, req.limit);
  if (req.dir === "before") pageRows.reverse();
  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  const pagination: Pagination = { has_more: more };
  if (req.dir === "after") {
    if (more && last) pagination.next_cursor = encodeCursor(listKey, last.seq);
    if (req.fromCursor && first) pagination.previous_cursor = encodeCursor(listKey, first.seq);
  } else {
    if (more && first) pagination.previous_cursor = encodeCursor(listKey, first.seq);
    if (last) pagination.next_cursor = encodeCursor(listKey, last.seq);
  }
  return { object: "list", data: pageRows.map(map), pagination };
}

/** A page of one object type of an account, optionally filtered (filtering scans, bounded by the table). */
export function listPage<S, T>(
  objects: Objects,
  type: ObjectType,
  accountId: string,
  query: URLSearchParams,
  map: (r: Row<S>) => T,
  filter?: { sig: string; keep: (r: Row<S>) => boolean },
): ListBody<T> {
  const listKey = `${type}|${accountId}|${filter?.sig ?? ""}`;
  const req = pageRequest(query, listKey);
  const start = req.dir === "after" ? req.seq : req.seq === 0 ? Number.MAX_SAFE_INTEGER : req.seq;
  let rows: Row<S>[];
  if (!filter) {
    rows = objects.page<S>(type, accountId, req.dir, start, req.limit + 1);
  } else {
    rows = [];
    let cursor = start;
    // Bounded: each round advances the cursor past the rows it read; stops at the end of the table.
    for (let round = 0; round < 1_000_000 && rows.length <= req.limit; round++) {
      const chunk = objects.page<S>(type, accountId, req.dir, cursor, 500);
      if (chunk.length === 0) break;
      for (const r of chunk) if (filter.keep(r) && rows.length <= req.limit) rows.push(r);
      cursor = chunk[chunk.length - 1]!.seq;
      if (chunk.length < 500) break;
    }
  }
  return envelope(rows, req, listKey, map);
}
