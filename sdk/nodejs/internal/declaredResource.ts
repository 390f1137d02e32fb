// The base of the SDK's resource classes: registers what the kind's declaration says (its inputs,
// the outputs the class exposes, its one-time secrets as secret outputs; see declared.ts).
import type * as pulumi from "@pulumi/pulumi";
import { type Registration, registeredProps } from "./declared";
import type { Kind } from "../../../provider/api/kinds";
import { TxmailResource } from "./txmailResource";

export abstract class DeclaredResource extends TxmailResource {
  protected constructor(
    kind: Kind,
    registration: Registration,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    super(kind, name, args, registeredProps(registration, args, registration.outputs), opts, [
      ...registration.secretOutputs,
    ]);
  }
}
