#!/usr/bin/env bash
# Generates the reference examples of every language from each page's PCL program,
# docs/examples/<page>/main.pp, with Pulumi's program generators (tools/langhost/cmd/examplegen, built
# with the SDK generator by scripts/build-sdkgen.sh): index.ts, __main__.py and main.go in process,
# Pulumi.yaml by the YAML language host that `bash scripts/setup.sh --with yaml` installs in
# .tools/bin (an absent host is an error). Not Java yet: see tools/langhost/cmd/examplegen/main.go.
# `npm run gen:examples`; `npm run gen:docs` runs it first.
#
#   scripts/gen-examples.sh [OUT]    # writes OUT/<page>/… (OUT defaults to docs/examples: the
#                                    # committed examples)
#
# Deterministic; test/e2e/docs/examplesGenerated.test.ts generates into a temporary OUT and compares.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$root/docs/examples}" && cd "${1:-$root/docs/examples}" && pwd)"
command -v go >/dev/null || { echo "gen-examples.sh: go is not installed (Go >= 1.26 is needed)" >&2; exit 3; }
examplegen="$(dirname "$("$root/scripts/build-sdkgen.sh")")/examplegen"
"$examplegen" -schema "$root/native/schema.json" -examples "$root/docs/examples" -out "$out" \
  -yaml-host "$root/.tools/bin/pulumi-language-yaml"
