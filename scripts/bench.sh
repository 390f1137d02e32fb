#!/usr/bin/env bash
# Runs the benchmarks (bench/) and writes bench/RESULTS.md. Loopback only; every loop bounded.
#   bash scripts/bench.sh                 # 10 and 50 tenants, 3 runs each, 1 000 creates
#   BENCH_TENANTS=10 BENCH_REPS=1 bash scripts/bench.sh   # quicker
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# shellcheck disable=SC1091
source .tools/env
rm -rf bench/out
npx tsc -p bench/tsconfig.json
node bench/out/bench/report.js
