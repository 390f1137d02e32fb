#!/usr/bin/env bash
# Runs a benchmark (bench/) and writes its section of bench/RESULTS.md. Loopback only; every loop
# bounded. One target per run:
#   bash scripts/bench.sh                 # report: 10 and 50 tenants vs the floors, 1 000 creates, …
#   bash scripts/bench.sh checkpoints     # state saved after every step vs once per run, 50 tenants
#   bash scripts/bench.sh profile         # where a 50-tenant up spends its time, per process, both faces and modes
#   bash scripts/bench.sh fleet           # one stack vs shard stacks, 1 000 tenants (bench/fleet.ts)
#   bash scripts/bench.sh fleet-backends  # file and PostgreSQL, 1 and 2 runners, beside fleet floors
#   bash scripts/bench.sh fleet-levers    # engine settings (PULUMI_PARALLEL_DIFF) on a fleet, A vs B
#   bash scripts/bench.sh backend-preview # a no-op fleet preview: PostgreSQL vs file, with and without gzip
#   bash scripts/bench.sh fleet-profile   # a fleet's up beside its floor's: CPU per kind of process
#   bash scripts/bench.sh fleet-drift     # `txmail-fleet drift` vs a no-op preview, 1 000 tenants
#   bash scripts/bench.sh fleet-rotate    # `txmail-fleet rotate` (every key due) vs a no-op up, 1 000 tenants
#   bash scripts/bench.sh fleetMove       # `txmail-fleet place` moving 100 tenants between two shards (200 tenants)
#   bash scripts/bench.sh fleet-report    # the HTML report in headless Chromium, 1 000 and 10 000 tenants
#   bash scripts/bench.sh domain-verification   # N domains verified in one up vs one domain
#   BENCH_TENANTS=10 BENCH_REPS=1 bash scripts/bench.sh   # quicker (each script's header lists its knobs)
#   BENCH_FLEET_COMPARE=20 BENCH_FLEET_TENANTS=60 BENCH_FLEET_ONE_STACK=0 bash scripts/bench.sh fleet   # quicker
#   BENCH_FLEET_SHARD_SIZE=50 BENCH_FLEET_PARALLEL=3 bash scripts/bench.sh fleet   # other fleet settings
#   BENCH_FLEET_TENANTS=120 bash scripts/bench.sh fleet-backends   # quicker
#   BENCH_FLEET_TENANTS=60 BENCH_REPS=1 bash scripts/bench.sh fleet-drift   # quicker
#   BENCH_FLEET_TENANTS=60 BENCH_REPS=1 bash scripts/bench.sh fleet-rotate  # quicker
# Times on a 2-core machine: fleet ~15-25 minutes, fleet-backends ~30-60 minutes, fleet-drift ~15 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-report}"
case "$target" in
  report | checkpoints | profile | fleet | fleet-backends | backend-preview | fleet-profile | fleet-levers | fleet-drift | fleet-rotate | fleetMove | fleet-report | domain-verification) ;;
  *)
    echo "bench.sh: unknown target '$target' (report, checkpoints, profile, fleet, fleet-backends, backend-preview, fleet-profile, fleet-levers, fleet-drift, fleet-rotate, fleetMove, fleet-report, domain-verification)" >&2
    exit 2
    ;;
esac
# fleet-report drives Debian's Chromium (setup --with browser installs it).
if [ "$target" = fleet-report ]; then bash scripts/setup.sh --with browser; else bash scripts/setup.sh; fi
# shellcheck disable=SC1091
source .tools/env
npx tsc -p tsconfig.json # the programs and the fleet command run from dist/
rm -rf bench/out
npx tsc -p bench/tsconfig.json
case "$target" in
  fleet-backends) node bench/out/bench/fleetBackends.js ;;
  backend-preview) node bench/out/bench/backendPreview.js ;;
  fleet-profile) node bench/out/bench/fleetProfile.js ;;
  fleet-levers) node bench/out/bench/fleetLevers.js ;;
  fleet-drift) node bench/out/bench/fleetDrift.js ;;
  fleet-rotate) node bench/out/bench/fleetRotate.js ;;
  fleet-report) node bench/out/bench/fleetReport.js ;;
  domain-verification) node bench/out/bench/domainVerification.js ;;
  *) node "bench/out/bench/$target.js" ;;
esac
