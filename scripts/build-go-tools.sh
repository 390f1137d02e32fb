#!/usr/bin/env bash
# Builds the project's Go programs from tools/langhost's module, in one `go build`:
#   pulumi                  the Pulumi CLI (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) at the version
#                           tools/langhost/go.mod requires, stamped like a release build
#   pulumi-language-nodejs  our Node.js language host (tools/langhost)
#   sdkgen, examplegen      optional: the Go and Python SDK generator (tools/langhost/cmd/sdkgen;
#                           scripts/build-sdkgen.sh, scripts/gen-sdks.sh) and the examples' program
#                           generator (tools/langhost/cmd/examplegen; scripts/gen-examples.sh), both
#                           into SDKGEN_OUTDIR
#
#   build-go-tools.sh CLI_OUTDIR|- HOST_OUTDIR|- [SDKGEN_OUTDIR|-]     # "-" skips that program
#
# Why one module and one build: tools/langhost/go.mod pins the CLI's whole dependency graph (its
# tools.go imports the CLI's main package), so the CLI is built from committed, checksummed versions
# (-mod=readonly) and the packages both programs share — nearly all of the host's — compile once.
# Cold on 2 cores: ~5 min (Go module downloads included); the host alone, with a warm Go build cache,
# a few seconds.
set -euo pipefail
cli_out="${1:?usage: build-go-tools.sh CLI_OUTDIR|- HOST_OUTDIR|-}"
host_out="${2:?usage: build-go-tools.sh CLI_OUTDIR|- HOST_OUTDIR|-}"
sdkgen_out="${3:--}"
command -v go >/dev/null || {
  echo "build-go-tools.sh: go is not installed; install Go >= 1.26 (or an official Pulumi CLI, which ships pulumi and pulumi-language-nodejs)" >&2
  exit 3
}
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/langhost" && pwd)"
cli_version="$(cd "$src" && go list -m -f '{{.Version}}' github.com/pulumi/pulumi/pkg/v3)"
cli_version="${cli_version#v}"
rev="$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
# A semver string (the engine parses it): the SDK release the host is built against, plus our commit.
host_version="${LANGHOST_VERSION:-$cli_version+txmail.$rev}"

packages=()
[ "$cli_out" != "-" ] && packages+=(github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
[ "$host_out" != "-" ] && packages+=(.)
[ "$sdkgen_out" != "-" ] && packages+=(./cmd/sdkgen ./cmd/examplegen)
[ "${#packages[@]}" -gt 0 ] || exit 0

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
cd "$src"
# Release flags for all (one build configuration, so the shared packages are compiled once).
# -dwarf=false: the binaries are stripped (-w) anyway, and not generating the debug info they would
# lose saves ~13 % of a cold build (4m35s vs 5m18s on 2 cores). scripts/build-yaml-host.sh uses the
# same flags, so it finds the packages it shares with the CLI in Go's build cache.
GOFLAGS=-mod=readonly go build -trimpath -tags osusergo,grpcnotrace -gcflags=all=-dwarf=false \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$cli_version -X main.version=$host_version" \
  -o "$staging/" "${packages[@]}"
if [ "$cli_out" != "-" ]; then
  mkdir -p "$cli_out/bin" && mv -f "$staging/pulumi" "$cli_out/bin/pulumi"
  "$cli_out/bin/pulumi" version >/dev/null
  echo "built $cli_out/bin/pulumi (v$cli_version)" >&2
fi
if [ "$host_out" != "-" ]; then
  mkdir -p "$host_out/bin" && mv -f "$staging/langhost" "$host_out/bin/pulumi-language-nodejs"
  echo "built $host_out/bin/pulumi-language-nodejs ($host_version)" >&2
fi
if [ "$sdkgen_out" != "-" ]; then
  mkdir -p "$sdkgen_out/bin" && mv -f "$staging/sdkgen" "$staging/examplegen" "$sdkgen_out/bin/"
  echo "built $sdkgen_out/bin/sdkgen and $sdkgen_out/bin/examplegen" >&2
fi
