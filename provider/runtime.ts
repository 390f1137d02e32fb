// Entry point of the provider process, loaded by package name from the tiny serialized provider
// objects (sdk/nodejs/internal/dynamicProvider.ts). Holds per-process state: the configuration from the
// engine, one HTTP client per connection, one provider implementation per kind.
import "./compileCache"; // first: the modules below load through Node's compile cache
import { configureConnection } from "./core/connection";
import { exitWithTheEngine } from "./core/engineWatch";
import { makeProvider, type Provider } from "./core/factory";
import { markSecrets, type SecretPath } from "./core/secretMarks";
import type { AnyDeclaration } from "./core/declaration";
import { mapInitFailure } from "./core/initFailure";
import { apiFor } from "./core/clientApi";
import { readForImport, type Imported } from "./core/importRead";
import { rotationSecretOutputs } from "./core/rotating/outputs";
import { delivered, progress } from "./core/progress";
import { onceInDynamicHost } from "./dynamicHost";
import { declarationOf } from "./resources";

const providers = new Map<string, Provider>();
const dynamicProviders = new Map<string, Provider>();

/** Called once per provider process with the stack config (secrets decrypted by the engine). */
export function configure(req: { config: { get(key: string): string | undefined } }): void {
  configureConnection(req.config);
  endWithTheEngine();
}

/**
 * In the dynamic-provider host (@pulumi/pulumi's cmd/dynamic-provider, which this module is loaded
 * into), the process ends with the engine that started it, even when the engine is killed
 * (core/engineWatch.ts). Its arguments are the engine's; its parent is the plugin's wrapper script.
 */
function endWithTheEngine(): void {
  const script = process.argv[1] ?? "";
  if (/[\\/]cmd[\\/]dynamic-provider([\\/]index(\.js)?)?$/.test(script)) exitWithTheEngine(process.argv.slice(2));
}

export function provider(kind: string): Provider {
  let p = providers.get(kind);
  if (!p) {
    const declaration = declarationOf(kind);
    if (!declaration)
      throw new Error(`pulumi-txmail: unknown resource kind '${kind}'; upgrade the pulumi-txmail package.`);
    p = withLinesDelivered(withSecretMarks(makeProvider(declaration, apiFor), secretPathsOf(declaration)));
    providers.set(kind, p);
  }
  return p;
}

/** `provider(kind)` as the dynamic face serves it: each error said once (dynamicHost.ts). */
export function dynamicProvider(kind: string): Provider {
  let p = dynamicProviders.get(kind);
  if (!p) {
    p = onceInDynamicHost(provider(kind));
    dynamicProviders.set(kind, p);
  }
  return p;
}

/** Everything a resource's provider knows to be secret: one-time secrets, write-only inputs, its API key. */
export function secretPathsOf(declaration: AnyDeclaration): SecretPath[] {
  return [
    ...Object.keys(declaration.createOnly ?? {}).map((k) => [k]),
    ...rotationSecretOutputs(declaration).map((k) => [k]),
    ...(declaration.writeOnly ?? []).map((k) => [k]),
    ["connection", "apiKey"],
  ];
}

/**
 * The provider as both faces serve it: each answer, success or failure, waits (bounded) for the
 * lines its operation said to reach the engine (progress.ts `delivered`).
 */
export function withLinesDelivered(p: Provider): Provider {
  const said = <T>(answer: Promise<T>): Promise<T> => answer.finally(() => delivered());
  return {
    check: (olds, news) => said(p.check(olds, news)),
    diff: (id, olds, news) => said(p.diff(id, olds, news)),
    create: (inputs) => said(p.create(inputs)),
    read: (id, props) => said(p.read(id, props)),
    update: (id, olds, news) => said(p.update(id, olds, news)),
    delete: (id, props) => said(p.delete(id, props)),
  };
}

/** The provider as the engine sees it: known secrets leave the process signed as secrets (see secretMarks.ts). */
export function withSecretMarks(p: Provider, paths: readonly SecretPath[]): Provider {
  return {
    check: async (olds, news) => {
      const r = await p.check(olds, news);
      return r.inputs ? { ...r, inputs: markSecrets(r.inputs, paths) } : r;
    },
    diff: (id, olds, news) => p.diff(id, olds, news),
    create: async (inputs) => {
      const r = await p.create(inputs).catch(mapInitFailure((props) => markSecrets(props, paths)));
      return { ...r, outs: markSecrets(r.outs, paths) };
    },
    read: async (id, props) => {
      const r = await p.read(id, props);
      return r.props ? { ...r, props: markSecrets(r.props, paths) } : r;
    },
    update: async (id, olds, news) => {
      const r = await p.update(id, olds, news).catch(mapInitFailure((props) => markSecrets(props, paths)));
      return { ...r, outs: markSecrets(r.outs, paths) };
    },
    delete: (id, props) => p.delete(id, props),
  };
}

/**
 * `pulumi import`'s Read (no prior state) of one object of `kind` by its import id (core/importId.ts):
 * outputs and the inputs a program declares, secrets marked; undefined when there is no such object.
 * Warns under `urn` about the one-time secrets the service never shows again.
 */
export async function importObject(kind: string, importId: string, urn?: string): Promise<Imported | undefined> {
  const declaration = declarationOf(kind);
  if (!declaration)
    throw new Error(`pulumi-txmail: unknown resource kind '${kind}'; upgrade the pulumi-txmail package.`);
  const imported = await readForImport(declaration, provider(kind), importId);
  if (!imported) return undefined;
  for (const warning of imported.warnings) progress(warning, urn, "WARNING");
  const paths = secretPathsOf(declaration);
  return { ...imported, props: markSecrets(imported.props, paths), inputs: markSecrets(imported.inputs, paths) };
}
