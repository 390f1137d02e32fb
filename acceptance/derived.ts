// The acceptance run's resources of the kinds that have no hand-written steps in lifecycle.ts: each
// managed kind's one resource is its example's (docs/examples/<Kind>, read by support/examples.ts),
// created in the run's sub account through the `workspace` provider on both faces, so a new kind
// is walked with no edit here or in the programs. What is derived, from the declaration:
//   - the object's title field (the input `title` names it by: a webhook's `name`) starts with the
//     face's prefix, so the two faces' objects, side by side in one sub account, never collide;
//   - the second values: that field renamed, which updates the object in place where the field is
//     updatable, or replaces it where the field is in `replaceOn` (or the kind is immutable); a kind
//     whose title is no such input is created, read, imported and deleted, not updated or replaced;
//   - the id a user types to import it: the object's uuid (the default import id).
// A kind whose example refers to other resources, or that is imported by another id, needs
// hand-written steps (lifecycle.ts): derivedResource says so by name.
import { KIND_FACTS, type KindFacts, OBJECT_KINDS, type ObjectKind } from "../provider/api/kinds";
import { declarations } from "../provider/resources";
import { exampleOf } from "../support/examples";

/** A derived kind's change at the run's second values: an update in place, a replacement, or none. */
export type DerivedChange = "update" | "replace" | undefined;

export interface DerivedResource {
  kind: ObjectKind;
  /** Its name in both programs: the kind in camelCase (`smtpCredential`). */
  name: string;
  properties: Record<string, unknown>;
  change: DerivedChange;
}

/** The managed object kinds that `handWritten` does not name: the ones walked from their example. */
export const derivedKinds = (handWritten: readonly string[]): ObjectKind[] =>
  OBJECT_KINDS.filter((kind) => (KIND_FACTS[kind] as KindFacts).managed === true && !handWritten.includes(kind));

export const resourceNameOf = (kind: string) => kind[0]!.toLowerCase() + kind.slice(1);

/** Whether a value holds a reference to another resource (`${other.id}`, also inside a string). */
const refers = (value: unknown): boolean =>
  typeof value === "string"
    ? value.includes("${")
    : typeof value === "object" && value !== null && Object.values(value).some(refers);

/**
 * The kind's resource at a step, for the face whose objects start with `prefix`: the example's
 * properties, its title field prefixed (and renamed from the step where it changes).
 */
export function derivedResource(kind: ObjectKind, prefix: string, step: 1 | 2 | 3): DerivedResource {
  const declaration = declarations[kind];
  const { file, resources, own } = exampleOf(kind);
  const example = resources[own]!.properties ?? {};
  const needsSteps = (why: string) =>
    new Error(`${kind}: ${why}: give it hand-written acceptance steps (acceptance/lifecycle.ts RESOURCE_NAMES)`);
  if (refers(example)) throw needsSteps(`its example (${file}) refers to other resources`);
  if (declaration.importId) throw needsSteps(`it is imported by ${declaration.importId.syntax}, not its id`);

  const title = declaration.title(example);
  const field = Object.keys(example).find((k) => typeof title === "string" && example[k] === title);
  const change: DerivedChange =
    field === undefined
      ? undefined
      : declaration.immutable || declaration.replaceOn.includes(field)
        ? "replace"
        : declaration.apiFields.includes(field)
          ? "update"
          : undefined;
  const changed = change === "update" ? step >= 2 : change === "replace" && step >= 3;
  // The marker goes first: a title may be an address or a hostname, where only the start is free.
  const properties = field
    ? { ...example, [field]: `${prefix}-${changed ? "renamed-" : ""}${String(example[field])}` }
    : example;
  const checked = declaration.inputs.safeParse(properties);
  if (!checked.success) throw needsSteps(`its example with the run's values is not valid: ${checked.error.message}`);
  return { kind, name: resourceNameOf(kind), properties, change };
}
