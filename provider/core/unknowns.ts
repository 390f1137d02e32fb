// During preview the engine hands dynamic providers a sentinel string in place of values that are
// not known yet (e.g. an id of a resource still to be created). Validation must skip them and diffs
// must treat them as "will change", never compare them as real values.

/** The sentinel @pulumi/pulumi uses for unknown values inside dynamic providers. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}
