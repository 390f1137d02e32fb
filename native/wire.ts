// Values as the engine sends them to a native provider that accepts secrets: a secret is the wire's
// signed object `{ [SIG_KEY]: SECRET_SIG, value }`, anywhere in a property tree. The generic
// provider (provider/core) works on plain values, so secrets are unwrapped on the way in and the
// places they were found are remembered, to be marked secret again on the way out: a value the
// program made secret stays secret in state whatever the provider does with it.
import { isSecretValue, type SecretPath } from "../provider/core/secretMarks";

/** A property tree with its secrets unwrapped, and where they were (object keys only, see below). */
export interface Unwrapped {
  plain: Record<string, unknown>;
  secretPaths: SecretPath[];
}

export function unwrapSecrets(props: Record<string, unknown> | undefined): Unwrapped {
  const secretPaths: SecretPath[] = [];
  const plain = (walk(props ?? {}, [], secretPaths) ?? {}) as Record<string, unknown>;
  return { plain, secretPaths };
}

/**
 * A secret inside a list marks the whole list (the path stops at the first list): markSecrets
 * addresses object keys only, and a list with one secret element is secret material as a whole.
 */
function walk(v: unknown, path: string[], found: SecretPath[], inList = false): unknown {
  if (isSecretValue(v)) {
    if (!inList) found.push(path);
    return walk(v.value, path, found, inList);
  }
  if (Array.isArray(v)) {
    if (!inList && v.some(containsSecret)) found.push(path);
    return v.map((x) => walk(x, path, found, true));
  }
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k], found, inList)]));
  }
  return v;
}

function containsSecret(v: unknown): boolean {
  if (isSecretValue(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsSecret);
  return false;
}

/** The type token's last part: `txmail:index:Route` (in a URN, after the parent types) → `Route`. */
export function kindOfUrn(urn: string): string {
  const type = urn.split("::")[2] ?? "";
  const token = type.slice(type.lastIndexOf("$") + 1);
  const [pkg, , kind] = token.split(":");
  if (pkg !== "txmail" || !kind) throw new Error(`txmail: '${token}' is not a txmail resource type (urn ${urn})`);
  return kind;
}
