// The engine's entry point for this pack (package.json "main"). The language host runs
// @pulumi/pulumi's run-policy-pack in this directory, which registers ts-node and require()s it.
// - In a checkout, run the TypeScript sources: ts-node compiles index.ts and what it imports.
// - Installed as a dependency (node_modules/pulumi-txmail/policy), neither ts-node nor TypeScript
//   compiles files under node_modules, so run the compiled pack the package ships in dist/policy.
"use strict";
const path = require("node:path");

const installed = __dirname.split(path.sep).includes("node_modules");
module.exports = installed ? require("../dist/policy/index.js") : require("./index.ts");
