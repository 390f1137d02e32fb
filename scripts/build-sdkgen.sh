#!/usr/bin/env bash
# Prints the path of the SDK generator (tools/langhost/cmd/sdkgen), building it first when the tools
# cache has none for the current sources: keyed by tools/langhost's go.mod/go.sum and the generators'
# own files, in ${TXMAIL_CACHE_DIR:-~/.cache/pulumi-txmail}/sdkgen-<hash>/bin/sdkgen. The examples'
# generator (tools/langhost/cmd/examplegen) is built with it, beside it: bin/examplegen. The build is
# scripts/build-go-tools.sh's (same flags as the CLI build, so with the CLI built it only compiles
# Pulumi's Go and Python generators and this program: ~10 s warm).
#
#   sdkgen="$(scripts/build-sdkgen.sh)"      # used by scripts/setup.sh --with sdkgen, gen-sdks.sh
#                                            # and gen-examples.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TXMAIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-txmail}"
src="$root/tools/langhost"
hash="$(cd "$src" && cat go.mod go.sum cmd/sdkgen/*.go cmd/examplegen/*.go | sha256sum | cut -c1-16)"
out="$cache/sdkgen-$hash"
bin="$out/bin/sdkgen"
if [ ! -x "$bin" ]; then
  mkdir -p "$cache"
  # Its own lock (scripts/setup.sh holds setup.lock while it calls this).
  exec 8>"$cache/sdkgen.lock"
  flock 8
  if [ ! -x "$bin" ]; then
    started=$(date +%s)
    echo "[sdkgen] building the SDK generator into $out (once per source change)" >&2
    "$root/scripts/build-go-tools.sh" - - "$out" >&2
    echo "[sdkgen] built in $(($(date +%s) - started)) s" >&2
  fi
fi
echo "$bin"
