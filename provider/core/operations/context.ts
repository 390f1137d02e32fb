// What every operation needs to know about one kind, worked out once from its declaration: the declaration itself,
// how to reach the service, and the views of its fields the operations keep asking for. Each face
// (the dynamic provider, the native provider) builds one context per kind and hands it to the
// operations in this folder, so both run the same code.
import type { Api } from "../api";
import { keysToCamel } from "../casing";
import { type Connection, resolveConnection } from "../connection";
import type { AnyDeclaration, Ctx, Declaration, Props } from "../spec";

export interface KindContext {
  /** The kind's declaration (as any declaration: the operations do not need its input type). */
  readonly spec: AnyDeclaration;
  /** The API for a resolved connection (one client per connection in a provider process). */
  readonly apiFor: (conn: Connection) => Api;
  /** The Pulumi id of a record (its uuid unless the spec says otherwise). */
  readonly idOf: (record: Record<string, unknown>) => string;
  /** A service record as outputs (camelCase, the spec's own mapping), without the `object` tag. */
  readonly outputsOf: (record: Record<string, unknown>) => Record<string, unknown>;
  /** Provider-local inputs that still matter to diff (e.g. a rotation trigger). */
  readonly localFields: readonly string[];
  /** Write-only secret inputs: state keeps only their digest. */
  readonly writeOnly: ReadonlySet<string>;
  /** Identity fields a twin must share: what the program set and the service reports back. */
  readonly creationFields: readonly string[];
}

export function kindContext<I extends Record<string, unknown>>(
  declared: Declaration<I>,
  apiFor: (conn: Connection) => Api,
): KindContext {
  const spec = declared as unknown as AnyDeclaration;
  const writeOnly = new Set<string>(spec.writeOnly ?? []);
  const inputOnly = new Set<string>(spec.inputOnly ?? []);
  return {
    spec,
    apiFor,
    idOf: spec.idOf ?? ((r) => String(r.id)),
    outputsOf: (record) => recordOutputs(spec, record),
    localFields: [...spec.replaceOn.filter((f) => !spec.apiFields.includes(f)), ...(spec.stateFields ?? [])],
    writeOnly,
    creationFields: spec.apiFields.filter((f) => !writeOnly.has(f) && !inputOnly.has(f)),
  };
}

/** A service record as outputs: the spec's own mapping (else camelCase), without the `object` tag. */
export function recordOutputs(spec: AnyDeclaration, record: Record<string, unknown>): Record<string, unknown> {
  const base = spec.outputsOf ? spec.outputsOf(record) : keysToCamel(record);
  delete base.object;
  return base;
}

/** The connection a resource uses (its own, stack config, environment) and the API behind it. */
export function connect(k: KindContext, props: Props): Ctx {
  const conn = resolveConnection(props.connection);
  return { conn, api: k.apiFor(conn) };
}

/** Key of a collection in this process's claim and in-flight tables (see uncertainCreate.ts). */
export function collectionOf(k: KindContext, conn: Connection, props: Props): string {
  return `${conn.baseUrl} ${k.spec.collectionPath(conn, props)}`;
}
