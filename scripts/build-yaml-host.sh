#!/usr/bin/env bash
# Builds the Pulumi YAML language host (pulumi-language-yaml) from the Go module proxy into $3/bin:
# github.com/pulumi/pulumi-yaml at version $1 (e.g. 1.38.3), linked against pkg/v3 and sdk/v3 at the
# CLI's version $2 (e.g. 3.274.1), so host and engine share one SDK.
#
# Why a wrapper module: pulumi-yaml requires an older pkg/v3 and sdk/v3, and those go.mod files carry
# `replace` directives (a relative one for sdk/v3, a fork of atotto/clipboard, a pinned x/text) that
# only apply in the main module. We read the non-relative replace lines from the downloaded go.mod
# files (never guess them) and repeat them in a throwaway main module. ~50 s after the CLI's build
# (most packages come from Go's build cache).
set -euo pipefail
yaml_ver="${1:?usage: build-yaml-host.sh YAML_VERSION PULUMI_VERSION OUTDIR}"
pulumi_ver="${2:?usage: build-yaml-host.sh YAML_VERSION PULUMI_VERSION OUTDIR}"
out="${3:?usage: build-yaml-host.sh YAML_VERSION PULUMI_VERSION OUTDIR}"
command -v go >/dev/null || {
  echo "build-yaml-host.sh: go is not installed; install Go >= 1.25 (or an official Pulumi CLI $pulumi_ver, which ships pulumi-language-yaml)" >&2
  exit 3
}

work="$out/build"
rm -rf "$work" && mkdir -p "$work" "$out/bin"
out="$(cd "$out" && pwd)"
work="$out/build"
cd "$work"

gomod_of() { go mod download -json "$1" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p'; }
yaml_mod=$(gomod_of "github.com/pulumi/pulumi-yaml@v$yaml_ver")
pkg_mod=$(gomod_of "github.com/pulumi/pulumi/pkg/v3@v$pulumi_ver")
sdk_mod=$(gomod_of "github.com/pulumi/pulumi/sdk/v3@v$pulumi_ver")
for f in "$yaml_mod" "$pkg_mod" "$sdk_mod"; do
  [ -f "$f" ] || { echo "build-yaml-host.sh: could not download a go.mod from the Go module proxy" >&2; exit 4; }
done
go_line=$(grep -m1 '^go ' "$pkg_mod")

# Replace lines of a go.mod, single-line and block forms, relative targets (../sdk) dropped: the
# wrapper requires the real release instead.
replaces_of() {
  awk '/^replace \(/{b=1;next} b&&/^\)/{b=0;next} b{print "replace " $0; next} /^replace /{print}' "$1" \
    | sed 's/^replace[[:space:]]*/replace /' | grep -v '=> \.' || true
}

{
  echo "module txmail.local/pulumi-yaml-host-build"
  echo
  echo "$go_line"
  echo
  echo "require ("
  echo "	github.com/pulumi/pulumi-yaml v$yaml_ver"
  echo "	github.com/pulumi/pulumi/pkg/v3 v$pulumi_ver"
  echo "	github.com/pulumi/pulumi/sdk/v3 v$pulumi_ver"
  echo ")"
  echo
  cat <(replaces_of "$yaml_mod") <(replaces_of "$pkg_mod") <(replaces_of "$sdk_mod") | sort -u
} >go.mod

echo "wrapper go.mod:" >&2
cat go.mod >&2
cat >tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
GO
GOFLAGS=-mod=mod go mod tidy >&2
# The CLI's build flags (scripts/build-go-tools.sh): the packages both share come from Go's build cache.
go build -trimpath -tags osusergo,grpcnotrace -gcflags=all=-dwarf=false \
  -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$yaml_ver" \
  -o "$out/bin/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
rm -rf "$work"
echo "built $out/bin/pulumi-language-yaml (pulumi-yaml v$yaml_ver, Pulumi SDK v$pulumi_ver)" >&2
