#!/usr/bin/env bash
# The fleet on a shared backend (bench/fleetBackends.ts): 1 000 tenants on the file backend and on a
# real PostgreSQL server, two runners vs one on PostgreSQL, and the fleet floor, in one run; writes
# the "Shared-backend fleets" section of bench/RESULTS.md. Loopback only. ~30-60 minutes on a
# 2-core machine.
#   bash scripts/bench-fleet-backends.sh
#   BENCH_FLEET_TENANTS=120 bash scripts/bench-fleet-backends.sh   # quicker
set -euo pipefail
exec bash "$(dirname "$0")/bench.sh" fleet-backends
