#!/usr/bin/env bash
# Builds the txmail resource provider plugin as users install it: one self-contained executable per
# platform (Node's single executable application: the project's Node binary for that platform with
# the bundled provider injected; no Node needed on the user's machine), packed as
# `pulumi plugin install resource txmail <version>` downloads it:
#
#   bash scripts/build-plugin.sh [--out DIR]                 # this machine's platform, into dist-plugin/
#   bash scripts/build-plugin.sh --all [--out DIR]           # every platform below (the release recipe)
#   bash scripts/build-plugin.sh --platform linux-arm64 ...  # the ones named (repeatable)
#   bash scripts/build-plugin.sh --binary                    # only this platform's executable, cached;
#                                                            # prints its path (scripts/setup.sh, tests)
#
# Each tarball pulumi-resource-txmail-v<version>-<os>-<arch>.tar.gz holds the executable
# (pulumi-resource-txmail, .exe on Windows) at its root, with a .sha256 file beside it. Node binaries:
# this machine's is the project's own (scripts/setup.sh); the others come from the npm packages
# node-<os>-<arch>@<the same version>, cached. macOS runs only signed Mach-O executables: the
# darwin ones are ad-hoc signed with `codesign` (macOS) or `rcodesign` (crates.io apple-codesign),
# and skipped with a message when neither is on PATH (docs/guide/plugin.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${TXMAIL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-txmail}"
# sha256sum (GNU) or shasum (macOS): the same "<hex>  <name>" lines.
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
say() { printf '[build-plugin] %s\n' "$*" >&2; }
die() { printf '[build-plugin] error: %s\n' "$*" >&2; exit 1; }

ALL_PLATFORMS="linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64"
FUSE=NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2

out="$root/dist-plugin"
platforms=""
binary_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --all) platforms="$ALL_PLATFORMS" ;;
    --platform) [ $# -ge 2 ] || die "--platform takes one of: $ALL_PLATFORMS"
      case " $ALL_PLATFORMS " in *" $2 "*) ;; *) die "--platform: '$2' is not one of: $ALL_PLATFORMS" ;; esac
      platforms="$platforms $2"; shift ;;
    --out) [ $# -ge 2 ] || die "--out takes a directory"; out="$2"; shift ;;
    --binary) binary_only=true ;;
    *) die "usage: build-plugin.sh [--all | --platform OS-ARCH ...] [--out DIR] | --binary" ;;
  esac
  shift
done

node_version="$(node -p 'process.versions.node')"
host_os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in x86_64) host_arch=amd64 ;; aarch64 | arm64) host_arch=arm64 ;; *) host_arch="$(uname -m)" ;; esac
host="$host_os-$host_arch"
[ -n "$platforms" ] || platforms="$host"

# The Node executable for a platform (Pulumi's os-arch names; npm's are x64/win).
node_binary() {
  local platform="$1"
  if [ "$platform" = "$host" ]; then
    readlink -f "$(command -v node)"
    return
  fi
  local os="${platform%-*}" arch="${platform#*-}"
  [ "$arch" = amd64 ] && arch=x64
  [ "$os" = windows ] && os=win
  local package="node-$os-$arch" exe=bin/node
  [ "$os" = win ] && exe=bin/node.exe
  local dir="$cache/node-binaries/$package-$node_version"
  if [ ! -f "$dir/.complete" ]; then
    say "fetching $package@$node_version from the npm registry (once; cached in $dir)"
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$package@$node_version" >/dev/null) ||
      die "no $package@$node_version on the npm registry: cannot build $platform"
    tar -xzf "$dir/$package-$node_version.tgz" -C "$dir" "package/$exe"
    rm "$dir/$package-$node_version.tgz"
    touch "$dir/.complete"
  fi
  printf '%s\n' "$dir/package/$exe"
}

signer() { command -v codesign || command -v rcodesign || true; }

# The bundle and the SEA blob: one per source state, shared by every platform (no code cache, no
# snapshot: those are specific to one Node binary). Keyed by everything that goes into the bundle.
key="$(
  cd "$root"
  {
    find dist -name '*.js' -not -path 'dist/test/*' | LC_ALL=C sort | xargs cat
    cat package.json package-lock.json native/schema.json scripts/plugin/bundle.js scripts/build-plugin.sh
    echo "$node_version"
  } | sha256 | cut -c1-16
)"
build="$cache/plugin-$key"
blob="$build/sea.blob"
if [ ! -f "$blob" ]; then
  [ -f "$root/native/schema.json" ] || die "native/schema.json is missing (npm run gen:schema)"
  [ -f "$root/dist/native/main.js" ] || die "dist/native/main.js is missing (node node_modules/typescript/bin/tsc -p tsconfig.json)"
  say "bundling dist/native/main.js and making the SEA blob (key $key)"
  rm -rf "$build.tmp" && mkdir -p "$build.tmp"
  node "$root/scripts/plugin/bundle.js" "$build.tmp/main.js" >/dev/null
  cat >"$build.tmp/sea-config.json" <<JSON
{ "main": "main.js", "output": "sea.blob", "disableExperimentalSEAWarning": true, "useCodeCache": false, "useSnapshot": false }
JSON
  (cd "$build.tmp" && node --experimental-sea-config sea-config.json >sea.log 2>&1) || { cat "$build.tmp/sea.log" >&2; die "making the SEA blob failed"; }
  rm -rf "$build" && mv "$build.tmp" "$build"
fi

touch "$build"
# Builds of other source states, unused for two days, go (other checkouts share the cache).
find "$cache" -maxdepth 1 -name 'plugin-*' -type d -mtime +2 -not -path "$build" -exec rm -rf {} + 2>/dev/null || true

# The executable for one platform: the Node binary with the blob injected (and signed on macOS).
executable() {
  local platform="$1" exe="$build/$1/pulumi-resource-txmail"
  [ "${platform%-*}" = windows ] && exe="$exe.exe"
  if [ ! -f "$exe" ]; then
    local node tmp
    node="$(node_binary "$platform")"
    tmp="$exe.tmp"
    mkdir -p "$(dirname "$exe")"
    cp "$node" "$tmp" && chmod 755 "$tmp"
    local macho=()
    if [ "${platform%-*}" = darwin ]; then
      macho=(--macho-segment-name NODE_SEA)
      # Injecting breaks Node's own signature; a fresh ad-hoc one is made after.
      [ "$(basename "$(signer)")" = codesign ] && codesign --remove-signature "$tmp"
    fi
    # postject's LIEF warns about ELF note names it does not know; shown only if it fails.
    node "$root/node_modules/postject/dist/cli.js" "$tmp" NODE_SEA_BLOB "$blob" --sentinel-fuse "$FUSE" \
      "${macho[@]}" >"$tmp.log" 2>&1 || { cat "$tmp.log" >&2; die "injecting the blob into $platform's Node failed"; }
    rm -f "$tmp.log"
    if [ "${platform%-*}" = darwin ]; then
      case "$(basename "$(signer)")" in
        codesign) codesign --sign - "$tmp" ;;
        rcodesign) rcodesign sign "$tmp" >/dev/null ;;
      esac
    fi
    mv "$tmp" "$exe"
  fi
  printf '%s\n' "$exe"
}

if $binary_only; then
  executable "$host"
  exit 0
fi

version="$(node -p "require('$root/package.json').version")"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
for platform in $platforms; do
  if [ "${platform%-*}" = darwin ] && [ "$platform" != "$host" ] && [ -z "$(signer)" ]; then
    say "skipping $platform: macOS runs only signed executables and neither codesign nor rcodesign is on PATH"
    say "  (cargo install apple-codesign, or build on macOS: see docs/guide/plugin.md)"
    continue
  fi
  exe="$(executable "$platform")"
  name="pulumi-resource-txmail-v$version-$platform.tar.gz"
  # Packed once per build (gzip of ~100 MB takes seconds), then copied.
  if [ ! -f "$build/$platform/$name" ]; then
    tar -C "$(dirname "$exe")" -czf "$build/$platform/$name.tmp" "$(basename "$exe")"
    mv "$build/$platform/$name.tmp" "$build/$platform/$name"
  fi
  tarball="$out/$name"
  cp "$build/$platform/$name" "$tarball"
  (cd "$out" && sha256 "$name" >"$name.sha256")
  say "wrote $tarball ($(du -h "$tarball" | cut -f1); executable $(du -h "$exe" | cut -f1))"
  printf '%s\n' "$tarball"
done
