// Marks the values the provider knows to be secret with Pulumi's wire signature for secrets in what
// it returns to the engine (check inputs, create/read/update outputs).
//
// Why: a dynamic provider does not accept secrets, so the engine hands it plain values and re-marks
// outputs as secret only *after* unmarshalling them (`additionalSecretOutputs`, same-name inputs).
// Until then a new API secret is a plain string to the engine, and `pulumi -v=9` logs every
// unmarshalled property in clear ("Unmarshaling property for RPC[...Create().outputs]"). A value that
// arrives signed as a secret is logged as an opaque pointer, stored encrypted, and still reaches the
// provider's later calls unwrapped (the engine unwraps secrets for providers that do not accept them).
import { isUnknown } from "./unknowns";

/** The property signature key and the secret signature (pulumi sdk/go/common/resource/sig.go). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type SecretPath = readonly string[];

export function secretValue(value: unknown): Record<string, unknown> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

export function isSecretValue(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** A copy of `props` with the value at each path (when present, known and not already marked) marked secret. */
export function markSecrets<T extends Record<string, unknown>>(props: T, paths: readonly SecretPath[]): T {
  let out: Record<string, unknown> = props;
  for (const path of paths) out = markAt(out, path);
  return out as T;
}

function markAt(obj: Record<string, unknown>, path: SecretPath): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !(head in obj)) return obj;
  const v = obj[head];
  if (v === undefined || v === null || isUnknown(v) || isSecretValue(v)) return obj;
  if (rest.length === 0) return { ...obj, [head]: secretValue(v) };
  if (typeof v !== "object" || Array.isArray(v)) return obj;
  return { ...obj, [head]: markAt(v as Record<string, unknown>, rest) };
}
