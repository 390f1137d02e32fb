// The declaration each resource file makes (provider/resources): one per kind, from which every
// face derives. provider/core/factory.ts turns it into a full provider (check, diff, create, read,
// update, delete, adoption); the package schema, the SDK's classes and the docs are generated from it.
import type { z } from "zod";
import type { Kind } from "../api/kinds";
import type { Api } from "./api";
import type { Connection } from "./connection";
import type { ImportIdForm } from "./importId";

/** Inputs every resource accepts besides its own (added by the factory). */
export interface CommonInputs {
  /** Per-resource credentials/account override (a Pulumi secret). */
  connection?: { apiKey?: string; accountId?: string; baseUrl?: string };
  /** Adopt the existing object with this id (or name, for domains) instead of creating one. */
  adoptId?: string;
  /** Resource identity for idempotency keys, set by the SDK class (the URN). */
  __urn?: string;
  /**
   * The stack's salt for idempotency keys, set by the SDK class (sdk/nodejs/internal/stackSalt.ts). Only
   * create reads it; diff ignores it, so stacks made before it existed are not updated.
   */
  __stackSalt?: string;
  /**
   * The resource option `replaceOnChanges`, passed by the dynamic face's SDK class: the engine applies
   * it only to a detailed diff, which the dynamic-provider host does not send, so diff applies it.
   */
  __replaceOnChanges?: string[];
}

/** State of a resource as the factory stores it: canonical inputs plus the record's outputs. */
export type Props = Record<string, unknown> & CommonInputs;

/** What an API call needs, resolved for one resource. */
export interface Ctx {
  api: Api;
  conn: Connection;
}

/**
 * How txmail-import-plan (native/importPlan/collect.ts) finds a kind's objects: it lists the kind's
 * collection (`collectionPath`), skipping the kind with its first read scope when the key may not.
 */
export type Listing =
  | {
      /** What a person calls a listed object; the plan names its resource after it. */
      title(record: Record<string, unknown>): string;
      /** Whether a listed record still is an object (default: every listed record is). */
      live?(record: Record<string, unknown>, now: number): boolean;
      /**
       * The kind lives under each sub account: the input that names the sub account (its collection
       * path takes it). Listed records belong to that sub account; titles start with its title.
       */
      subAccountInput?: string;
    }
  | {
      /** Why the `count` objects listed cannot be planned: what the plan says instead of planning them. */
      unlisted(count: number): string;
    };

export interface Declaration<I extends Record<string, unknown>> {
  /** Which kind it declares (provider/api/kinds.ts): the last part of its type tokens. */
  kind: Kind;
  /** What the resource is, for people: the package schema's description (Markdown). */
  description?: string;
  /** Zod schema of the resource's own inputs (camelCase); its output is the canonical form. */
  inputs: z.ZodType<I, unknown>;
  /** Inputs the API receives (camelCase names of API fields); others are provider-local. */
  apiFields: readonly (keyof I & string)[];
  /** Inputs compared by diff that are applied by `reconcile` rather than the update body. */
  stateFields?: readonly (keyof I & string)[];
  /**
   * Cross-field rules check applies after the schema (kept out of the schema so fields stay omittable).
   * `olds` are the inputs in state (empty for a resource about to be created).
   */
  validate?(props: Props, olds: Props): { property: string; reason: string }[];
  /** Inputs whose change forces a replacement. */
  replaceOn: readonly (keyof I & string)[];
  /** Delete the old object before creating its replacement (e.g. a name the service keeps unique). */
  deleteBeforeReplace?: (olds: Props, news: Props) => boolean;
  /**
   * Write-only secret inputs (e.g. a DKIM private key): sent at creation, never returned. State keeps
   * only a digest under the same name, which is what diff compares.
   */
  writeOnly?: readonly (keyof I & string)[];
  /**
   * What the service stores for each field of a create (provider/api/createForm.ts: its defaults, and
   * the form it keeps given values in): creates are sent in this one form (operations/createForm.ts).
   * Unset: every field as the program gives it.
   */
  createForm?: {
    readonly defaults: Readonly<Record<string, unknown>>;
    readonly stored?: Readonly<Record<string, (value: never) => unknown>>;
  };
  /** Outputs the service returns only at creation (secrets); kept from prior state on read. */
  createOnly?: Record<string, string>;
  /** The API record schema (get/update responses) and the creation response schema. */
  record: z.ZodType<Record<string, unknown>, unknown>;
  created: z.ZodType<Record<string, unknown>, unknown>;
  /** Paths. `props` are the canonical inputs (plus outputs when known). */
  collectionPath(conn: Connection, props: Props): string;
  itemPath(conn: Connection, props: Props, id: string): string;
  /**
   * Filters for listing the collection (the twin sweep after a retried 5xx): the service requires
   * `?domain=` when a key holds only `{domain}` read scopes for routes.
   */
  listQuery?(props: Props): Record<string, string> | undefined;
  /**
   * Reads one object where the service has no GET by id (members, suppressions): undefined when it
   * does not exist (or no longer counts, e.g. an expired suppression). Default: GET `itemPath`.
   */
  fetch?(ctx: Ctx, props: Props, id: string): Promise<Record<string, unknown> | undefined>;
  /**
   * The service addresses the object by a key that outlives it — a domain's name, a suppression's
   * address, a member's user id — so after it is removed another object (another stack's) can be
   * found in its place. Every read, update, delete and existence decision first checks that the
   * object found is the one state names (operations/fetchRecord.ts `identify`): its id, and these
   * fields; delete and update pay one read for it.
   */
  naturalKey?: NaturalKey;
  /**
   * Every object of the collection, where the service does not page it (members: `GET /members`
   * takes no `limit`). Default: the paged list of `collectionPath` (with `listQuery`).
   */
  listAll?(ctx: Ctx, props: Props): AsyncIterable<Record<string, unknown>>;
  /** For `uniqueName` objects without a GET by name: the existing object the program's inputs name. */
  findExisting?(ctx: Ctx, props: Props): Promise<Record<string, unknown> | undefined>;
  /** API inputs the record does not return (kept from the program; adoption cannot verify them). */
  inputOnly?: readonly (keyof I & string)[];
  /** Said after the service's message when a create is refused with a 409 the provider cannot resolve. */
  conflictHint?(props: Props): string;
  /** Said with a 403 besides the missing scope, when the service refuses an operation for another reason too. */
  forbiddenAlso?: Partial<Record<"read" | "write" | "delete", string>>;
  /** The Pulumi id of a record (its uuid unless said otherwise). */
  idOf?(record: Record<string, unknown>): string;
  /** Scopes that allow each operation, named in 403 errors. */
  scopes: { read: (p: Props) => string[]; write: (p: Props) => string[]; delete: (p: Props) => string[] };
  /** The service keeps this object's name unique (a second create is a 409); `itemPath` finds it by name. */
  uniqueName?: boolean;
  /** The service has no update endpoint: every change replaces. */
  immutable?: boolean;
  /** Extra work after the object exists or changed (e.g. suspend a sub account); returns the record. */
  reconcile?(ctx: Ctx, props: Props, record: Record<string, unknown>, olds?: Props): Promise<Record<string, unknown>>;
  /**
   * Outputs in state that call for `reconcile` again though no input changed, e.g. a record a
   * refresh found gone (DomainVerification): diff reports them as changed.
   */
  unsettled?(state: Props): string[];
  /** Inputs the service reports back differently and must not be compared (besides createOnly). */
  outputsOf?(record: Record<string, unknown>): Record<string, unknown>;
  /**
   * Outputs `outputsOf` makes differently from the record field of the same name (renamed or
   * restructured), declared with their texts: the package schema documents them from here, and its
   * generator fails when one no longer matches what `outputsOf` returns.
   */
  reshapedOutputs?: Record<string, z.ZodType>;
  /**
   * Adjusts an update's body (API field names) before it is sent, from the old state; `state` is
   * kept with the outputs (a field set to undefined is dropped). An empty body sends nothing.
   */
  prepareUpdate?(
    olds: Props,
    news: Props,
    body: Record<string, unknown>,
  ): { body: Record<string, unknown>; state: Props };
  /** How the bulk import plan (txmail-import-plan) finds this kind's objects. */
  listing: Listing;
  /**
   * The capability to rotate on a schedule with an overlap (core/rotating): `input` takes the
   * schedule `{ every, overlap }` (a string there stays the legacy replace trigger, listed in
   * `replaceOn`), and `secret` is the `createOnly` output a sender holds (`carried`: what else it
   * needs of the previous credential, kept as `previous<Name>`). The resource then owns up
   * to two service objects, the current and the previous.
   */
  rotating?: Rotating;
  /** The id `pulumi import` takes for this kind (importId.ts); default: the object's uuid. */
  importId?: ImportIdForm;
}

/** Declaration.rotating. */
export interface Rotating {
  readonly input: string;
  readonly secret: string;
  /** Other outputs a sender needs of the previous credential while it lives (an SMTP user name). */
  readonly carried?: readonly string[];
}

/** How an object addressed by a key that outlives it is told apart from a later one (Declaration.naturalKey). */
export interface NaturalKey {
  /**
   * The inputs the paths take instead of the id (a domain's `domain`). Left out when an object is
   * looked up by its id alone (`adoptId`), so `fetch` finds the object that id names.
   */
  inputs: readonly string[];
  /**
   * Outputs only that one object has (a membership's `createdAt`: the same person re-added keeps
   * the user id), compared with state's when state has them.
   */
  identity?: readonly string[];
  /**
   * The object's name, which names it in place of its id: an `adoptId`, and the id that stacks
   * imported before ids were uuids recorded. Read reports such a state under `idOf`'s id.
   */
  nameOf?(record: Record<string, unknown>): string;
}

/** A declaration of some inputs: what registries and generators hold (they do not need its input type). */
export type AnyDeclaration = Declaration<Record<string, unknown>>;
