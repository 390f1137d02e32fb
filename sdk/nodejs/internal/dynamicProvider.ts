// The provider object each resource class passes to pulumi.dynamic.Resource: one module per kind
// (provider/kinds/<kind>.ts, whose whole exports it is), so that an installed package serializes as
// a short `require(...)` (see provider/kinds/lazyProvider.ts). Found by the kind's name: a kind of
// the list (provider/api/kinds.ts) needs only its module there.
import type * as pulumi from "@pulumi/pulumi";
import type { Kind } from "../../../provider/api/kinds";

/** The module of a kind's provider object, relative to this file: `SmtpCredential` → provider/kinds/smtpCredential. */
export const kindModule = (kind: Kind) => `../../../provider/kinds/${kind[0]!.toLowerCase()}${kind.slice(1)}`;

export function dynamicProvider(kind: Kind): pulumi.dynamic.ResourceProvider {
  // Node's module cache makes this one object per kind, the module's exports.
  return require(kindModule(kind)) as pulumi.dynamic.ResourceProvider;
}
