#!/usr/bin/env bash
# Builds the txmail resource provider plugin as users install it:
#
#   bash scripts/build-plugin.sh [out-dir]     # default: dist-plugin/
#   pulumi plugin install resource txmail <version> --file dist-plugin/pulumi-resource-txmail-v<version>-linux-amd64.tar.gz
#
# The tarball holds, at its root: the plugin script `pulumi-resource-txmail` (runs node from PATH on
# dist/native/main.js), package.json, the built dist/, native/schema.json, and the production
# node_modules. Offline: the production packages are copied from this checkout's node_modules (the
# ones package-lock.json does not mark `dev`), not downloaded. The plugin is JavaScript: the
# platform in the name is what `pulumi plugin install` expects; any machine with Node >= 22.19 runs it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root/dist-plugin}" && cd "${1:-$root/dist-plugin}" && pwd)"
say() { printf '[build-plugin] %s\n' "$*" >&2; }

version="$(node -p "require('$root/package.json').version")"
tarball="$out/pulumi-resource-txmail-v$version-linux-amd64.tar.gz"

say "building TypeScript (dist/)"
(cd "$root" && node node_modules/typescript/bin/tsc -p tsconfig.json)
[ -f "$root/native/schema.json" ] || { say "native/schema.json is missing (npm run gen:schema)"; exit 1; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$root/bin/pulumi-resource-txmail" "$stage/pulumi-resource-txmail"
cp "$root/package.json" "$root/package-lock.json" "$stage/"
cp -r "$root/dist" "$stage/dist"
mkdir -p "$stage/native" && cp "$root/native/schema.json" "$stage/native/schema.json"

# Production packages, by the lockfile: every installed top-level package it marks neither dev nor
# devOptional (typescript: an optional peer of @pulumi/pulumi, needed by programs, not by the plugin)
# (a package's own nested node_modules come with it). One tar pipe: fast on large trees.
(cd "$root" && node -e '
  const fs = require("fs");
  const lock = require("./package-lock.json");
  for (const [p, meta] of Object.entries(lock.packages))
    if (/^node_modules\/(@[^/]+\/)?[^/]+$/.test(p) && !meta.dev && !meta.devOptional && !meta.link && fs.existsSync(p)) console.log(p);
') >"$stage/.packages"
tar -C "$root" -cf - -T "$stage/.packages" | tar -C "$stage" -xf -
rm "$stage/.packages"

tar -C "$stage" -czf "$tarball" .
say "wrote $tarball ($(du -h "$tarball" | cut -f1))"
printf '%s\n' "$tarball"
