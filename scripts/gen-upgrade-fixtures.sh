#!/usr/bin/env bash
# Writes the upgrade fixtures (test/fixtures/upgrade/<face>/): for each face, the exported state of a
# stack made by test/fixtures/upgrade/program against a fresh emulator, and that stack's config file
# (its encryptionsalt and the emulator's account, the API key encrypted). test/e2e/upgrade.test.ts
# previews each with the current build and fails on a replacement or an unannounced diff.
#
# Run it with the release you are about to replace, not with the change you are making:
#   git worktree add /tmp/prev v0.1.0 && cd /tmp/prev && bash scripts/setup.sh   # that release
#   bash scripts/gen-upgrade-fixtures.sh <this checkout>/test/fixtures/upgrade     # its stacks, here
# (or on a clean checkout of main right after a release). Then empty announced.json: the
# differences it lists were announced by the release these fixtures now start from.
#
# The secrets stay ciphertext: the state and the config file are encrypted with the fixture-only
# passphrase in test/fixtures/upgrade/fixtures.json (the test's, too). The service's base URL is
# not in them (TXMAIL_BASE_URL, not txmail:baseUrl): a preview against another emulator port is then
# no change of the provider's settings.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(cd "${1:-test/fixtures/upgrade}" && pwd)"
# shellcheck disable=SC1091
source .tools/env
npx tsc -p tsconfig.json # the program, the plugin and the emulator run from dist/

passphrase="$(node -p 'require(process.argv[1]).passphrase' "$out/fixtures.json")"
stack="$(node -p 'require(process.argv[1]).stack' "$out/fixtures.json")"
work="$(mktemp -d)"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A fresh emulator per face: both stacks create the same objects.
start_emulator() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null || true; fi
  : >"$work/emulator.json"
  node dist/emulator/cli.js --port 0 >"$work/emulator.json" 2>"$work/emulator.log" &
  emulator_pid=$!
  for _ in $(seq 100); do
    [ -s "$work/emulator.json" ] && return 0
    sleep 0.1
  done
  cat "$work/emulator.log" >&2
  return 1
}
field() { node -p "JSON.parse(require('fs').readFileSync('$work/emulator.json','utf8')).$1"; }

for face in $(node -p 'require(process.argv[1]).faces.join(" ")' "$out/fixtures.json"); do
  start_emulator
  base_url="$(field baseUrl)"
  account_id="$(field accountId)"
  dir="$work/$face"
  mkdir -p "$dir"
  cp -r "$out/program" "$dir/program"
  # As `npm install pulumi-txmail` leaves it: the dynamic provider is stored as a short require().
  node -e 'require("./dist/support/package").installPackage(process.argv[1])' "$dir/program"
  # The checkout's plugin installed in a Pulumi home of the stack's own, as the tests have it.
  node dist/support/plugin.js "$dir/home" script
  (
    cd "$dir/program"
    export PULUMI_HOME="$dir/home" PULUMI_BACKEND_URL="file://$dir/state" PULUMI_CONFIG_PASSPHRASE="$passphrase"
    export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true TXMAIL_BASE_URL="$base_url"
    mkdir -p "$dir/state"
    pulumi stack init "$stack" --secrets-provider passphrase >/dev/null
    pulumi config set txmail:accountId "$account_id"
    field apiKey | pulumi config set --secret txmail:apiKey
    pulumi config set txmail:face "$face"
    pulumi up --yes --skip-preview --color never >"$dir/up.log" 2>&1 || {
      cat "$dir/up.log" >&2
      exit 1
    }
    mkdir -p "$out/$face"
    pulumi stack export >"$out/$face/state.json"
    cp "Pulumi.$stack.yaml" "$out/$face/Pulumi.$stack.yaml"
  )
  echo "$face: $(node -p 'require(process.argv[1]).deployment.resources.length' "$out/$face/state.json") resources in $out/$face"
done
npx prettier --write "$out"/*/state.json >/dev/null # the tree's JSON style (scripts/check.sh)
