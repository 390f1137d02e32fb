// Resource names for `pulumi import --file`: derived from what a person calls the object (a
// domain's name, a route's name, a key's label), in the form Pulumi's code generators turn into
// readable variable names, and unique within one file (the generated program declares them all in
// one scope, so two objects called "inbound" of different kinds would otherwise clash).

/** Longest name kept; longer ones are cut (a route name may be 255 characters). */
const MAX_NAME_LENGTH = 60;

/** Lower case letters, digits and single hyphens; `fallback` when nothing of `text` is left. */
export function slug(text: string, fallback: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_NAME_LENGTH)
    .replace(/-+$/, "");
  return s === "" ? fallback : s;
}

/**
 * A namer that hands out each name once: the first object keeps its name, the next ones get `-2`,
 * `-3`, … in the order they are named (the order of the listing, so reruns give the same names).
 */
export function uniqueNamer(): (wanted: string) => string {
  const taken = new Set<string>();
  return (wanted) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}-${n}`;
    taken.add(name);
    return name;
  };
}
