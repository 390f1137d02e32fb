// What a (sub) account holds that `pulumi import` can take under management, found through the
// service's list endpoints: one entry per object, with the id `pulumi import` takes for its kind
// (see importIds.ts) and the name a person knows it by. Everything per kind — its collection's path,
// its record, the scope that lists it, how an object is titled — comes from the kind's declaration
// (its `listing`), for every kind of the list (provider/api/kinds.ts). Families the key may not read
// are skipped with the scope that would let them be listed, so a narrow key still yields a useful plan.
import { z } from "zod";
import { OBJECT_KINDS, type Kind } from "../../provider/api/kinds";
import { errorCategory } from "../../provider/core/api";
import type { Connection } from "../../provider/core/connection";
import type { AnyDeclaration } from "../../provider/core/declaration";
import { listedTitle } from "../../provider/core/operations/names";
import { declarations } from "../../provider/resources";
import { importIdOf } from "./importIds";

/** The part of the HTTP client the collector uses (the real client, or a fake in unit tests). */
export interface ObjectSource {
  list<S extends z.ZodType>(path: string, schema: S): AsyncIterable<z.output<S>>;
  get<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>>;
}

export interface Importable {
  /** The kind (last part of the type token). */
  kind: Kind;
  /** What `pulumi import` takes as the id of this kind. */
  importId: string;
  /** What a person calls the object; the plan derives the resource name from it. */
  title: string;
}

export interface Skipped {
  kind: Kind;
  reason: string;
}

export interface Collected {
  found: Importable[];
  skipped: Skipped[];
}

/** A listed object: its record, and what a person calls it. */
interface Listed {
  record: Record<string, unknown>;
  title: string;
}

/** Any list answer, for counting what a kind's collection holds. */
const AnyList = z.object({ data: z.array(z.unknown()) });

/** Every importable object of `accountId`, in a stable order (kind, then the service's listing order). */
export async function collectImportables(
  source: ObjectSource,
  accountId: string,
  now = Date.now(),
): Promise<Collected> {
  // Only the account id is used: paths are relative to the client's base URL.
  const conn = { accountId } as Connection;
  const found: Importable[] = [];
  const skipped: Skipped[] = [];
  const listedByKind = new Map<Kind, Listed[]>();

  /** One kind's objects: under each listed sub account, or in the account itself. */
  async function listKind(declaration: AnyDeclaration): Promise<Listed[]> {
    const listing = declaration.listing;
    if (!listing.listed) return [];
    const titleOf = listedTitle(declaration, listing);
    const under = listing.subAccountInput;
    const places: Array<Listed | undefined> = under ? (listedByKind.get("SubAccount") ?? []) : [undefined];
    const out: Listed[] = [];
    for (const parent of places) {
      const props = parent && under ? { [under]: String(parent.record.id) } : {};
      for await (const item of source.list(declaration.collectionPath(conn, props), declaration.record)) {
        // An object listed under a sub account belongs to it, whatever the record says.
        const record = parent ? { ...item, account_id: parent.record.id } : item;
        if (listing.live && !listing.live(record, now)) continue;
        out.push({ record, title: parent ? `${parent.title}-${titleOf(record)}` : titleOf(record) });
      }
    }
    return out;
  }

  /** Why a kind is left out: a 403 (the key may not list it) or a sub-account feature the account lacks. */
  function skipReason(declaration: AnyDeclaration, err: unknown): string {
    const k = errorCategory(err);
    if (k === "forbidden") {
      const scope = declaration.scopes.read({})[0];
      return `the API key may not list them (needs ${scope}, or its IP allow list excludes this machine)`;
    }
    if (k === "not-found") return "the account has no such collection (sub accounts are a partner feature)";
    throw err;
  }

  for (const kind of OBJECT_KINDS) {
    const declaration = declarations[kind];
    const listing = declaration.listing;
    try {
      if (!listing.listed) {
        const { data } = await source.get(declaration.collectionPath(conn, {}), AnyList);
        if (data.length > 0) skipped.push({ kind, reason: listing.unlisted(data.length) });
        continue;
      }
      const listed = await listKind(declaration);
      listedByKind.set(kind, listed);
      for (const { record, title } of listed) found.push({ kind, importId: importIdOf(kind, record), title });
    } catch (err) {
      skipped.push({ kind, reason: skipReason(declaration, err) });
    }
  }
  return { found, skipped };
}
