// How messages name an object: its kind, its id when known, and the name a person knows it by —
// the kind's own `title` (declaration.ts), so no field is guessed here.
import { keysToCamel } from "../casing";
import type { AnyDeclaration, Listing, Props } from "../declaration";

/** The name a person knows an object by (a domain's name, a route's name, a key's label). */
export function nameOf(declaration: AnyDeclaration, props: Props | undefined): string | undefined {
  const name = props === undefined ? undefined : declaration.title(props);
  return typeof name === "string" ? name : undefined;
}

/** e.g. `Route 5f0c… 'support'`. */
export function what(declaration: AnyDeclaration, props: Props | undefined, id?: string): string {
  const name = nameOf(declaration, props);
  return `${declaration.kind}${id ? ` ${id}` : ""}${name === undefined ? "" : ` '${name}'`}`;
}

/**
 * What a listed record is called — in the import plan, reports of likely leftovers and the look for
 * them: the kind's `title` of the record's fields, unless the listing says otherwise (a suppression's
 * plan name also names its domain).
 */
export function listedTitle(
  declaration: AnyDeclaration,
  listing: Extract<Listing, { listed: true }>,
): (record: Record<string, unknown>) => string {
  return listing.title ?? ((record) => String(declaration.title(keysToCamel(record))));
}
