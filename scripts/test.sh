#!/usr/bin/env bash
# Sets everything up (idempotent) and runs the whole test suite: unit, conformance (real HTTP to the
# emulator on loopback) and e2e (the real Pulumi engine). Extra arguments go to jest, e.g.
#   bash scripts/test.sh test/unit
# Ends with one plain line "N passed, N failed" (CI counts tests from it) and jest's exit code.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" --with yaml --with sdkgen || exit 1
# shellcheck source=/dev/null
source "$root/.tools/env"
cd "$root"

# ts-jest transpiles files one by one (isolatedModules); type-check the tests as a whole here.
node node_modules/typescript/bin/tsc -p test/tsconfig.json || { echo "0 passed, 1 failed"; exit 1; }

results="$(mktemp -t txmail-jest-XXXXXX.json)"
trap 'rm -f "$results"' EXIT
node node_modules/jest/bin/jest.js --ci --maxWorkers=2 --json --outputFile="$results" "$@"
status=$?
# The closing line (and a non-zero exit if it reports any failure): scripts/jest-summary.js.
node scripts/jest-summary.js "$results" || exit 1
exit $status
