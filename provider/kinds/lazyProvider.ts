// The object Pulumi serializes into every resource's state as `__provider`.
//
// It must stay tiny and secret-free: each method captures only the resource kind (a string) and
// loads the real implementation by package name when it runs, inside the provider process. So state
// never holds a copy of the provider code or credentials, and upgrading pulumi-txmail takes effect on
// existing stacks.
//
// Each kind's object is the whole `module.exports` of its own file in this folder (route.ts, …).
// When pulumi-txmail is installed in node_modules, Pulumi's closure serializer recognises a module's
// exports and stores `require("pulumi-txmail/provider/kinds/route")` (~250 bytes) instead of the
// methods' source (~2.3 KB). The engine rewrites the whole checkpoint after every step, so this size,
// stored twice per resource (inputs and outputs), is what `pulumi up` pays for on large stacks
// (bench/RESULTS.md). From a linked checkout (not under node_modules) the serializer copies the
// methods by value, which works the same, only bigger.
import type * as pulumi from "@pulumi/pulumi";
import type * as runtime from "../runtime";

export function lazyProvider(kind: string): pulumi.dynamic.ResourceProvider {
  // Resolved at call time inside the provider process; only `kind` is captured.
  const impl = () => (require("pulumi-txmail/provider/runtime") as typeof runtime).dynamicProvider(kind);
  return {
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
}
