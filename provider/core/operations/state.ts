// What state keeps of a resource: its canonical inputs (write-only secrets as digests only), the
// record's outputs, and the one-time secrets the service returned at creation.
import { createHash } from "node:crypto";
import type { Props } from "../declaration";
import { isUnknown } from "../unknowns";
import type { KindContext } from "./context";

/** A stable digest for write-only values: enough to notice a change, useless to an attacker. */
export function digest(value: unknown): unknown {
  if (value === undefined || isUnknown(value)) return value;
  return `sha256:${createHash("sha256").update(String(value)).digest("hex")}`;
}

/** What state keeps of the inputs: write-only secrets only as digests. */
export function stored(k: KindContext, props: Props): Props {
  const copy: Props = { ...props };
  for (const f of k.writeOnly) if (copy[f] !== undefined) copy[f] = digest(copy[f]);
  return copy;
}

/**
 * Outputs as state keeps them. Not kept: `id` (the resource's own id), `__urn`, `__stackSalt` and `__replaceOnChanges`
 * (inputs, kept with the inputs) and `updatedAt` (changes with every write; no class declares it). The engine rewrites
 * and re-serializes every property of every resource after each step, so each one dropped here is
 * paid for ~2 × resources times per `pulumi up` (bench/RESULTS.md).
 */
export function stateOf(outs: Props): Props {
  const {
    id: _id,
    __urn: _urn,
    __stackSalt: _salt,
    __replaceOnChanges: _replaceOnChanges,
    updatedAt: _updated,
    ...kept
  } = outs;
  return kept;
}

/** Outputs with a declaration's extra update state applied (prepareUpdate): undefined fields removed. */
export function withState(outs: Props, state: Props | undefined): Props {
  const merged: Props = { ...outs, ...state };
  for (const [k, v] of Object.entries(state ?? {})) if (v === undefined) delete merged[k];
  return merged;
}

/** The one-time secrets of a creation response, under their output names. */
export function secretsFrom(k: KindContext, created: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [output, field] of Object.entries(k.declaration.createOnly ?? {})) out[output] = created[field];
  return out;
}

/** A creation response without its one-time secrets (they go to secretsFrom's outputs). */
export function withoutCreateOnly(k: KindContext, record: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...record };
  for (const field of Object.values(k.declaration.createOnly ?? {})) delete copy[field];
  return copy;
}

/** The one-time secrets as `from` holds them ("" where unknown: the service never shows them again). */
export function keptSecrets(k: KindContext, from: Props): Record<string, unknown> {
  return Object.fromEntries(Object.keys(k.declaration.createOnly ?? {}).map((o) => [o, from[o] ?? ""]));
}
