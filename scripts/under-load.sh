#!/usr/bin/env bash
# Runs jest beside busy loops, as a loaded CI machine would: the check that a test reading time holds
# at load averages above 15 on 2 cores (docs/guide/development.md, "Time in tests"). The loops are
# bounded by this script: they end with it, whatever jest does.
#   bash scripts/under-load.sh                     # the time-reading tests, twice, beside 14 loops
#   LOOPS=8 ROUNDS=1 bash scripts/under-load.sh test/unit/client   # any jest arguments
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=/dev/null
source "$root/.tools/env"
cd "$root"
loops="${LOOPS:-14}"
rounds="${ROUNDS:-2}"
if [ $# -eq 0 ]; then
  set -- test/unit/client/redact.test.ts test/unit/client/machinePace.test.ts \
    test/conformance/client/client.emulator.test.ts test/conformance/emulator/limits.test.ts \
    test/conformance/client/machinePace.emulator.test.ts
fi
pids=()
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for _ in $(seq "$loops"); do
  (while :; do :; done) &
  pids+=($!)
done
sleep 15 # let the load average climb
status=0
for round in $(seq "$rounds"); do
  echo "round $round: load average $(cut -d' ' -f1-3 /proc/loadavg)"
  node node_modules/jest/bin/jest.js --ci --maxWorkers=2 "$@" || status=1
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
