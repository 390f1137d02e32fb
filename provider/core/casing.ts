// SDK inputs and outputs use the camelCase forms of the API's snake_case fields (ipAllowList ⇄
// ip_allow_list). Only object keys are renamed; values (scopes, domain names) are never touched.

/** `snakeToCamel` at the type level: `ip_allow_list` → `ipAllowList`. */
export type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
  : S;

export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Renames the top-level keys of a record (API records are flat apart from DNS records). */
export function keysToCamel<T extends object>(record: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[snakeToCamel(k)] = deepKeysToCamel(v);
  return out;
}

function deepKeysToCamel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepKeysToCamel);
  if (value !== null && typeof value === "object") return keysToCamel(value as object);
  return value;
}
