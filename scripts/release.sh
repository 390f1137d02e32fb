#!/usr/bin/env bash
# Builds every artifact of a release from a clean tree, with the version stamped into all of them:
#
#   bash scripts/release.sh VERSION [--out DIR] [--platform OS-ARCH ...]
#
#   DIR (default dist-release/) receives
#     npm/pulumi-txmail-VERSION.tgz                      `npm publish` it
#     python/pulumi_txmail-VERSION.tar.gz, …-py3-none-any.whl   `twine upload` them
#     go/<module>/@v/{list,vVERSION.info,.mod,.zip}      the Go SDK in the module proxy's layout; the
#                                                        tag to push is sdk/go/vVERSION
#     maven/<group path>/<artifact>/VERSION/…            the Java SDK in a Maven repository's layout: jar,
#                                                        sources and javadoc jars, pom, each with .md5 and
#                                                        .sha1 (what Maven Central requires; sign them there)
#     plugin/pulumi-resource-txmail-vVERSION-<os>-<arch>.tar.gz and .sha256   the release page's assets
#     schema.json                                        the package schema
#     release.json                                       what is where (version, Go module and tag, files)
#
# Built only from what git knows: the files of the commit are copied to a temporary directory, where
# the dependencies are installed from the lockfile (`npm ci`: with npm_config_offline=true, from
# npm's cache alone) and everything is built and generated afresh — nothing of the checkout's dist/
# or node_modules is used, so a stale or stray build output cannot ship. Only the toolchain comes
# from the checkout's .tools (the Pulumi CLI, the Python venv, the Node binaries plugins are built
# with: setup's pinned tools, not the project's code). The checkout is never modified.
#
# The version lives in one place, package.json (scripts/set-version.sh); the schema and the SDK
# generators read it from there. The commit released must already say VERSION there and hold what
# the release generates — native/schema.json and the generated SDKs under sdk/ (Go users fetch the
# module from the tag, not from this script's output) — else the release stops before packing
# anything, naming what differs (the version at once; the SDKs in seconds, generated from the
# commit's schema before the slow install): set the version, `npm run gen:sdks`, commit. Plugins: linux-amd64, linux-arm64 and windows-amd64 by default
# (--platform picks others; darwin builds run on Macs: examples/ci/release.yml). Last, every artifact
# is checked to agree on the version and the schema (support/release.ts) before anything is kept.

set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '[release] %s\n' "$*" >&2; }
die() { printf '[release] error: %s\n' "$*" >&2; exit 1; }
since() { echo "$(($(date +%s) - $1)) s"; }
usage="usage: release.sh VERSION [--out DIR] [--platform OS-ARCH ...]"

version=""
out="$root/dist-release"
platforms=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out takes a directory"; out="$2"; shift ;;
    --platform) [ $# -ge 2 ] || die "--platform takes OS-ARCH (scripts/build-plugin.sh)"; platforms="$platforms --platform $2"; shift ;;
    -*) die "$usage" ;;
    *) [ -z "$version" ] || die "$usage"; version="$1" ;;
  esac
  shift
done
[ -n "$version" ] || die "$usage"
# X.Y.Z only: npm, PyPI and Go spell pre-releases differently (1.2.3-rc.1 is not a PEP 440 version).
[[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] ||
  die "'$version' is not a version like 1.2.3 (no leading v, no pre-release label)"
[ -n "$platforms" ] || platforms="--platform linux-amd64 --platform linux-arm64 --platform windows-amd64"

cd "$root"
dirty="$(git status --porcelain --untracked-files=normal)"
[ -z "$dirty" ] || die "the tree has changes that are not committed; a release is built from a clean tree.
Commit or stash them first:
$dirty"
committed_version="$(git show HEAD:package.json | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).version')"
[ "$committed_version" = "$version" ] || die "package.json of this commit says version '$committed_version', not $version.
Set the version, regenerate and commit, then release that commit:
  bash scripts/set-version.sh $version && npm run gen:sdks && git commit -am 'release v$version'"
[ -x "$root/.tools/python/bin/python" ] || die "no Python venv: run 'bash scripts/setup.sh --with sdkgen' first"
command -v go >/dev/null || die "Go (>= 1.26) is needed to generate the Go SDK"
command -v mvn >/dev/null || die "Maven (mvn) is needed to build the Java SDK: run 'bash scripts/setup.sh --with java' first"

started=$(date +%s)
work="$(mktemp -d -t txmail-release-XXXXXX)"
trap 'rm -rf "$work"' EXIT
tree="$work/tree"
mkdir -p "$tree"
# The commit's files (the tree is clean, checked above).
git archive HEAD | tar -xf - -C "$tree"
ln -s "$(readlink -f "$root/.tools")" "$tree/.tools"
# What the commit holds of what the release generates, to compare with what it generates below.
committed="$work/committed"
mkdir -p "$committed/native"
cp -a "$tree/sdk" "$committed/sdk"
cp -a "$tree/native/schema.json" "$committed/native/schema.json"

# Each step's output goes to the terminal (errors included); a failing step stops the release by name.
step() { # step NAME COMMAND... (in the tree)
  local name="$1"
  shift
  (cd "$tree" && "$@") || die "$name failed (above)"
}
# Go users get the module from the repository at the tag sdk/go/v$version (the module proxy zips
# that tree), Python and Java users what was built from it: the commit must hold what is generated.
refuse_if_stale() { # refuse_if_stale WHAT... (paths under the tree)
  local stale="" what
  for what in "$@"; do stale="$stale$(diff -r -q "$committed/$what" "$tree/$what")" || true; done
  [ -z "$stale" ] || die "the commit's generated files are not what v$version generates (a release ships only what the tag holds):
${stale//$work\//}
Regenerate and commit, then release that commit:
  bash scripts/set-version.sh $version && npm run gen:sdks && git commit -am 'release v$version'"
}
# First the SDKs from the commit's schema (Go tools only: seconds), before the slow install.
say "generating the SDKs from the commit's schema"
step "the SDK generators" bash scripts/gen-sdks.sh
refuse_if_stale sdk
say "installing the dependencies from the lockfile (npm ci) in $tree"
step "npm ci" npm ci --no-audit --no-fund >&2
say "building and generating the schema"
step "the TypeScript build" node node_modules/typescript/bin/tsc -p tsconfig.json
step "the schema generator" node dist/native/schema/generate.js >/dev/null
# The schema from the declarations: the same as the commit's, so the SDKs above are the release's.
refuse_if_stale native/schema.json

rm -rf "$out"
mkdir -p "$out"/{npm,python,go,maven,plugin}
out="$(cd "$out" && pwd)"

say "npm package"
(cd "$tree" && npm pack --silent --pack-destination "$out/npm" >/dev/null)

say "Python sdist and wheel"
# --no-isolation: the venv's pinned setuptools builds it (no download of a build environment).
"$root/.tools/python/bin/python" -m build --no-isolation --sdist --wheel --outdir "$out/python" "$tree/sdk/python" \
  >"$work/python-build.log" 2>&1 || { cat "$work/python-build.log" >&2; die "python -m build failed"; }

say "Go module in the module proxy's layout"
commit_time="$(git log -1 --format=%cI HEAD)"
(cd "$tree/tools/langhost" && GOFLAGS=-mod=readonly go run ./cmd/gomodproxy -dir "$tree/sdk/go" -version "v$version" \
  -time "$commit_time" -out "$out/go")
go_module="$(sed -n 's/^module[[:space:]]*//p' "$tree/sdk/go/go.mod")"

say "Java SDK's Maven artifacts in a Maven repository's layout"
# `mvn deploy` to a file:// repository: Maven's own deploy writes the layout, the checksums and the
# metadata a remote repository holds. Against a copy of setup's Maven repository when there is one
# (never written into), with a mirror that leads nowhere: what is not in the copy fails, not fetched.
# Maven refuses to deploy in offline mode (-o), hence the mirror instead.
maven_args=(-B --no-transfer-progress)
if [ -f "$root/.tools/maven-repo/.complete" ]; then
  cp -r "$(readlink -f "$root/.tools/maven-repo")" "$work/m2"
  printf '%s\n' '<settings><mirrors><mirror><id>central</id><mirrorOf>*</mirrorOf>' \
    "<url>file://$work/no-network</url></mirror></mirrors></settings>" >"$work/m2-settings.xml"
  maven_args+=(-s "$work/m2-settings.xml" "-Dmaven.repo.local=$work/m2")
fi
# Built in a copy: Maven's target/ stays out of the release tree's sdk/java.
cp -r "$tree/sdk/java" "$work/sdk-java"
mvn "${maven_args[@]}" -f "$work/sdk-java/pom.xml" deploy -DaltDeploymentRepository="release::file://$out/maven" \
  >"$work/maven-deploy.log" 2>&1 || { cat "$work/maven-deploy.log" >&2; die "mvn deploy of sdk/java failed"; }

say "plugin tarballs:$platforms"
# shellcheck disable=SC2086 # the --platform pairs are meant to split
bash "$tree/scripts/build-plugin.sh" $platforms --out "$out/plugin" >/dev/null

cp "$tree/native/schema.json" "$out/schema.json"
# release.json: what is where; the Java SDK named by its pom's own coordinates (read as XML).
node "$tree/dist/support/releaseManifest.js" "$out" "$version" "$go_module" "$tree/sdk/java/pom.xml" ||
  die "writing release.json failed (above)"

node "$tree/dist/support/release.js" "$out" || die "the artifacts in $out disagree (above)"
say "release $version in $out ($(since "$started")); Go tag: sdk/go/v$version"
