// Bundles the built native provider (dist/native/main.js) and everything it loads into one
// JavaScript file for a single executable (scripts/build-plugin.sh):
//
//   node scripts/plugin/bundle.js <out.js>
//
// - The schema and the package version go in as TXMAIL_EMBEDDED (provider/core/bundled.ts): a
//   single executable has no package directory to read them from.
// - @pulumi/pulumi's own dependencies (grpc-js, google-protobuf: provider/core/pulumiModules.ts)
//   are resolved from @pulumi/pulumi's directory, as the plugin resolves them when run from files.
// - `typescript` (~9 MB, which @pulumi/pulumi loads only to serialize a dynamic provider's
//   closures, never done by this plugin) is replaced by a module that says so if anything uses it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..", "..");
const out = process.argv[2];
if (!out) {
  process.stderr.write("usage: node scripts/plugin/bundle.js <out.js>\n");
  process.exit(2);
}
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const schema = fs.readFileSync(path.join(root, "native", "schema.json"), "utf8");
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [root] }));

const PULUMI_DEPS = /^(@grpc\/grpc-js|google-protobuf)(\/|$)/;
const resolveFromPulumi = {
  name: "resolve-from-pulumi",
  setup(build) {
    build.onResolve({ filter: PULUMI_DEPS }, (args) => ({
      path: require.resolve(args.path, { paths: [pulumiDir] }),
    }));
  },
};
const withoutTypescript = {
  name: "without-typescript",
  setup(build) {
    build.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "txmail-stub" }));
    build.onLoad({ filter: /.*/, namespace: "txmail-stub" }, () => ({
      contents:
        'module.exports = new Proxy({}, { get(_t, key) { throw new Error("pulumi-resource-txmail: typescript." + String(key) + " is not part of the plugin binary"); } });',
      loader: "js",
    }));
  },
};

esbuild
  .build({
    entryPoints: [path.join(root, "dist", "native", "main.js")],
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    outfile: out,
    define: { TXMAIL_EMBEDDED: JSON.stringify({ version: pkg.version, schema }) },
    plugins: [resolveFromPulumi, withoutTypescript],
    // Reached only when run from files (pulumiModules.ts) or by npm tooling the plugin never runs.
    external: ["@pulumi/pulumi/package.json", "node-gyp/bin/node-gyp.js"],
    logLevel: "warning",
    legalComments: "none",
  })
  .then(
    () => process.stdout.write(`${out}\n`),
    () => process.exit(1),
  );
