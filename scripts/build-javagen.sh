#!/usr/bin/env bash
# Prints the directory holding the Java tools built from tools/javagen (pulumi-java v1.22.0), building
# them first when the tools cache has none for the current sources: keyed by tools/javagen's go.mod,
# go.sum and Go files, in ${TXMAIL_CACHE_DIR:-~/.cache/pulumi-txmail}/javagen-<hash>/bin/:
#   javagen                the Java SDK generator (tools/javagen; scripts/gen-sdks.sh writes sdk/java)
#   pulumi-language-java   pulumi-java's Java language host (cmd/pulumi-language-java), stamped with
#                          pulumi-java's version, as its release builds are
#
#   bin="$(scripts/build-javagen.sh)"      # used by scripts/setup.sh --with java and gen-sdks.sh
#
# One `go build` for both (they share nearly all packages). tools/javagen is its own module because
# pulumi-java requires pkg/v3 and sdk/v3 v3.228.0, older than the CLI's (tools/langhost/go.mod), so
# little of the CLI's Go build cache is reused: ~1 min on 2 cores with an empty Go build cache (56 s
# measured, modules already downloaded); nothing once cached.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TXMAIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-txmail}"
src="$root/tools/javagen"
hash="$(cd "$src" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)"
out="$cache/javagen-$hash/bin"
if [ ! -x "$out/javagen" ] || [ ! -x "$out/pulumi-language-java" ]; then
  command -v go >/dev/null || {
    echo "build-javagen.sh: go is not installed; install Go >= 1.25 to build the Java SDK generator and language host" >&2
    exit 3
  }
  mkdir -p "$cache"
  # Its own lock (scripts/setup.sh holds setup.lock while it calls this).
  exec 8>"$cache/javagen.lock"
  flock 8
  if [ ! -x "$out/javagen" ] || [ ! -x "$out/pulumi-language-java" ]; then
    started=$(date +%s)
    echo "[javagen] building the Java SDK generator and language host into $out (once per source change)" >&2
    java_version="$(cd "$src" && go list -m -f '{{.Version}}' github.com/pulumi/pulumi-java/pkg)"
    staging="$(mktemp -d)"
    trap 'rm -rf "$staging"' EXIT
    # The CLI's release flags (scripts/build-go-tools.sh), so shared packages come from Go's build cache.
    (cd "$src" && GOFLAGS=-mod=readonly go build -trimpath -tags osusergo,grpcnotrace -gcflags=all=-dwarf=false \
      -ldflags "-s -w -X github.com/pulumi/pulumi-java/pkg/version.Version=$java_version" \
      -o "$staging/" . github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java) >&2
    mkdir -p "$out"
    mv -f "$staging/pulumi-language-java" "$out/pulumi-language-java"
    mv -f "$staging/javagen" "$out/javagen"
    echo "[javagen] built in $(($(date +%s) - started)) s (pulumi-java $java_version)" >&2
  fi
fi
echo "$out"
