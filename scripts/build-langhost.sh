#!/usr/bin/env bash
# Builds our Node.js language host (tools/langhost) into OUTDIR/bin/pulumi-language-nodejs.
#
# Why: the official pulumi-language-nodejs module is not served by the Go module proxy we can reach,
# and the engine cannot run Node programs or Node policy packs without a language plugin. Put
# OUTDIR/bin on PATH (or next to the pulumi binary). See tools/langhost/README.md.
set -euo pipefail
out="${1:?usage: build-langhost.sh OUTDIR}"
command -v go >/dev/null || {
  echo "build-langhost.sh: go is not installed; install Go >= 1.25 (or use an official Pulumi CLI install, which ships pulumi-language-nodejs)" >&2
  exit 3
}

src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/langhost" && pwd)"
mkdir -p "$out/bin"
out="$(cd "$out" && pwd)"

# A semver string (the engine parses it): the SDK release we build against, plus our commit.
rev="$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
version="${LANGHOST_VERSION:-3.259.0+txmail.$rev}"

cd "$src"
# -mod=readonly: go.mod/go.sum are committed and must already be complete; never rewrite them here.
GOFLAGS=-mod=readonly go build -trimpath -ldflags "-s -w -X main.version=$version" \
  -o "$out/bin/pulumi-language-nodejs" .
echo "built $out/bin/pulumi-language-nodejs ($version)"
