// Candidates: objects that look like the one a create may have made before, found by their name,
// their fields and their creation time. Looking alike proves nothing — another stack on the same
// account (two engineers' `dev` stacks, a preview stack beside production) makes objects with the
// same names and values — so a candidate is only ever *reported* (leftovers.ts), or offered to the
// service as a rebuilt request under this stack's own key (proof.ts). No code acts on one.
import { camelToSnake } from "../casing";
import { createdSince, heldHere, settleOthers } from "../uncertainCreate";
import type { Attempt } from "./answer";
import { keptAlike } from "./createForm";
import { keyFields, reportedFields } from "./createKey";
import { reportLeftovers } from "../leftovers";
import { listedTitle } from "./names";

/** The service's idempotency record lifetime (docs/contract/idempotency.md#rule-5). */
export const RECORD_LIFETIME_MS = 24 * 3600_000;

interface Look {
  /** Created no earlier than this (ms since the epoch; the allowed clock skew is added). */
  since: number;
  /** Program fields a candidate must show with the same values (those the service reports back). */
  fields: readonly string[];
  /** Never a candidate (the object this create just made). */
  exceptId?: string;
}

/**
 * Objects of the collection created since `look.since`, alive, that no resource of this process
 * made, with the program's `look.fields`: listed once, after this process's other creates in the
 * collection have settled (so their objects are held). Those with the program's name (where the kind
 * has one) first, newest first within each: the name is no filter, since a kind whose name changes
 * in place may have had another when an earlier attempt made its object.
 */
async function candidates(attempt: Attempt, look: Look): Promise<Record<string, unknown>[]> {
  const { k, ctx, inputs, body, collection } = attempt;
  const { declaration } = k;
  const { listing } = declaration;
  const titleOf = listing.listed ? listedTitle(declaration, listing) : undefined;
  const live = listing.listed ? listing.live : undefined;
  const reported = new Set(reportedFields(declaration));
  const compared = look.fields.filter((f) => reported.has(f) && inputs[f] !== undefined);
  await settleOthers(collection);
  const now = Date.now();
  const found: Record<string, unknown>[] = [];
  const listed = declaration.listAll
    ? declaration.listAll(ctx, inputs)
    : ctx.api.list(declaration.collectionPath(ctx.conn, inputs), declaration.record, declaration.listQuery?.(inputs));
  for await (const record of listed) {
    const id = k.idOf(record);
    if (id === look.exceptId || heldHere(collection, id) || !createdSince(record.created_at, look.since)) continue;
    if (live && !live(record, now)) continue;
    const outputs = k.outputsOf(record);
    // Compared as the service keeps them (it may echo another spelling: lower-cased domains).
    if (compared.every((f) => keptAlike(declaration, camelToSnake(f), outputs[f], inputs[f]))) found.push(record);
  }
  const named = (r: Record<string, unknown>) => (titleOf && titleOf(r) === titleOf(body) ? 0 : 1);
  return found.sort((a, b) => named(a) - named(b) || String(b.created_at).localeCompare(String(a.created_at)));
}

/**
 * The candidates with the program's name (where the kind has one): the only ones a report names.
 * A look-alike of another name is offered to the service as a proof, never reported: an object of
 * any name with the same fixed fields (every key of an account with the same scopes, its own key
 * among them) is no likely leftover of this resource.
 */
export function sameNamed(attempt: Attempt, found: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const { declaration } = attempt.k;
  const { listing } = declaration;
  const titleOf = listing.listed ? listedTitle(declaration, listing) : undefined;
  return found.filter((r) => titleOf === undefined || titleOf(r) === titleOf(attempt.body));
}

/** Candidates for an earlier attempt of this resource within the record lifetime: its fixed fields, any name. */
export function earlierAttempts(attempt: Attempt): Promise<Record<string, unknown>[]> {
  return candidates(attempt, { since: Date.now() - RECORD_LIFETIME_MS, fields: keyFields(attempt.k.declaration) });
}

/**
 * Candidates for a stray of a 5xx that committed: every field the program set that the record shows,
 * made during this create (`madeId`, the object this create made, if any, excepted). A kind whose
 * record shows none of its name (a membership: no email) is compared on what it does show, and no
 * name filters the report: looks are enough to report, never to act.
 */
export function strays(attempt: Attempt, started: number, madeId?: string): Promise<Record<string, unknown>[]> {
  return candidates(attempt, { since: started, fields: reportedFields(attempt.k.declaration), exceptId: madeId });
}

/**
 * Reports candidates as likely leftovers (warnings on the resource), touching none. `madeSince`: when
 * this create started (strays only).
 */
export function reportCandidates(
  attempt: Attempt,
  found: readonly Record<string, unknown>[],
  why: string,
  madeSince?: number,
): void {
  const { k, ctx, inputs } = attempt;
  const { declaration } = k;
  const { listing } = declaration;
  const titleOf = listing.listed ? listedTitle(declaration, listing) : undefined;
  // The state's own object (a replacement's diff named it) is the resource's, never a leftover. Where
  // an id outlives its object (a membership's is the person's), one made since this create started,
  // by the service's clock and with no skew allowed, is another object with that id: a
  // delete-before-replace removed the state's before this create ran.
  const stateIds = typeof inputs.__urn === "string" ? k.stateObjects.stateObjectOf(inputs.__urn).ids : new Set();
  const idOutlives = (declaration.naturalKey?.identity ?? []).length > 0;
  const madeNow = (record: Record<string, unknown>) =>
    idOutlives && madeSince !== undefined && Date.parse(String(record.created_at)) >= madeSince;
  const stateOwn = (record: Record<string, unknown>) => stateIds.has(k.idOf(record)) && !madeNow(record);
  const fresh = found.filter((record) => !attempt.reported.has(k.idOf(record)) && !stateOwn(record));
  for (const record of fresh) attempt.reported.add(k.idOf(record));
  const leftovers = fresh.map((record) => {
    const id = k.idOf(record);
    return {
      kind: declaration.kind,
      id,
      title: titleOf?.(record),
      createdAt: record.created_at,
      importId: declaration.importId?.format(record) ?? id,
      url: `${ctx.conn.baseUrl}${declaration.itemPath(ctx.conn, inputs, id)}`,
    };
  });
  reportLeftovers(leftovers, why, String(inputs.__urn ?? ""));
}
