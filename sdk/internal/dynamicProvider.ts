// The object Pulumi serializes into every resource's state as `__provider`.
//
// It must stay tiny and secret-free: each method captures only the resource kind (a string) and
// loads the real implementation by package name when it runs. So state never holds a copy of the
// provider code or credentials, and upgrading pulumi-txmail takes effect on existing stacks.
// One object per kind, so the engine's serialization cache is hit for every resource of a kind.
import type * as pulumi from "@pulumi/pulumi";
import type * as runtime from "../../provider/runtime";

const cache = new Map<string, pulumi.dynamic.ResourceProvider>();

export function dynamicProvider(kind: string): pulumi.dynamic.ResourceProvider {
  let provider = cache.get(kind);
  if (!provider) {
    // Resolved at call time inside the provider process; only `kind` is captured.
    const impl = () => (require("pulumi-txmail/provider/runtime") as typeof runtime).provider(kind);
    provider = {
      async configure(req) {
        (require("pulumi-txmail/provider/runtime") as typeof runtime).configure(req);
      },
      check: (olds, news) => impl().check(olds, news),
      diff: (id, olds, news) => impl().diff(id, olds, news),
      create: (inputs) => impl().create(inputs),
      read: (id, props) => impl().read(id, props),
      update: (id, olds, news) => impl().update(id, olds, news),
      delete: (id, props) => impl().delete(id, props),
    };
    cache.set(kind, provider);
  }
  return provider;
}
