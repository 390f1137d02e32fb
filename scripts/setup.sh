#!/usr/bin/env bash
# One idempotent setup for users, tests and CI. After it, `source .tools/env` puts the project's
# Node (>= 22.19) and Pulumi CLI first on PATH.
#
#   1. Node: the system node if it is new enough, else the npm package node@22 (a real Node 22 binary)
#      installed into the tools cache.
#   2. npm dependencies from the committed lockfile (skipped when the lockfile is unchanged).
#   3. TypeScript build (dist/), which the dynamic providers load by package name at run time.
#   4. Pulumi CLI of exactly the version of the installed @pulumi/pulumi: a `pulumi` of that version
#      already on PATH, else one built from the Go module proxy (scripts/build-pulumi-cli.sh), plus
#      the Node language host (official one next to the CLI, else ours: tools/langhost).
#   5. The dynamic-provider plugin script shipped in @pulumi/pulumi, linked next to `pulumi`, and the
#      native provider plugin bin/pulumi-resource-txmail.
#   6. The YAML language host (pulumi-language-yaml): the official one next to the CLI, else built
#      from the Go module proxy (scripts/build-yaml-host.sh; a cold build adds ~80 s, once), linked
#      next to `pulumi`, so `runtime: yaml` programs run offline.
#
# Heavy artefacts live in a cache outside the work tree, keyed by version, so a fresh clone on the
# same machine sets up in seconds: ${TXMAIL_CACHE_DIR:-~/.cache/pulumi-txmail}. The project's own
# ignored folder .tools/ only holds links into it and the env file.
set -euo pipefail

NODE_VERSION=22.23.3   # pinned; >= 22.19 is what undici 8 and @pulumi/pulumi need
NODE_MIN_MINOR=19
YAML_HOST_VERSION=1.38.3  # the pulumi-yaml release Pulumi 3.259.0 bundles

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TXMAIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-txmail}"
tools="$root/.tools"
mkdir -p "$cache" "$tools/bin"

say() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# Serialise concurrent setups (a test run and a demo started together) on one lock.
exec 9>"$cache/setup.lock"
flock 9

# --- 1. Node -----------------------------------------------------------------------------------
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

# --- 2. npm dependencies -------------------------------------------------------------------------
lock_hash="$(sha256sum "$root/package-lock.json" | cut -c1-16)"
stamp="$root/node_modules/.txmail-lock-$lock_hash"
if [ ! -f "$stamp" ]; then
  say "installing npm dependencies from package-lock.json"
  # Not `npm ci`: npm 11 leaves other platforms' optional packages (jest's @unrs/resolver-binding-*)
  # out of the lockfile and then `npm ci` refuses that same lockfile. `npm install` with a complete
  # lock installs exactly the locked versions and leaves the lock unchanged (checked below).
  (cd "$root" && npm install --no-audit --no-fund --loglevel=error >&2)
  if command -v git >/dev/null && [ -d "$root/.git" ] && ! git -C "$root" diff --quiet -- package-lock.json; then
    say "warning: npm changed package-lock.json; commit it if the change was intended"
  fi
  touch "$stamp"
fi
# Programs in examples/ and test fixtures import the package by name; link it into node_modules
# the way an installed dependency would be found.
ln -sfn .. "$root/node_modules/pulumi-txmail"

# --- 3. Build ------------------------------------------------------------------------------------
say "building TypeScript (dist/)"
(cd "$root" && "$node_bin" node_modules/typescript/bin/tsc -p tsconfig.json)

# --- 4. Pulumi CLI and Node language host ----------------------------------------------------------
pulumi_version="$("$node_bin" -p "require('$root/node_modules/@pulumi/pulumi/package.json').version")"
pulumi_dir=""
# A user's own CLI of the right version wins; our .tools/bin (on PATH when .tools/env is sourced) does not count.
path_without_tools="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$tools/bin" | paste -sd: -)"
user_pulumi="$(PATH="$path_without_tools" command -v pulumi 2>/dev/null || true)"
if [ -n "$user_pulumi" ] && [ "$("$user_pulumi" version 2>/dev/null)" = "v$pulumi_version" ]; then
  pulumi_dir="$(dirname "$(readlink -f "$user_pulumi")")"
  say "using the Pulumi CLI v$pulumi_version found on PATH ($pulumi_dir)"
else
  pulumi_dir="$cache/pulumi-v$pulumi_version/bin"
  if [ "$("$pulumi_dir/pulumi" version 2>/dev/null)" != "v$pulumi_version" ]; then
    command -v go >/dev/null || die "no Pulumi CLI v$pulumi_version on PATH and no Go toolchain to build one.
  Install the Pulumi CLI v$pulumi_version (https://www.pulumi.com/docs/install/, e.g.
  'curl -fsSL https://get.pulumi.com | sh -s -- --version $pulumi_version') or Go >= 1.25, then re-run."
    say "building the Pulumi CLI v$pulumi_version from Go modules (first run only; several minutes)"
    "$root/scripts/build-pulumi-cli.sh" "$pulumi_version" "$cache/pulumi-v$pulumi_version" >&2
  fi
fi
# A hard link (not a symlink): the engine looks for its plugins next to its own resolved path, so
# pulumi, the language host and the dynamic-provider script must share one directory.
ln -f "$pulumi_dir/pulumi" "$tools/bin/pulumi" 2>/dev/null || cp -f "$pulumi_dir/pulumi" "$tools/bin/pulumi"

if [ -x "$pulumi_dir/pulumi-language-nodejs" ]; then
  langhost="$pulumi_dir/pulumi-language-nodejs"
else
  # Keyed by the sources, so a change to tools/langhost rebuilds it.
  lh_hash="$(cd "$root/tools/langhost" && cat go.mod go.sum *.go | sha256sum | cut -c1-16)"
  lh_dir="$cache/langhost-$lh_hash"
  langhost="$lh_dir/bin/pulumi-language-nodejs"
  if [ ! -x "$langhost" ]; then
    command -v go >/dev/null || die "no Node language host next to the Pulumi CLI and no Go toolchain to build tools/langhost"
    say "building the Node language host (tools/langhost)"
    "$root/scripts/build-langhost.sh" "$lh_dir" >&2
  fi
fi
ln -sf "$langhost" "$tools/bin/pulumi-language-nodejs"

# --- 5. Dynamic-provider plugin ------------------------------------------------------------------
ln -sf "$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$tools/bin/pulumi-resource-pulumi-nodejs"
# The native provider plugin (this checkout's dist/native), found by the engine on PATH: for
# development and tests. Users install the tarball instead (scripts/build-plugin.sh).
ln -sf "$root/bin/pulumi-resource-txmail" "$tools/bin/pulumi-resource-txmail"

# --- 6. YAML language host ------------------------------------------------------------------------
if [ -x "$pulumi_dir/pulumi-language-yaml" ]; then
  yaml_host="$pulumi_dir/pulumi-language-yaml"
else
  # Keyed by both versions: the host is linked against the CLI's SDK.
  yaml_dir="$cache/yaml-host-v$YAML_HOST_VERSION-pulumi-v$pulumi_version"
  yaml_host="$yaml_dir/bin/pulumi-language-yaml"
  if [ ! -x "$yaml_host" ]; then
    command -v go >/dev/null || die "no YAML language host next to the Pulumi CLI and no Go toolchain to build pulumi-yaml v$YAML_HOST_VERSION"
    say "building the YAML language host pulumi-yaml v$YAML_HOST_VERSION from Go modules (first run only; ~80 s)"
    "$root/scripts/build-yaml-host.sh" "$YAML_HOST_VERSION" "$pulumi_version" "$yaml_dir" >&2
  fi
fi
ln -sf "$yaml_host" "$tools/bin/pulumi-language-yaml"

# --- env file ------------------------------------------------------------------------------------
# Offline engine settings: no update checks, no plugin downloads, a project-local Pulumi home.
cat >"$tools/env" <<EOF
# Generated by scripts/setup.sh. Usage: source .tools/env
export PATH="$tools/bin:$node_bin_dir:\$PATH"
export PULUMI_HOME="\${PULUMI_HOME:-$tools/pulumi-home}"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
EOF
mkdir -p "$tools/pulumi-home"
say "ready: Node $("$node_bin" --version), Pulumi $("$tools/bin/pulumi" version) — run 'source .tools/env'"
