#!/usr/bin/env bash
# The acceptance run against a real account (docs/guide/acceptance.md): every kind's lifecycle through
# the Pulumi engine on both faces, sweepers, and a contract report. Reads TXMAIL_API_KEY,
# TXMAIL_ACCOUNT_ID, TXMAIL_BASE_URL; refuses to start without
# TXMAIL_ACCEPTANCE=i-understand-this-creates-objects. Arguments go to the runner (--sweep-only, …).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ ! -x "$root/.tools/bin/pulumi" || ! -x "$root/.tools/plugin/pulumi-resource-txmail" || ! -f "$root/dist/acceptance/main.js" ]]; then
  bash "$root/scripts/setup.sh" --with yaml >&2
fi
# shellcheck source=/dev/null
source "$root/.tools/env" # the Node and Pulumi CLI setup installed
exec node "$root/dist/acceptance/main.js" "$@"
