#!/usr/bin/env node
// @ts-check
// Reads jest's --json results and prints the suite's closing line, "N passed, N failed" (with
// ", N skipped" when any test was skipped or todo), which CI counts. Every way a run can fail counts:
// a failed test, and a suite that failed with no failed test of its own — one that could not load
// (syntax or type error) or whose beforeAll/afterAll hook threw after its tests passed (jest marks
// only the suite). Exits non-zero whenever the line reports a failure, so the line and the exit code
// never disagree. Usage: node scripts/jest-summary.js results.json [checks.log]
// With checks.log (the output of scripts/check.sh), each static check counts as one test: its
// closing line "checks: N passed, N failed" adds to the totals, and a log without it counts as one
// failure (the checks did not finish).
"use strict";
const fs = require("node:fs");

/**
 * @param {any} results jest's JSON report
 * @returns {{ passed: number, failed: number, skipped: number, lines: string[] }}
 */
function summarize(results) {
  const lines = [];
  let failedTests = 0;
  let erroredSuites = 0;
  let skipped = 0;
  for (const suite of results.testResults ?? []) {
    const tests = suite.assertionResults ?? [];
    const failedHere = tests.filter((t) => t.status === "failed").length;
    failedTests += failedHere;
    for (const t of tests) {
      if (t.status === "pending" || t.status === "skipped" || t.status === "todo" || t.status === "disabled") {
        skipped++;
        lines.push(`${t.status}: ${suite.name} › ${t.fullName ?? t.title}`);
      }
    }
    if (suite.status === "failed" && failedHere === 0) {
      erroredSuites++;
      const reason = String(suite.message ?? suite.failureMessage ?? "")
        .trim()
        .split("\n")
        .find((l) => l.trim());
      lines.push(`suite error (no failed test): ${suite.name}${reason ? ` — ${reason.trim()}` : ""}`);
    }
  }
  const passed = (results.testResults ?? []).reduce(
    (n, s) => n + (s.assertionResults ?? []).filter((t) => t.status === "passed").length,
    0,
  );
  // A run jest itself calls failed with nothing above to show for it (e.g. no tests found) still fails.
  const unexplained = results.success === false && failedTests + erroredSuites === 0 ? 1 : 0;
  if (unexplained) lines.push("jest reported the run as failed (no tests found, or an error outside any suite)");
  return { passed, failed: failedTests + erroredSuites + unexplained, skipped, lines };
}

/**
 * The files that took longest, each on the one worker that ran it: where the suite's time goes,
 * in every CI log (docs/guide/development.md keeps a table of them).
 * @param {any} results jest's JSON report
 * @param {number} count how many files
 * @param {string} root prefix stripped from file names
 * @returns {string[]}
 */
function slowest(results, count, root = "") {
  const files = (results.testResults ?? [])
    .filter((s) => typeof s.startTime === "number" && typeof s.endTime === "number")
    .map((s) => ({ name: String(s.name).replace(root, ""), seconds: (s.endTime - s.startTime) / 1000 }));
  if (files.length === 0) return [];
  const total = files.reduce((n, f) => n + f.seconds, 0);
  files.sort((a, b) => b.seconds - a.seconds);
  return [
    `worker time ${Math.round(total)} s in ${files.length} files; the slowest:`,
    ...files.slice(0, count).map((f) => `${String(Math.round(f.seconds)).padStart(6)} s  ${f.name}`),
  ];
}

/**
 * @param {string} log the output of scripts/check.sh
 * @returns {{ passed: number, failed: number }}
 */
function countChecks(log) {
  const m = /^checks: (\d+) passed, (\d+) failed$/m.exec(log);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : { passed: 0, failed: 1 };
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node scripts/jest-summary.js <jest --json results file>");
    process.exit(2);
  }
  let results;
  try {
    results = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    // jest died before writing its report: nothing passed that anyone can count.
    console.log(`no jest results in ${file}: ${err instanceof Error ? err.message : err}`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  const s = summarize(results);
  const checksLog = process.argv[3];
  if (checksLog) {
    const checks = countChecks(fs.existsSync(checksLog) ? fs.readFileSync(checksLog, "utf8") : "");
    s.passed += checks.passed;
    s.failed += checks.failed;
    if (checks.failed) s.lines.push(`static checks: ${checks.failed} failed (scripts/check.sh, output above)`);
  }
  for (const line of slowest(results, 15, `${process.cwd()}/`)) console.log(line);
  for (const line of s.lines) console.log(line);
  console.log(`${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ""}`);
  process.exit(s.failed > 0 ? 1 : 0);
}

module.exports = { summarize, countChecks, slowest };
