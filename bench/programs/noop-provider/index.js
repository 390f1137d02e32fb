// A dynamic provider that does nothing, as this module's whole exports. Installed under node_modules,
// Pulumi's closure serializer stores it as `require("txmail-bench-noop")` — the same trick
// pulumi-txmail's provider/kinds/* use — so the floor pays no more for its provider in state than
// the real program does.
"use strict";
module.exports = {
  async create(inputs) {
    return { id: `${inputs.name}-${Date.now()}`, outs: inputs };
  },
  async diff() {
    return { changes: false };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};
