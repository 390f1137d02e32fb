#!/usr/bin/env bash
# The main job, for a newcomer with no account: set everything up, start the local emulator (a
# persistent, strict implementation of the service), and `pulumi up` the root stack, which
# provisions the example tenants of tenants.yaml. Idempotent: a second run reports no changes.
#
#   bash scripts/demo.sh          # set up, start the emulator, pulumi up
#   bash scripts/demo.sh down     # pulumi destroy, then stop the emulator
#
# State stays in .state/ (ignored): the emulator's SQLite data and a file:// Pulumi backend.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
# shellcheck source=/dev/null
source "$root/.tools/env"
cd "$root"

state="$root/.state"
port="${TXMAIL_EMULATOR_PORT:-4170}"
# Private files from here on: the emulator's output (emulator.out holds its root key) and the local
# backend are secrets; the emulator makes its own data directory 0700 either way.
umask 077
mkdir -p "$state/emulator" "$state/backend"
export PULUMI_BACKEND_URL="file://$state/backend"
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-txmail-demo}"
stack="${TXMAIL_STACK:-dev}"

emulator_running() { [ -f "$state/emulator.pid" ] && kill -0 "$(cat "$state/emulator.pid")" 2>/dev/null; }

if [ "${1:-}" = "down" ]; then
  if emulator_running; then
    pulumi destroy --yes --stack "$stack" --non-interactive || true
    kill "$(cat "$state/emulator.pid")" && rm -f "$state/emulator.pid"
    echo "Destroyed stack '$stack' and stopped the emulator. Remove .state/ to forget everything."
  else
    echo "The emulator is not running; start it with 'bash scripts/demo.sh' first."
  fi
  exit 0
fi

if ! emulator_running; then
  # The emulator prints one JSON line {baseUrl, accountId, apiKey} and keeps running in the background.
  nohup node dist/emulator/cli.js --port "$port" --data "$state/emulator" >"$state/emulator.out" 2>"$state/emulator.log" &
  echo $! >"$state/emulator.pid"
  for _ in $(seq 1 100); do [ -s "$state/emulator.out" ] && break; sleep 0.1; done
  [ -s "$state/emulator.out" ] || { cat "$state/emulator.log" >&2; echo "the emulator did not start" >&2; exit 1; }
fi
bootstrap="$state/emulator/bootstrap.json"
field() { node -p "JSON.parse(require('fs').readFileSync('$bootstrap','utf8')).$1"; }

pulumi stack select --create "$stack" --non-interactive >/dev/null
pulumi config set txmail:baseUrl "$(field baseUrl)" --stack "$stack"
pulumi config set txmail:accountId "$(field accountId)" --stack "$stack"
field apiKey | pulumi config set --secret txmail:apiKey --stack "$stack"

pulumi up --yes --stack "$stack" --non-interactive --skip-preview
echo
echo "Outputs (secrets masked):"
pulumi stack output --stack "$stack"
cat <<EOF

Reveal one secret:  source .tools/env && PULUMI_BACKEND_URL=$PULUMI_BACKEND_URL PULUMI_CONFIG_PASSPHRASE=$PULUMI_CONFIG_PASSPHRASE pulumi stack output --show-secrets --stack $stack --json
Tear down:          bash scripts/demo.sh down
EOF
