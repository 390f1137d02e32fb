#!/usr/bin/env bash
# A/B of one change on the 50-tenant up (issue 49): the same command (bench/upOnce.ts) run in two
# checkouts, interleaved A B B A … so the machine's drift falls on both alike; prints every run and
# the medians, with the paired ratio B ÷ A (the median over rounds of the ratio within a round).
#   bash scripts/ab.sh A_DIR B_DIR [ROUNDS]   (BENCH_PROGRAM, BENCH_MODE, BENCH_TENANTS as upOnce.ts)
# Each directory is a checkout with its setup done and dist/ and bench/out/ built.
set -euo pipefail
a="$(cd "$1" && pwd)" b="$(cd "$2" && pwd)" rounds="${3:-4}"
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source .tools/env
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
run() { (cd "$1" && node bench/out/bench/upOnce.js) | tail -1 >>"$out/$2"; }
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then run "$a" a; run "$b" b; else run "$b" b; run "$a" a; fi
  echo "round $((r + 1)): A $(tail -1 "$out/a")" >&2
  echo "round $((r + 1)): B $(tail -1 "$out/b")" >&2
done
node -e '
const fs = require("fs");
const read = (f) => fs.readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const [a, b] = [read(process.argv[1]), read(process.argv[2])];
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const r2 = (x) => Math.round(x * 100) / 100;
const show = (rs) => `${rs.map((r) => r.seconds).join(" / ")} (median ${median(rs.map((r) => r.seconds))} s, state ${median(rs.map((r) => r.stateBytesPerResource))} B/resource, CPU ${JSON.stringify(Object.fromEntries(Object.keys(rs[0].cpu).map((k) => [k, r2(median(rs.map((r) => r.cpu[k])))])))})`;
console.log(`A: ${show(a)}`);
console.log(`B: ${show(b)}`);
console.log(`B ÷ A: medians ${r2(median(b.map((r) => r.seconds)) / median(a.map((r) => r.seconds)))}, paired ${r2(median(b.map((r, i) => r.seconds / a[i].seconds)))}`);
' "$out/a" "$out/b"
