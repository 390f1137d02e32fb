// What every operation needs to know about one kind, worked out once from its declaration: the declaration itself,
// how to reach the service, and the views of its fields the operations keep asking for. Each face
// (the dynamic provider, the native provider) builds one context per kind and hands it to the
// operations in this folder, so both run the same code.
import type { Api } from "../api";
import { keysToCamel } from "../casing";
import { type Connection, resolveConnection } from "../connection";
import type { AnyDeclaration, Ctx, Declaration, Props } from "../declaration";
import { StateObjects } from "../stateObjects";

export interface KindContext {
  /** The kind's declaration (as any declaration: the operations do not need its input type). */
  readonly declaration: AnyDeclaration;
  /** The API for a resolved connection (one client per connection in a provider process). */
  readonly apiFor: (conn: Connection) => Api;
  /** The Pulumi id of a record (its uuid unless the declaration says otherwise). */
  readonly idOf: (record: Record<string, unknown>) => string;
  /** A service record as outputs (camelCase, the declaration's own mapping), without the `object` tag. */
  readonly outputsOf: (record: Record<string, unknown>) => Record<string, unknown>;
  /** Provider-local inputs that diff compares (a rotation trigger, `stateFields`); the key's are createKey.ts's. */
  readonly localFields: readonly string[];
  /** Write-only secret inputs: state keeps only their digest. */
  readonly writeOnly: ReadonlySet<string>;
  /** What this run's engine calls said of each resource's object in the state (stateObjects.ts). */
  readonly stateObjects: StateObjects;
}

export function kindContext<I extends Record<string, unknown>>(
  declared: Declaration<I>,
  apiFor: (conn: Connection) => Api,
): KindContext {
  const declaration = declared as unknown as AnyDeclaration;
  const writeOnly = new Set<string>(declaration.writeOnly ?? []);
  return {
    declaration,
    apiFor,
    idOf: declaration.idOf ?? ((r) => String(r.id)),
    outputsOf: (record) => recordOutputs(declaration, record),
    localFields: [
      ...declaration.replaceOn.filter((f) => !declaration.apiFields.includes(f)),
      ...(declaration.stateFields ?? []),
    ],
    writeOnly,
    stateObjects: new StateObjects(),
  };
}

/** A service record as outputs: the declaration's own mapping (else camelCase), without the `object` tag. */
export function recordOutputs(declaration: AnyDeclaration, record: Record<string, unknown>): Record<string, unknown> {
  const base = declaration.outputsOf ? declaration.outputsOf(record) : keysToCamel(record);
  delete base.object;
  return base;
}

/** The connection a resource uses (its own, stack config, environment) and the API behind it. */
export function connect(k: KindContext, props: Props): Ctx {
  const conn = resolveConnection(props.connection);
  return { conn, api: k.apiFor(conn) };
}

/** Key of a collection in this process's tables of held objects and POSTs in flight (see uncertainCreate.ts). */
export function collectionOf(k: KindContext, conn: Connection, props: Props): string {
  return `${conn.baseUrl} ${k.declaration.collectionPath(conn, props)}`;
}
