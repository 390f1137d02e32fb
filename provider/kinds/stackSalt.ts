// The provider object of the StackSalt resource (sdk/nodejs/internal/stackSalt.ts): random bytes made once
// per stack, kept in the stack's own state, that every txmail resource mixes into its idempotency
// keys. Its whole exports are the provider, as for the other kinds (see lazyProvider.ts), so an
// installed package stores it as a short require.
//
// No service call and no configuration: create draws the salt, and nothing ever changes it — diff
// reports no change whatever the inputs, read keeps it as is. A new salt only comes with a new
// resource, that is a new stack (or the first `pulumi up` after upgrading pulumi-txmail).
import type * as pulumi from "@pulumi/pulumi";
import type * as freshSalt from "../core/freshSalt";

const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    // Required inside the method: the serialized provider must not capture a module object.
    const { randomBytes } = require("node:crypto") as typeof import("node:crypto");
    // 128 bits: two stacks never draw the same salt. base64url keeps it at 22 characters.
    const salt = randomBytes(16).toString("base64url");
    // Not saved until the engine says so: creates that use it before then may refuse (freshSalt.ts).
    (require("pulumi-txmail/provider/core/freshSalt") as typeof freshSalt).drewSalt(salt);
    return { id: salt, outs: { salt } };
  },
  async diff() {
    return { changes: false };
  },
  async read(id, props) {
    return { id, props };
  },
};

export = provider;
