#!/usr/bin/env bash
# Prints the path of actionlint (the GitHub Actions workflow checker, a Go module from the Go module
# proxy), building it first when the tools cache has none of this version:
# ${TXMAIL_CACHE_DIR:-~/.cache/pulumi-txmail}/actionlint-<version>/bin/actionlint (~15 s cold, once).
# Used by test/unit/scripts/ciWorkflows.test.ts to check examples/ci/*.yml.
#
#   actionlint="$(scripts/build-actionlint.sh)"
set -euo pipefail
version=v1.7.12
cache="${TXMAIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-txmail}"
out="$cache/actionlint-$version"
bin="$out/bin/actionlint"
if [ ! -x "$bin" ]; then
  command -v go >/dev/null || {
    echo "build-actionlint.sh: go is not installed; install Go >= 1.26" >&2
    exit 3
  }
  mkdir -p "$cache"
  exec 8>"$cache/actionlint.lock"
  flock 8
  if [ ! -x "$bin" ]; then
    echo "[actionlint] building $version into $out (once)" >&2
    # Outside any module: `go install pkg@version` builds with actionlint's own go.mod and go.sum.
    (cd "$cache" && GOBIN="$out/bin" GOFLAGS=-trimpath go install "github.com/rhysd/actionlint/cmd/actionlint@$version") >&2
  fi
fi
echo "$bin"
