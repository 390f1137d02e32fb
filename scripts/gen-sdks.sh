#!/usr/bin/env bash
# Generates the Go and Python SDKs from native/schema.json with Pulumi's own code generators
# (tools/langhost/cmd/sdkgen, built on first use by scripts/build-sdkgen.sh), then `go mod tidy`s the
# Go module; and the Java SDK with pulumi-java's generator (tools/javagen, built on first use by
# scripts/build-javagen.sh). `npm run gen:sdks` regenerates the schema first and then runs this.
#
#   scripts/gen-sdks.sh [OUT]    # writes OUT/sdk/go/{go.mod,go.sum,txmail/…}, OUT/sdk/python/… and
#                                # OUT/sdk/java/{pom.xml,src/…} (OUT defaults to the repository:
#                                # the committed SDKs)
#
# sdk/go/txmail, sdk/python and sdk/java are replaced wholesale; never edit them by hand. The output is
# deterministic; test/e2e/sdks/generated.test.ts generates into a temporary OUT and compares.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root}" && cd "${1:-$root}" && pwd)"
command -v go >/dev/null || { echo "gen-sdks.sh: go is not installed (Go >= 1.26 is needed)" >&2; exit 3; }
sdkgen="$("$root/scripts/build-sdkgen.sh")"
javagen="$("$root/scripts/build-javagen.sh")/javagen"

GOMODCACHE="$(go env GOMODCACHE)" "$sdkgen" -schema "$root/native/schema.json" -out "$out"
# go.sum: seeded from the committed one when generating elsewhere, so tidy needs no checksum look-ups
# for modules it already lists (tidy's result depends on go.mod's requirements, not on the copied go.sum).
if [ "$out" != "$root" ] && [ -f "$root/sdk/go/go.sum" ] && [ ! -f "$out/sdk/go/go.sum" ]; then
  cp "$root/sdk/go/go.sum" "$out/sdk/go/go.sum"
fi
(cd "$out/sdk/go" && GOFLAGS=-mod=mod go mod tidy)
# The generator's warnings (stdout) go to stderr with the rest of the log.
"$javagen" -schema "$root/native/schema.json" -out "$out" >&2
echo "wrote ${out%/}/sdk/go, ${out%/}/sdk/python and ${out%/}/sdk/java" >&2
