// The native provider `txmail`: the engine's resource-provider calls, in plain JavaScript values,
// mapped onto the same generic provider the dynamic face uses (provider/runtime.ts → provider/core):
// one implementation of CRUD, idempotency keys, secrets, retries, twin cleanup and adoption.
//
// What the native face adds, and only that:
// - identity: the engine names the resource (its URN) in every call; it stands in for `__urn` when
//   the program passed none (YAML and other languages cannot);
// - secrets arrive and leave in the wire's signed form: inputs are unwrapped for the generic
//   provider, and what arrived secret is marked secret again on the way out, besides every path the
//   dynamic face marks (runtime.secretPathsOf);
// - provider configuration (CheckConfig, DiffConfig, Configure) instead of the stack config the
//   dynamic provider's `configure` receives;
// - a Read without properties (`pulumi import`) answers with the inputs a program would declare;
// - the stack's salt for idempotency keys is kept by the provider resource itself (below), so
//   programs in any language get it without the SDK's StackSalt resource.
import { randomBytes } from "node:crypto";
import { accountOf, configProblems, configureConnection } from "../provider/core/connection";
import { drewSalt } from "../provider/core/freshSalt";
import { PINNED_SALT_CONFIG, pinIgnored } from "../provider/core/pinnedSalt";
import { mapInitFailure } from "../provider/core/initFailure";
import { progress } from "../provider/core/progress";
import { markSecrets, type SecretPath } from "../provider/core/secretMarks";
import type { Props } from "../provider/core/declaration";
import { provider as genericProvider, importObject, secretPathsOf } from "../provider/runtime";
import { declarationOf } from "../provider/resources";
import { kindOfUrn, unwrapSecrets } from "./wire";

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  diffs: string[];
  deleteBeforeReplace: boolean;
}

/** The provider settings, as the schema's config variables name them. */
const SETTINGS = ["apiKey", "accountId", "baseUrl"] as const;
/** The pinned salt's setting (`txmail:stackSalt`), no longer used (provider/core/pinnedSalt.ts). */
const PINNED = PINNED_SALT_CONFIG.split(":")[1]!;

/** A provider configuration as connection.ts reads stack config: `txmail:<setting>`. */
function configSource(settings: Record<string, unknown>) {
  return {
    get: (key: string) => {
      const v = settings[key.replace(/^txmail:/, "")];
      return typeof v === "string" ? v : undefined;
    },
  };
}

/** The declaration and the generic provider of the resource a URN names. */
function kindOf(urn: string) {
  const kind = kindOfUrn(urn);
  const declaration = declarationOf(kind);
  if (!declaration) throw new Error(`txmail: unknown resource type 'txmail:index:${kind}'; upgrade the txmail plugin.`);
  return { declaration, impl: genericProvider(kind) };
}

/**
 * The salt of this provider's stack (see sdk/nodejs/internal/stackSalt.ts for why a URN alone is not
 * enough): the one kept in the provider's inputs in the stack's state, else drawn by CheckConfig the
 * first time the provider resource is checked. The engine records a provider before any resource it
 * serves, so a crashed run's rerun derives the same keys. Never from configuration, which travels
 * through git (provider/core/pinnedSalt.ts). A plugin upgrade renames the default provider, which then
 * draws a new salt: a create interrupted before the upgrade is not recognised after it
 * (docs/guide/behaviour.md#the-stack-salt; DiffConfig below says so). Applied by Configure.
 */
let providerSalt: string | undefined;

/**
 * Props with the engine's URN as the resource identity and the provider's stack salt, unless the
 * program gave its own (the TypeScript SDK may pass both).
 */
const withIdentity = (props: Props, urn: string): Props => ({
  ...props,
  __urn: props.__urn ?? urn,
  ...(props.__stackSalt === undefined && providerSalt !== undefined ? { __stackSalt: providerSalt } : {}),
});

/** Outputs with everything that arrived secret marked secret again. */
const remark = <T extends Record<string, unknown>>(props: T, ...paths: SecretPath[][]): T =>
  markSecrets(props, paths.flat());

/** A new salt for this provider's stack, not saved until the engine records the provider (freshSalt.ts). */
function drawSalt(): string {
  const salt = randomBytes(16).toString("hex");
  drewSalt(salt);
  return salt;
}

/** Said once per process: a pinned salt, and a provider change that brought a new salt. */
const said = new Set<string>();
function sayOnce(message: string): void {
  if (said.has(message)) return;
  said.add(message);
  progress(message, undefined, "WARNING");
}

export function checkConfig(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const { plain } = unwrapSecrets(news);
  const failures: CheckFailure[] = configProblems(configSource(plain)).map(({ field, problem }) => ({
    property: field,
    reason: problem,
  }));
  if (typeof plain[PINNED] === "string" && plain[PINNED] !== "") sayOnce(pinIgnored());
  const salt = olds.__stackSalt ?? news.__stackSalt ?? drawSalt();
  // The API key is a secret in the provider's state however it was set (also without --secret).
  return { inputs: markSecrets({ ...news, __stackSalt: salt }, [["apiKey"]]), failures };
}

/**
 * A provider's settings changed. A different account means different objects: its resources are
 * replaced, as the dynamic face replaces a resource whose `connection` changes account. A new key
 * or base URL for the same account is an update of the provider, not of its resources.
 */
export function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>): DiffAnswer {
  const o = unwrapSecrets(olds).plain;
  const n = unwrapSecrets(news).plain;
  if (typeof o.__stackSalt === "string" && typeof n.__stackSalt === "string" && o.__stackSalt !== n.__stackSalt) {
    // Another provider's inputs: the engine asks the new provider of a resource whose provider
    // changed — every resource, after a plugin upgrade renamed the default provider.
    sayOnce(
      "this stack's txmail provider changed (a plugin upgrade renames the default provider), and the new one keeps " +
        "a salt of its own for new idempotency keys: a create interrupted before the change is not recognised, and " +
        "its object, if the service committed it, is left alone and unmanaged. `npx txmail-import-plan` lists the " +
        "account's objects, ready for `pulumi import` (docs/guide/behaviour.md#the-stack-salt).",
    );
  }
  const diffs = SETTINGS.filter((k) => (o[k] ?? "") !== (n[k] ?? ""));
  const oldAccount = accountOf({ accountId: o.accountId as string | undefined });
  const newAccount = accountOf({ accountId: n.accountId as string | undefined });
  const replaces = oldAccount !== newAccount ? ["accountId"] : [];
  return { changes: diffs.length > 0, diffs, replaces, deleteBeforeReplace: false };
}

/** Applies the provider's settings (`args`, else the engine's `txmail:config:<key>` variables). */
export function configure(args: Record<string, unknown> | undefined, variables: Map<string, string>): void {
  const settings: Record<string, unknown> = {};
  const plainArgs = unwrapSecrets(args).plain;
  for (const key of SETTINGS) {
    settings[key] = plainArgs[key] ?? variables.get(`txmail:config:${key}`) ?? variables.get(`txmail:${key}`);
  }
  configureConnection(configSource(settings));
  const salt = plainArgs.__stackSalt ?? variables.get("txmail:config:__stackSalt");
  providerSalt = typeof salt === "string" && salt !== "" ? salt : undefined;
}

export async function check(
  urn: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<{ inputs?: Record<string, unknown>; failures: CheckFailure[] }> {
  const { impl } = kindOf(urn);
  const n = unwrapSecrets(news);
  const r = await impl.check(withIdentity(unwrapSecrets(olds).plain, urn), withIdentity(n.plain, urn));
  if (r.failures?.length) return { failures: r.failures };
  // Neither the URN nor the provider's salt is stored as an input unless the program passed it:
  // the engine hands the URN over with every call, and the salt lives with the provider.
  const { __urn, __stackSalt, ...inputs } = r.inputs ?? {};
  const own = {
    ...inputs,
    ...(news.__urn === undefined ? {} : { __urn }),
    ...(news.__stackSalt === undefined ? {} : { __stackSalt }),
  };
  return { inputs: remark(own, n.secretPaths), failures: [] };
}

export async function diff(
  id: string,
  urn: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<DiffAnswer> {
  const { impl } = kindOf(urn);
  const r = await impl.diff(id, unwrapSecrets(olds).plain, withIdentity(unwrapSecrets(news).plain, urn));
  return {
    changes: r.changes,
    replaces: r.replaces ?? [],
    diffs: r.diffs ?? r.replaces ?? [],
    deleteBeforeReplace: r.deleteBeforeReplace ?? false,
  };
}

export async function create(urn: string, props: Record<string, unknown>) {
  const { impl } = kindOf(urn);
  const p = unwrapSecrets(props);
  const r = await impl
    .create(withIdentity(p.plain, urn))
    .catch(mapInitFailure((props) => remark(props, p.secretPaths)));
  return { id: r.id, outs: remark(r.outs, p.secretPaths) };
}

/**
 * Refresh (with the state's properties) or import (without any): the object by id, through the
 * provider's connection unless the state names its own. Returns the inputs too (on refresh the
 * state's own), so an import records what a program would declare and the next `pulumi up` is a no-op.
 */
export async function read(
  id: string,
  urn: string,
  props: Record<string, unknown> | undefined,
  inputs: Record<string, unknown> | undefined,
): Promise<{ id: string; props?: Record<string, unknown>; inputs?: Record<string, unknown> }> {
  const { declaration, impl } = kindOf(urn);
  if (props === undefined || Object.keys(props).length === 0) {
    // `pulumi import` (or the `import` option): no state yet, the id as the user typed it
    // (provider/core/importId.ts), and the inputs a program declares (provider/core/importRead.ts).
    const imported = await importObject(declaration.kind, id, urn);
    return imported ? { id: imported.id, props: imported.props, inputs: imported.inputs } : { id: "" };
  }
  const p = unwrapSecrets(props);
  const i = unwrapSecrets(inputs);
  const r = await impl.read(id, p.plain);
  if (!r.id || !r.props) return { id: "" };
  const outs = remark(r.props, p.secretPaths);
  return { id: r.id, props: outs, inputs: markSecrets(i.plain, [...secretPathsOf(declaration), ...i.secretPaths]) };
}

export async function update(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const { impl } = kindOf(urn);
  const o = unwrapSecrets(olds);
  const n = unwrapSecrets(news);
  const r = await impl
    .update(id, o.plain, withIdentity(n.plain, urn))
    .catch(mapInitFailure((props) => remark(props, o.secretPaths, n.secretPaths)));
  return { outs: remark(r.outs, o.secretPaths, n.secretPaths) };
}

export async function remove(id: string, urn: string, props: Record<string, unknown>): Promise<void> {
  const { impl } = kindOf(urn);
  await impl.delete(id, withIdentity(unwrapSecrets(props).plain, urn));
}
