#!/usr/bin/env bash
# Sets everything up (idempotent) and runs the whole test suite: unit, conformance (real HTTP to the
# emulator on loopback) and e2e (the real Pulumi engine), and the static checks (scripts/check.sh).
# Extra arguments go to jest and skip the static checks, e.g.
#   bash scripts/test.sh test/unit
# Ends with one plain line "N passed, N failed" (CI counts tests from it) and jest's exit code.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" --with yaml --with sdkgen --with browser || exit 1
# shellcheck source=/dev/null
source "$root/.tools/env"
cd "$root"

results="$(mktemp -t txmail-jest-XXXXXX.json)"
checks="$(mktemp -t txmail-checks-XXXXXX.log)"
trap 'rm -f "$results" "$checks"' EXIT
# The static checks (formatter, linter, type-check of sources and tests, Go's gofmt/vet/test) run
# beside jest — they need ~1 min of mostly one core, which the e2e suites' waits leave free — and
# count as tests in the closing line. With jest arguments (a partial run) they are skipped.
checks_pid=""
if [ $# -eq 0 ]; then
  bash scripts/check.sh >"$checks" 2>&1 &
  checks_pid=$!
fi
node node_modules/jest/bin/jest.js --ci --maxWorkers="${TXMAIL_TEST_WORKERS:-2}" --json --outputFile="$results" "$@"
status=$?
if [ -n "$checks_pid" ]; then
  wait "$checks_pid" || status=1
  cat "$checks"
fi
# TXMAIL_TEST_WORKERS sets jest's workers (2 by default).
# TXMAIL_TEST_RESULTS=<file> keeps jest's JSON report (per-file and per-test times) for a closer look.
if [ -n "${TXMAIL_TEST_RESULTS:-}" ]; then cp "$results" "$TXMAIL_TEST_RESULTS"; fi
# The slowest files, then the closing line (and a non-zero exit if it reports any failure):
# scripts/jest-summary.js.
node scripts/jest-summary.js "$results" ${checks_pid:+"$checks"} || exit 1
exit $status
