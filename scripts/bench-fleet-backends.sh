#!/usr/bin/env bash
# The fleet on a shared backend (bench/fleetBackends.ts): 1 000 tenants on the file backend and on a
# real PostgreSQL server, two runners vs one on PostgreSQL, and the fleet floor, in one run; writes
# the "Shared-backend fleets" section of bench/RESULTS.md. Loopback only. ~30-60 minutes on a
# 2-core machine.
#   bash scripts/bench-fleet-backends.sh
#   BENCH_FLEET_TENANTS=120 bash scripts/bench-fleet-backends.sh   # quicker
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# shellcheck disable=SC1091
source .tools/env
npx tsc -p tsconfig.json # the fleet command runs from dist/
rm -rf bench/out
npx tsc -p bench/tsconfig.json
node bench/out/bench/fleetBackends.js
