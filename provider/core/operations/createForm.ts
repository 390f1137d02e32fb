// Create bodies in one canonical form (docs/contract/idempotency.md#the-canonical-create-body): every
// API field of the kind's create, in the declaration's `apiFields` order, each in the form the
// service keeps it (provider/api/createForm.ts) — a field left out by the program carries the
// service's create default, and is left out only where the service's unset value is its own choice
// or null. A create's body is then a function of the values the object's record reports (and of
// the write-only and input-only fields no record shows), so the body an earlier attempt sent can be
// rebuilt from the object it made whatever the program changed since (proof.ts).
//
// 0.1.x sent the program's own fields as given (createKey.ts `programBody`). The key still stands
// for those, so a create that 0.1.x left unrecorded keeps its key after an upgrade, and the
// proof offers that form too.
import { canonicalJson } from "../canonicalJson";
import { camelToSnake } from "../casing";
import type { AnyDeclaration } from "../declaration";

type Values = Record<string, unknown>;

/** The canonical create body of these values (camelCase; null or undefined: unset). */
export function canonicalBody(declaration: AnyDeclaration, values: Values): Record<string, unknown> {
  const defaults = declaration.createForm?.defaults ?? {};
  const body: Record<string, unknown> = {};
  for (const f of declaration.apiFields) {
    const name = camelToSnake(f);
    const given = values[f] ?? structuredClone(defaults[name]);
    const value = storedForm(declaration, name, given);
    if (value !== undefined) body[name] = value;
  }
  return body;
}

/** A value (API name) as the service keeps it; undefined: kept as unset. */
export function storedForm(declaration: AnyDeclaration, name: string, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const keep = declaration.createForm?.stored?.[name] as ((v: unknown) => unknown) | undefined;
  return keep ? keep(value) : value;
}

/** Two values (API name) the service keeps alike. */
export function keptAlike(declaration: AnyDeclaration, name: string, a: unknown, b: unknown): boolean {
  return canonicalJson(storedForm(declaration, name, a)) === canonicalJson(storedForm(declaration, name, b));
}

/** Whether the service would keep this value (API name) as its create default for the field. */
export function isDefault(declaration: AnyDeclaration, name: string, value: unknown): boolean {
  const defaults = declaration.createForm?.defaults ?? {};
  return name in defaults && keptAlike(declaration, name, value, defaults[name]);
}

/** Whether a program may leave this input unset (its input schema takes undefined and gives no default). */
export function programMayOmit(declaration: AnyDeclaration, field: string): boolean {
  const shape = (
    declaration.inputs as { shape?: Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }> }
  ).shape;
  const parsed = shape?.[field]?.safeParse(undefined);
  return parsed === undefined || (parsed.success && parsed.data === undefined);
}

/** The exact text a body is sent as (the service compares a create's raw bytes under its key: rule 2). */
export const sentText = (body: Record<string, unknown>): string => JSON.stringify(body);
