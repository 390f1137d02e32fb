#!/usr/bin/env bash
# One idempotent setup for users, tests and CI. After it, `source .tools/env` puts the project's
# Node (>= 22.19) and Pulumi CLI first on PATH.
#
#   bash scripts/setup.sh               # what the TypeScript face, the demo and the emulator need
#   bash scripts/setup.sh --with yaml   # also the YAML language host (Pulumi YAML programs)
#   bash scripts/setup.sh --with sdkgen # also the Go/Python SDK generator and the Python venv
#   bash scripts/setup.sh --with python # also the Python venv alone (tools/python/requirements.txt)
#   bash scripts/setup.sh --with release # also the registry servers of the release rehearsal (below)
#   bash scripts/setup.sh --with dns    # also PowerDNS, the DNS server the emulator's DNS tests start
#   bash scripts/setup.sh --with java   # also the Java language host, javagen and a Maven repository
#   bash scripts/setup.sh --with browser # also Debian's Chromium (the HTML report's browser test)
#   (--with is repeatable: --with yaml --with sdkgen)
#
# It builds only what is missing, and starts the longest build first so the rest overlaps it:
#   1. Go programs, in the background: the Pulumi CLI at the version tools/langhost/go.mod pins (a
#      `pulumi` of that version on PATH is used instead) and our Node language host, in one `go build`
#      (scripts/build-go-tools.sh; ~5 min cold on 2 cores, once per version).
#   2. Node: the system node if it is new enough, else the npm package node@22 (a real Node 22 binary).
#   3. npm dependencies from the committed lockfile (skipped when the lockfile is unchanged).
#   4. TypeScript build (dist/), incremental: the dynamic providers load it by package name at run time.
#   5. With --with yaml: the YAML language host (pulumi-language-yaml), after the CLI so it reuses the
#      Go build cache (scripts/build-yaml-host.sh; ~1–2 min cold, once).
#   6. With --with sdkgen: the SDK generator tools/langhost/cmd/sdkgen (scripts/build-sdkgen.sh, after
#      the CLI for the same reason; seconds warm), linked as .tools/bin/txmail-sdkgen, and the
#      examples' generator built with it, .tools/bin/txmail-examplegen. With --with
#      sdkgen or --with python: a Python venv with tools/python/requirements.txt (pulumi, build, mypy),
#      keyed by that file's hash and the interpreter's version, linked as .tools/python
#      (.tools/python/bin/python; ~20 s, once).
#   7. With --with release (or --with sdkgen, which the test command passes): what the release
#      rehearsal (test/e2e/release) serves on loopback, so the test itself needs no network. Verdaccio
#      (tools/registry/package.json and its lockfile) and a venv with pypiserver and twine
#      (tools/registry/requirements.txt); an npm storage holding the npm package's dependency
#      closure (and a TypeScript user's), seeded once through Verdaccio with the npm registry as its
#      uplink; a wheelhouse of the Python SDK's dependencies (pip download of
#      tools/python/requirements.txt). Each keyed by its inputs, linked under .tools/registry/
#      (~1 min cold, once). The Go modules come from Go's own module cache (the SDK's are there).
#   8. With --with dns (or --with sdkgen, which the test command passes): the PowerDNS Authoritative
#      Server with its SQLite backend (support/dnsServer.ts), pinned Debian bookworm packages fetched
#      with `apt-get download` and unpacked (never installed: the package's postinst would start a
#      daemon on port 53), linked as .tools/pdns (.tools/pdns/bin/pdns_server; 2.6 MB fetched, 13 MB
#      unpacked, ~1 s, once).
#   8b. With --with java (or --with sdkgen, which the test command passes): a JDK >= 17 and Maven
#      (checked; where missing and this is a Debian machine run as root, apt-get installs
#      openjdk-17-jdk-headless and maven), then tools/javagen built by scripts/build-javagen.sh
#      (pulumi-java v1.22.0's Java language host and SDK generator; ~1 min cold, once), linked
#      as .tools/bin/pulumi-language-java and .tools/bin/txmail-javagen; and a Maven local
#      repository for offline builds (`mvn -o -Dmaven.repo.local=.tools/maven-repo`): filled once
#      from Maven Central by building copies of sdk/java (jar, sources, javadoc, install, and a deploy
#      to a throwaway file:// repository, for the release's Maven repository) and of the
#      Java e2e's program (test/e2e/java: compile, jar, dependency copy), so it holds com.pulumi:pulumi's
#      dependency closure and exactly the Maven plugins those builds use; keyed by both pom.xml files
#      and Maven's version, linked as .tools/maven-repo (~70 MB, ~30 s cold). The txmail SDK itself
#      is removed from it: the tests install it from sdk/java.
#   8c. With --with browser (which the test command passes): Debian's Chromium at /usr/bin/chromium
#      (or $TXMAIL_CHROMIUM), installed with apt-get when missing (as root; else it says how). The
#      HTML report's browser test drives it headless through playwright-core (a pinned npm
#      dependency, which downloads no browser).
#   9. Links in .tools/bin: pulumi, the dynamic-provider plugin shipped in @pulumi/pulumi; the native
#      provider bin/pulumi-resource-txmail installed in .tools/pulumi-home; its single executable
#      (scripts/build-plugin.sh --binary, cached) linked as .tools/plugin/pulumi-resource-txmail; the env file.
#
# Heavy artefacts live in a cache outside the work tree, keyed by version, so a fresh clone on the
# same machine sets up in seconds: ${TXMAIL_CACHE_DIR:-~/.cache/pulumi-txmail}. The project's own
# ignored folder .tools/ only holds links into it and the env file.
set -euo pipefail

NODE_VERSION=22.23.3   # pinned; >= 22.19 is what undici 8 and @pulumi/pulumi need
NODE_MIN_MINOR=19
# The newest pulumi-yaml the Go module proxy serves (v1.39 and later are refused there); built
# against the CLI's pkg/v3 and sdk/v3.
YAML_HOST_VERSION=1.38.3

with_yaml=false
with_sdkgen=false
with_python=false
with_release=false
with_dns=false
with_java=false
with_browser=false
while [ $# -gt 0 ]; do
  case "$1:${2:-}" in
    --with:yaml) with_yaml=true ;;
    --with:sdkgen) with_sdkgen=true; with_python=true; with_release=true; with_dns=true; with_java=true ;;
    --with:release) with_release=true; with_python=true ;;
    --with:python) with_python=true ;;
    --with:dns) with_dns=true ;;
    --with:java) with_java=true ;;
    --with:browser) with_browser=true ;;
    --with:*) echo "setup.sh: --with takes 'yaml', 'sdkgen', 'python', 'release', 'dns', 'java' or 'browser'" >&2; exit 2 ;;
    *) echo "usage: setup.sh [--with yaml|sdkgen|python|release|dns|java|browser]..." >&2; exit 2 ;;
  esac
  shift 2
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TXMAIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-txmail}"
tools="$root/.tools"
mkdir -p "$cache" "$tools/bin"

say() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }
since() { echo "$(($(date +%s) - $1)) s"; }

# Serialise concurrent setups (a test run and a demo started together) on one lock.
exec 9>"$cache/setup.lock"
flock 9

# --- 1. Go programs (background) -------------------------------------------------------------------
langhost_src="$root/tools/langhost"
# The CLI version is the pkg/v3 requirement of tools/langhost/go.mod: one place says it.
pulumi_version="$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi/pkg/v3 v\([^ ]*\).*#\1#p' "$langhost_src/go.mod" | head -1)"
[ -n "$pulumi_version" ] || die "no github.com/pulumi/pulumi/pkg/v3 requirement in tools/langhost/go.mod"

pulumi_dir=""
langhost=""
# A user's own CLI of the pinned version wins (with the official language host next to it, if
# there is one); our .tools/bin (on PATH when .tools/env is sourced) does not count.
path_without_tools="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$tools/bin" | paste -sd: -)"
user_pulumi="$(PATH="$path_without_tools" command -v pulumi 2>/dev/null || true)"
if [ -n "$user_pulumi" ] && [ "$("$user_pulumi" version 2>/dev/null)" = "v$pulumi_version" ]; then
  pulumi_dir="$(dirname "$(readlink -f "$user_pulumi")")"
  say "using the Pulumi CLI v$pulumi_version found on PATH ($pulumi_dir)"
  [ -x "$pulumi_dir/pulumi-language-nodejs" ] && langhost="$pulumi_dir/pulumi-language-nodejs"
fi
cli_out="-"
if [ -z "$pulumi_dir" ]; then
  pulumi_dir="$cache/pulumi-v$pulumi_version/bin"
  [ "$("$pulumi_dir/pulumi" version 2>/dev/null)" = "v$pulumi_version" ] || cli_out="$cache/pulumi-v$pulumi_version"
fi
host_out="-"
if [ -z "$langhost" ]; then
  # Keyed by the host's sources (the CLI version is in go.mod), so a change to tools/langhost rebuilds it.
  lh_hash="$(cd "$langhost_src" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)"
  langhost="$cache/langhost-$lh_hash/bin/pulumi-language-nodejs"
  [ -x "$langhost" ] || host_out="$cache/langhost-$lh_hash"
fi

go_pid=""
go_log="$cache/go-build.log"
go_started=0
if [ "$cli_out" != "-" ] || [ "$host_out" != "-" ]; then
  command -v go >/dev/null || die "no Pulumi CLI v$pulumi_version on PATH and no Go toolchain to build one.
  Install the Pulumi CLI v$pulumi_version (https://www.pulumi.com/docs/install/) or Go >= 1.26, then re-run."
  what="the Node language host (a few seconds with a warm Go build cache)"
  [ "$cli_out" != "-" ] && what="the Pulumi CLI v$pulumi_version and the Node language host (~5 min cold on 2 cores, once; log: $go_log)"
  say "building $what, in the background"
  go_started=$(date +%s)
  "$root/scripts/build-go-tools.sh" "$cli_out" "$host_out" >"$go_log" 2>&1 &
  go_pid=$!
fi
wait_for_go() {
  [ -n "$go_pid" ] || return 0
  say "waiting for the Go build (running for $(since "$go_started"))"
  if ! wait "$go_pid"; then
    tail -n 30 "$go_log" >&2
    die "the Go build failed (whole log: $go_log)"
  fi
  say "Go build done in $(since "$go_started")"
  go_pid=""
}
trap '[ -n "$go_pid" ] && kill "$go_pid" 2>/dev/null; true' EXIT

# --- 2. Node -----------------------------------------------------------------------------------
node_ok() { # $1 = node binary; true when it is >= 22.NODE_MIN_MINOR
  local v
  v="$("$1" -p 'process.versions.node' 2>/dev/null)" || return 1
  local major="${v%%.*}" rest="${v#*.}"
  local minor="${rest%%.*}"
  [ "$major" -gt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -ge "$NODE_MIN_MINOR" ]; }
}

node_bin=""
# Resolved to the real binary: with .tools/env sourced, `node` is our own link in .tools/bin.
system_node="$(command -v node 2>/dev/null || true)"
[ -n "$system_node" ] && system_node="$(readlink -f "$system_node" 2>/dev/null || true)"
if [ -n "$system_node" ] && [ -x "$system_node" ] && node_ok "$system_node"; then
  node_bin="$system_node"
else
  node_dir="$cache/node-v$NODE_VERSION"
  node_bin="$node_dir/node_modules/.bin/node"
  if ! node_ok "$node_bin"; then
    command -v npm >/dev/null || die "npm is needed to install Node $NODE_VERSION (the npm package node@$NODE_VERSION)"
    say "installing Node $NODE_VERSION from the npm package node@$NODE_VERSION into $node_dir"
    rm -rf "$node_dir" && mkdir -p "$node_dir"
    npm install --prefix "$node_dir" --no-save --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2
    if ! node_ok "$node_bin"; then
      # node@X fetches its binary through an install script; where scripts are blocked, the
      # platform package it would have chosen carries the same binary and needs no script.
      arch="$(uname -m)"; case "$arch" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; esac
      npm install --prefix "$node_dir" --no-save --no-audit --no-fund --loglevel=error \
        "node-linux-$arch@$NODE_VERSION" >&2
      mkdir -p "$node_dir/node_modules/.bin"
      ln -sf "../node-linux-$arch/bin/node" "$node_bin"
    fi
    node_ok "$node_bin" || die "could not install a working Node $NODE_VERSION"
  fi
fi
node_bin_dir="$(dirname "$node_bin")"
export PATH="$node_bin_dir:$PATH"
ln -sf "$node_bin" "$tools/bin/node"

# --- 3. npm dependencies -------------------------------------------------------------------------
lock_hash="$(sha256sum "$root/package-lock.json" | cut -c1-16)"
stamp="$root/node_modules/.txmail-lock-$lock_hash"
if [ ! -f "$stamp" ]; then
  started=$(date +%s)
  say "installing npm dependencies from package-lock.json"
  # Not `npm ci`: npm 11 leaves other platforms' optional packages (jest's @unrs/resolver-binding-*)
  # out of the lockfile and then `npm ci` refuses that same lockfile. `npm install` with a complete
  # lock installs exactly the locked versions and leaves the lock unchanged (checked below).
  (cd "$root" && npm install --no-audit --no-fund --loglevel=error >&2)
  if command -v git >/dev/null && [ -d "$root/.git" ] && ! git -C "$root" diff --quiet -- package-lock.json; then
    say "warning: npm changed package-lock.json; commit it if the change was intended"
  fi
  touch "$stamp"
  say "npm dependencies installed in $(since "$started")"
fi
# Programs in examples/ and test fixtures import the package by name; link it into node_modules
# the way an installed dependency would be found.
ln -sfn .. "$root/node_modules/pulumi-txmail"

# --- 4. Build ------------------------------------------------------------------------------------
# Incremental (tsconfig.json keeps its build info in dist/). Skipped outright when no source, config
# or dependency changed since the last build: even an incremental check costs ~2 s of a warm demo.
build_info="$root/dist/.tsbuildinfo"
changed="$(cd "$root" && find provider sdk/nodejs native emulator policy fleet docs/codegen acceptance support tsconfig.json package-lock.json \
  -newer "$build_info" \( -name '*.ts' -o -name '*.json' \) -print -quit 2>/dev/null || echo missing)"
if [ ! -f "$build_info" ] || [ -n "$changed" ]; then
  started=$(date +%s)
  (cd "$root" && "$node_bin" node_modules/typescript/bin/tsc -p tsconfig.json)
  touch "$build_info" # tsc leaves it alone when nothing needed emitting
  say "TypeScript built (dist/) in $(since "$started")"
fi

wait_for_go
ln -f "$pulumi_dir/pulumi" "$tools/bin/pulumi" 2>/dev/null || cp -f "$pulumi_dir/pulumi" "$tools/bin/pulumi"
# A hard link (not a symlink) above: the engine looks for its plugins next to its own resolved path,
# so pulumi, the language hosts and the plugin scripts must share one directory.
ln -sf "$langhost" "$tools/bin/pulumi-language-nodejs"

# --- 5. YAML language host (on request) ---------------------------------------------------------------
if $with_yaml; then
  if [ -x "$pulumi_dir/pulumi-language-yaml" ]; then
    yaml_host="$pulumi_dir/pulumi-language-yaml"
  else
    # Keyed by both versions: the host is linked against the CLI's SDK.
    yaml_dir="$cache/yaml-host-v$YAML_HOST_VERSION-pulumi-v$pulumi_version"
    yaml_host="$yaml_dir/bin/pulumi-language-yaml"
    if [ ! -x "$yaml_host" ]; then
      command -v go >/dev/null || die "no YAML language host next to the Pulumi CLI and no Go toolchain to build pulumi-yaml v$YAML_HOST_VERSION"
      started=$(date +%s)
      say "building the YAML language host pulumi-yaml v$YAML_HOST_VERSION from Go modules (first run only; ~1–2 min)"
      "$root/scripts/build-yaml-host.sh" "$YAML_HOST_VERSION" "$pulumi_version" "$yaml_dir" >&2
      say "YAML language host built in $(since "$started")"
    fi
  fi
  ln -sf "$yaml_host" "$tools/bin/pulumi-language-yaml"
fi

# --- 6. SDK generator and Python venv (on request) ---------------------------------------------------
if $with_sdkgen; then
  command -v go >/dev/null || die "--with sdkgen needs a Go toolchain (Go >= 1.26) to build tools/langhost/cmd/sdkgen"
  sdkgen="$("$root/scripts/build-sdkgen.sh")" || die "building the SDK generator failed"
  ln -sf "$sdkgen" "$tools/bin/txmail-sdkgen"
  ln -sf "$(dirname "$sdkgen")/examplegen" "$tools/bin/txmail-examplegen"
fi
if $with_python; then
  python="$(command -v python3 2>/dev/null || true)"
  [ -n "$python" ] && "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null ||
    die "--with python/sdkgen needs python3 >= 3.10 on PATH (the Python SDK requires it)"
  requirements="$root/tools/python/requirements.txt"
  py_hash="$({ cat "$requirements"; "$python" -VV; } | sha256sum | cut -c1-16)"
  venv="$cache/python-$py_hash"
  # A venv is not relocatable, so it is built in place; .complete marks a finished install.
  if [ ! -f "$venv/.complete" ]; then
    started=$(date +%s)
    say "creating the Python venv $venv from tools/python/requirements.txt (~20 s, once)"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # Every package is pinned in the file, dependencies included: install exactly those.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$requirements" >&2
    "$venv/bin/python" -m pip check >&2 || die "the pinned Python packages do not fit together (tools/python/requirements.txt)"
    touch "$venv/.complete"
    say "Python venv ready in $(since "$started")"
  fi
  ln -sfn "$venv" "$tools/python"
fi

# --- 7. Registry servers and their offline contents (on request) ---------------------------------------
if $with_release; then
  registry_src="$root/tools/registry"
  mkdir -p "$tools/registry"
  # Verdaccio, from its own lockfile (its node-fetch override is in tools/registry/package.json).
  reg_hash="$(cat "$registry_src/package.json" "$registry_src/package-lock.json" | sha256sum | cut -c1-16)"
  verdaccio_dir="$cache/registry-$reg_hash"
  if [ ! -f "$verdaccio_dir/.complete" ]; then
    started=$(date +%s)
    say "installing Verdaccio (tools/registry) into $verdaccio_dir"
    rm -rf "$verdaccio_dir" && mkdir -p "$verdaccio_dir"
    cp "$registry_src/package.json" "$registry_src/package-lock.json" "$verdaccio_dir/"
    (cd "$verdaccio_dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
    touch "$verdaccio_dir/.complete"
    say "Verdaccio installed in $(since "$started")"
  fi
  ln -sfn "$verdaccio_dir" "$tools/registry/verdaccio"
  # pypiserver and twine, in a venv of their own.
  preg_hash="$({ cat "$registry_src/requirements.txt"; "$python" -VV; } | sha256sum | cut -c1-16)"
  preg_venv="$cache/python-registry-$preg_hash"
  if [ ! -f "$preg_venv/.complete" ]; then
    started=$(date +%s)
    say "creating the venv $preg_venv from tools/registry/requirements.txt (pypiserver, twine)"
    rm -rf "$preg_venv"
    "$python" -m venv "$preg_venv"
    "$preg_venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$registry_src/requirements.txt" >&2
    "$preg_venv/bin/python" -m pip check >&2 || die "the pinned registry packages do not fit together (tools/registry/requirements.txt)"
    touch "$preg_venv/.complete"
    say "registry venv ready in $(since "$started")"
  fi
  ln -sfn "$preg_venv" "$tools/registry/python"
  # The Python SDK's dependencies as wheels for this interpreter, served beside the release.
  wheel_hash="$({ cat "$root/tools/python/requirements.txt"; "$python" -VV; } | sha256sum | cut -c1-16)"
  wheelhouse="$cache/wheelhouse-$wheel_hash"
  if [ ! -f "$wheelhouse/.complete" ]; then
    started=$(date +%s)
    say "downloading the wheelhouse $wheelhouse (tools/python/requirements.txt)"
    rm -rf "$wheelhouse" && mkdir -p "$wheelhouse"
    "$preg_venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      -r "$root/tools/python/requirements.txt" -d "$wheelhouse" >&2
    touch "$wheelhouse/.complete"
    say "wheelhouse ready in $(since "$started")"
  fi
  ln -sfn "$wheelhouse" "$tools/registry/wheelhouse"
  # Verdaccio's storage with every package a user's `npm install pulumi-txmail` (and TypeScript)
  # needs: keyed by the package's dependencies and Verdaccio's version (support/registries.ts).
  seed_hash="$({ "$node_bin" -p 'const p=require(process.argv[1]); JSON.stringify([p.dependencies, p.devDependencies.typescript, p.devDependencies["@types/node"]])' "$root/package.json"; echo "$reg_hash"; } | sha256sum | cut -c1-16)"
  storage="$cache/npm-storage-$seed_hash"
  if [ ! -f "$storage/.complete" ]; then
    started=$(date +%s)
    say "seeding the npm storage $storage through Verdaccio from the npm registry"
    rm -rf "$storage"
    "$node_bin" "$root/dist/support/registries.js" seed-npm "$verdaccio_dir" "$storage" "$root/package.json" >&2
    touch "$storage/.complete"
    say "npm storage seeded in $(since "$started")"
  fi
  ln -sfn "$storage" "$tools/registry/npm-storage"
  # Go's module cache (its cache/download is in the module proxy's layout, which the rehearsal
  # serves) with every module a user's program on the Go SDK needs: the rehearsal's program, the SDK
  # replaced by this checkout's, tidied once with the real proxy.
  go_seed="$cache/go-seed-$(cat "$root/sdk/go/go.mod" "$root/test/e2e/release/programs/go/main.go" | sha256sum | cut -c1-16)"
  if [ ! -f "$go_seed" ]; then
    command -v go >/dev/null || die "--with release needs a Go toolchain (Go >= 1.26) for the Go SDK's dependencies"
    started=$(date +%s)
    say "downloading the Go SDK's dependencies into Go's module cache"
    seed_dir="$(mktemp -d)"
    cp "$root/test/e2e/release/programs/go/main.go" "$seed_dir/"
    sdk_module="$(sed -n 's/^module[[:space:]]*//p' "$root/sdk/go/go.mod")"
    (cd "$seed_dir" && go mod init example.com/rehearsal 2>/dev/null &&
      go mod edit -require "$sdk_module@v0.0.0" -replace "$sdk_module=$root/sdk/go" &&
      GOFLAGS=-mod=mod go mod tidy >&2) || { rm -rf "$seed_dir"; die "go mod tidy of the rehearsal's Go program failed"; }
    rm -rf "$seed_dir"
    touch "$go_seed"
    say "Go modules ready in $(since "$started")"
  fi
  # The CLI's own directory (not .tools/bin's link to it): a user's PATH holds no checkout path.
  ln -sfn "$pulumi_dir" "$tools/registry/cli"
fi

# --- 8. PowerDNS (on request) -------------------------------------------------------------------------
if $with_dns; then
  # Pinned: the version the DNS tests were written against. libluajit is the one library pdns_server
  # links that a Debian machine without PowerDNS lacks (the first alternative of its Depends); its
  # other libraries (boost, curl, sodium, sqlite, ssl, systemd) are checked below with ldd.
  PDNS_DEBS="pdns-server=4.7.3-2 pdns-backend-sqlite3=4.7.3-2 libluajit-5.1-2=2.1.0~beta3+git20220320+dfsg-4.1+deb12u1"
  pdns_dir="$cache/pdns-$(printf '%s' "$PDNS_DEBS" | sha256sum | cut -c1-16)"
  if [ ! -f "$pdns_dir/.complete" ]; then
    started=$(date +%s)
    say "fetching PowerDNS ($PDNS_DEBS) with apt-get download into $pdns_dir"
    command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
      die "--with dns needs apt-get and dpkg-deb (Debian bookworm) to fetch PowerDNS 4.7.3"
    rm -rf "$pdns_dir" && mkdir -p "$pdns_dir/debs" "$pdns_dir/root" "$pdns_dir/bin"
    # shellcheck disable=SC2086 # one word per package
    fetch_debs() { (cd "$pdns_dir/debs" && apt-get download -q $PDNS_DEBS >"$pdns_dir/apt.log" 2>&1); }
    # A fresh machine may have no package lists yet: as root, fetch them once and try again.
    if ! fetch_debs && ! { [ "$(id -u)" = 0 ] && apt-get update -q >>"$pdns_dir/apt.log" 2>&1 && fetch_debs; }; then
      cat "$pdns_dir/apt.log" >&2
      die "apt-get download of PowerDNS failed (packages: $PDNS_DEBS). It needs Debian bookworm's package lists (run 'apt-get update' as root) and its mirror."
    fi
    for deb in "$pdns_dir"/debs/*.deb; do dpkg-deb -x "$deb" "$pdns_dir/root"; done
    server="$pdns_dir/root/usr/sbin/pdns_server"
    libs="$(dirname "$(find "$pdns_dir/root/usr/lib" -name 'libgsqlite3backend.so' -print -quit)")"
    [ -x "$server" ] && [ "$libs" != "." ] || die "the PowerDNS packages hold no pdns_server or gsqlite3 backend"
    libs="$(dirname "$libs")"
    missing="$(LD_LIBRARY_PATH="$libs" ldd "$server" "$libs/pdns/libgsqlite3backend.so" | grep 'not found' || true)"
    [ -z "$missing" ] || die "pdns_server needs libraries this machine lacks (install them, or add their packages to PDNS_DEBS):
$missing"
    # The wrapper the tests run: the unpacked libraries first, nothing installed on the machine.
    cat >"$pdns_dir/bin/pdns_server" <<WRAPPER
#!/bin/sh
# Generated by scripts/setup.sh: PowerDNS from the unpacked Debian packages beside it.
LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$server" --module-dir="$libs/pdns" "\$@"
WRAPPER
    chmod 755 "$pdns_dir/bin/pdns_server"
    # `--version` prints the banner and exits 99 in 4.7; the banner is what counts.
    banner="$("$pdns_dir/bin/pdns_server" --version 2>&1 || true)"
    case "$banner" in
      *"PowerDNS Authoritative Server 4.7.3"*) ;;
      *) die "the unpacked pdns_server does not run: $(printf '%s\n' "$banner" | tail -3)" ;;
    esac
    rm -rf "$pdns_dir/debs" "$pdns_dir/root/usr/share/doc" "$pdns_dir/root/usr/share/man"
    touch "$pdns_dir/.complete"
    say "PowerDNS 4.7.3 ready in $(since "$started")"
  fi
  ln -sfn "$pdns_dir" "$tools/pdns"
fi

# --- 8b. Java (on request) -----------------------------------------------------------------------------
java_major() { # the major version of the java on PATH (17 for "17.0.15", 1 for "1.8.0"); empty if none
  command -v java >/dev/null && java -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'
}
if $with_java; then
  if [ "$(java_major)" -lt 17 ] 2>/dev/null || [ -z "$(java_major)" ] || ! command -v javac >/dev/null || ! command -v mvn >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      say "installing a JDK 17 and Maven with apt-get (openjdk-17-jdk-headless, maven)"
      { apt-get install -y -q openjdk-17-jdk-headless maven || { apt-get update -q && apt-get install -y -q openjdk-17-jdk-headless maven; }; } >&2 ||
        die "apt-get could not install openjdk-17-jdk-headless and maven"
    fi
    [ -n "$(java_major)" ] && [ "$(java_major)" -ge 17 ] ||
      die "--with java needs a JDK >= 17 on PATH (found: $(java -version 2>&1 | head -1 || echo none)); install one (Debian: apt-get install openjdk-17-jdk-headless)"
    command -v javac >/dev/null || die "--with java needs javac (a JDK, not only a JRE); Debian: apt-get install openjdk-17-jdk-headless"
    command -v mvn >/dev/null || die "--with java needs Maven (mvn) >= 3.8 on PATH; Debian: apt-get install maven"
  fi
  javagen_dir="$("$root/scripts/build-javagen.sh")" || die "building tools/javagen (the Java language host and SDK generator) failed"
  ln -sf "$javagen_dir/pulumi-language-java" "$tools/bin/pulumi-language-java"
  ln -sf "$javagen_dir/javagen" "$tools/bin/txmail-javagen"
  # What fills it is part of the key (change the text when the builds below change).
  m2_fill="sdk: deploy to file://; program: package"
  m2_hash="$({ cat "$root/sdk/java/pom.xml" "$root/test/e2e/java/pom.xml"; mvn --version 2>/dev/null | head -1; echo "$m2_fill"; } | sha256sum | cut -c1-16)"
  m2="$cache/maven-repo-$m2_hash"
  if [ ! -f "$m2/.complete" ]; then
    started=$(date +%s)
    say "filling the Maven repository $m2 from Maven Central (the Java SDK's and program's builds, once)"
    rm -rf "$m2"
    m2_work="$(mktemp -d)"
    cp -r "$root/sdk/java" "$m2_work/sdk"
    cp -r "$root/test/e2e/java" "$m2_work/program"
    sdk_version="$(sed -n 's#^  <version>\(.*\)</version>#\1#p' "$root/sdk/java/pom.xml" | head -1)"
    mvn_fill() { mvn -B -q --no-transfer-progress -Dmaven.repo.local="$m2" "$@" >"$m2_work/mvn.log" 2>&1 || {
      tail -n 40 "$m2_work/mvn.log" >&2; rm -rf "$m2_work"; die "mvn $* failed while filling the Maven repository"; }; }
    mvn_fill -f "$m2_work/sdk/pom.xml" deploy -DaltDeploymentRepository="fill::file://$m2_work/deployed"
    mvn_fill -f "$m2_work/program/pom.xml" -Dtxmail.version="$sdk_version" package
    rm -rf "$m2_work" "$m2/io/github/pulumi-txmail"
    touch "$m2/.complete"
    say "Maven repository ready in $(since "$started")"
  fi
  ln -sfn "$m2" "$tools/maven-repo"
fi

# --- 8c. Chromium (on request) ------------------------------------------------------------------------
if $with_browser; then
  chromium_bin="${TXMAIL_CHROMIUM:-/usr/bin/chromium}"
  if [ ! -x "$chromium_bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      say "installing Debian's Chromium with apt-get (chromium), for the HTML report's browser test"
      { apt-get install -y -q chromium || { apt-get update -q && apt-get install -y -q chromium; }; } >&2 ||
        die "apt-get could not install chromium"
    fi
    [ -x "$chromium_bin" ] ||
      die "--with browser needs Chromium at $chromium_bin (Debian: apt-get install chromium; or set TXMAIL_CHROMIUM)"
  fi
fi

# --- 9. Plugins and env file ---------------------------------------------------------------------
ln -sf "$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$tools/bin/pulumi-resource-pulumi-nodejs"
# The native provider plugin, for development: this checkout's bin/pulumi-resource-txmail (node on
# dist/native) installed in the project's Pulumi home, where the engine finds it as it finds a
# plugin users install. Not on PATH: a plugin found there costs a "using ... from $PATH" warning at
# every plugin load. (Older setups linked it into .tools/bin: removed.)
rm -f "$tools/bin/pulumi-resource-txmail"
# The same code installs it in each test stack's Pulumi home (support/plugin.ts).
"$node_bin" "$root/dist/support/plugin.js" "$tools/pulumi-home" script
# The same provider as users get it, a single executable needing no Node (scripts/build-plugin.sh,
# this platform only; cached by its inputs, so an unchanged checkout skips it): for the tests that
# run without Node and the benchmarks.
started=$(date +%s)
plugin_binary="$(bash "$root/scripts/build-plugin.sh" --binary)" || die "building the plugin executable failed"
mkdir -p "$tools/plugin"
ln -sf "$plugin_binary" "$tools/plugin/pulumi-resource-txmail"
[ "$(since "$started")" = "0 s" ] || say "plugin executable ready in $(since "$started")"

# Offline engine settings: no update checks, no plugin downloads, a project-local Pulumi home.
cat >"$tools/env" <<ENV
# Generated by scripts/setup.sh. Usage: source .tools/env
export PATH="$tools/bin:$node_bin_dir:\$PATH"
export PULUMI_HOME="\${PULUMI_HOME:-$tools/pulumi-home}"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
ENV
say "ready: Node $("$node_bin" --version), Pulumi $("$tools/bin/pulumi" version) — run 'source .tools/env'"
