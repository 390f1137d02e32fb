#!/usr/bin/env bash
# The fleet benchmark (bench/fleet.ts): one stack vs the fleet at 200 tenants, the fleet at 1 000
# tenants (up, no-op preview, one tenant's change), against the emulator; writes the "Fleets" section
# of bench/RESULTS.md. Loopback only. Takes ~15-25 minutes on a 2-core machine.
#   bash scripts/bench-fleet.sh
#   BENCH_FLEET_COMPARE=20 BENCH_FLEET_TENANTS=60 BENCH_FLEET_ONE_STACK=0 bash scripts/bench-fleet.sh   # quicker
#   BENCH_FLEET_SHARD_SIZE=50 BENCH_FLEET_PARALLEL=3 …   # other fleet settings than the command's defaults
set -euo pipefail
exec bash "$(dirname "$0")/bench.sh" fleet
