// How messages name an object: its kind, its id when known, and the name a person knows it by.
import type { Props } from "../declaration";

/** The name a person knows an object by (a domain's name, a route's name, a key's label). */
export function nameOf(props: Props | undefined): string | undefined {
  const name = props?.name ?? props?.label ?? props?.email ?? props?.domain;
  return typeof name === "string" ? name : undefined;
}

/** e.g. `Route 5f0c… 'support'`. */
export function what(kind: string, props: Props | undefined, id?: string): string {
  const name = nameOf(props);
  return `${kind}${id ? ` ${id}` : ""}${name === undefined ? "" : ` '${name}'`}`;
}
