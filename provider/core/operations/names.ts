// How messages name an object: its kind, its id when known, and the name a person knows it by —
// the kind's own `title` (declaration.ts), so no field is guessed here.
import type { AnyDeclaration, Props } from "../declaration";

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
