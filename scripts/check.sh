#!/usr/bin/env bash
# The static checks, the same locally and in CI (scripts/test.sh runs them beside jest; `npm run
# check` runs them alone). Each check prints one line "[check] NAME: ok|FAILED (N s)", its findings
# on failure, and the script ends with "checks: N passed, N failed" (scripts/test.sh counts them as
# tests in the suite's closing line).
#   prettier   formatting of the whole tree (.prettierignore lists the generated files)
#   eslint     typescript-eslint's recommended rules (eslint.config.mjs says which are relaxed, why)
#   tsc        the tests type-checked as a whole, with the sources they import (jest transpiles file
#              by file; scripts/setup.sh's build already type-checked the sources on their own)
#   tsc bench  the benchmarks (bench/), which no test imports
#   gofmt      tools/langhost formatted
#   go vet     tools/langhost and its commands, and tools/javagen (the Java SDK generator)
#   go test    tools/langhost's tests
# Expects `source .tools/env` (scripts/setup.sh) for node and go.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

passed=0
failed=0
check() {
  local name="$1"
  shift
  local started output status
  started=$(date +%s)
  output="$("$@" 2>&1)"
  status=$?
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
    printf '[check] %s: ok (%d s)\n' "$name" $(($(date +%s) - started))
  else
    failed=$((failed + 1))
    printf '[check] %s: FAILED (%d s)\n%s\n' "$name" $(($(date +%s) - started)) "$output"
  fi
}
# gofmt -l lists unformatted files and exits 0: a listed file is the failure.
gofmt_clean() { local files; files="$(gofmt -l "$@")" || return 1; [ -z "$files" ] || { echo "$files"; return 1; }; }
# The Go tools build with these tags (scripts/build-go-tools.sh); vet and test the same code.
go_tags=osusergo,grpcnotrace

check prettier node node_modules/prettier/bin/prettier.cjs --check --log-level warn .
check eslint node node_modules/eslint/bin/eslint.js --max-warnings 0 .
check tsc node node_modules/typescript/bin/tsc -p test/tsconfig.json --noEmit
check "tsc bench" node node_modules/typescript/bin/tsc -p bench/tsconfig.json --noEmit
check gofmt gofmt_clean tools
check "go vet" sh -c "cd tools/langhost && GOFLAGS=-mod=readonly go vet -tags $go_tags ./... &&
  cd ../javagen && GOFLAGS=-mod=readonly go vet -tags $go_tags ."
check "go test" sh -c "cd tools/langhost && GOFLAGS=-mod=readonly go test -tags $go_tags ./..."

echo "checks: $passed passed, $failed failed"
[ $failed -eq 0 ]
