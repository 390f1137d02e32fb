#!/usr/bin/env bash
# Builds the Pulumi CLI from the Go module proxy at exactly version $1 (e.g. 3.259.0) into $2/bin.
#
# Why a wrapper module: pkg/v3's go.mod carries `replace` directives (a relative one for sdk/v3 and a
# fork of atotto/clipboard). Replace lines only apply in the main module, so `go install pkg/v3/...@v`
# refuses to build. We read the non-relative replace lines from the downloaded go.mod (never guess them)
# and repeat them in a throwaway main module that requires pkg/v3 and sdk/v3 at the same release.
set -euo pipefail
ver="${1:?usage: build-pulumi-cli.sh VERSION OUTDIR}"
out="${2:?usage: build-pulumi-cli.sh VERSION OUTDIR}"
command -v go >/dev/null || { echo "go is not installed; install the Pulumi CLI $ver (https://www.pulumi.com/docs/install/) or Go" >&2; exit 3; }

work="$out/build"
rm -rf "$work" && mkdir -p "$work" "$out/bin"
cd "$work"

gomod_of() { go mod download -json "$1@v$ver" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p'; }
pkg_mod=$(gomod_of github.com/pulumi/pulumi/pkg/v3)
[ -f "$pkg_mod" ] || { echo "could not download github.com/pulumi/pulumi/pkg/v3@v$ver from the Go module proxy" >&2; exit 4; }
go_line=$(grep -m1 '^go ' "$pkg_mod")

{
  echo "module txmail.local/pulumi-cli-build"
  echo
  echo "$go_line"
  echo
  echo "require ("
  echo "	github.com/pulumi/pulumi/pkg/v3 v$ver"
  echo "	github.com/pulumi/pulumi/sdk/v3 v$ver"
  echo ")"
  echo
  # Single-line and block forms; relative targets (../sdk) are replaced by the real release above.
  awk '/^replace \(/{b=1;next} b&&/^\)/{b=0;next} b{print "replace " $0; next} /^replace /{print}' "$pkg_mod" \
    | sed 's/^replace[[:space:]]*/replace /' | grep -v '=> \.' || true
} > go.mod

echo "wrapper go.mod:" >&2; cat go.mod >&2
cat > tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO
GOFLAGS=-mod=mod go mod tidy >&2
go build -trimpath -tags osusergo,grpcnotrace \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$ver" \
  -o "$out/bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
"$out/bin/pulumi" version
