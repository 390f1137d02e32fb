// Entry point of the provider process, loaded by package name from the tiny serialized provider
// objects (sdk/internal/dynamicProvider.ts). Holds per-process state: the configuration from the
// engine, one HTTP client per connection, one provider implementation per kind.
import { configureConnection } from "./core/connection";
import { makeProvider, type Provider } from "./core/factory";
import { apiFor } from "./core/clientApi";
import { specs } from "./resources";

const providers = new Map<string, Provider>();

/** Called once per provider process with the stack config (secrets decrypted by the engine). */
export function configure(req: { config: { get(key: string): string | undefined } }): void {
  configureConnection(req.config);
}

export function provider(kind: string): Provider {
  let p = providers.get(kind);
  if (!p) {
    const spec = specs[kind];
    if (!spec) throw new Error(`pulumi-txmail: unknown resource kind '${kind}'; upgrade the pulumi-txmail package.`);
    p = makeProvider(spec, apiFor);
    providers.set(kind, p);
  }
  return p;
}
