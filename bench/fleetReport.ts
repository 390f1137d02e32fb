// The fleet's HTML report in headless Chromium (issue 63): for reports of 1 000 and 10 000 tenants
// (up, drift and dns runs from support/fleetReportFixture.ts), the file's size, the first paint and
// the time until the table is drawn, and a status filter's click until the next frame.
// Goals at 1 000 tenants: drawn ≤ 1 s, a filter click ≤ 100 ms; the file ≤ 3 MB at 10 000.
// Run: bash scripts/bench.sh fleet-report   (BENCH_REPORT_TENANTS=1000,10000 BENCH_REPS=5)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { launchChromium } from "../support/browser";
import { type FixtureCommand, reportFixture } from "../support/fleetReportFixture";
import { renderPage } from "../fleet/html/page";
import { STATUSES } from "../fleet/html/view";
import { publishSection, runBenchmark } from "./section";

// page.evaluate's functions run in the page: its globals.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped here: bench/ compiles without the DOM library
declare const document: any, performance: any, requestAnimationFrame: any;

interface Row {
  tenants: number;
  command: FixtureCommand;
  bytes: number;
  firstPaintMs: number;
  drawnMs: number;
  filterMs: number;
  searchMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_REPORT_TENANTS ?? "1000,10000").split(",").map(Number);
  const reps = Number(process.env.BENCH_REPS ?? 5);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-report-bench-"));
  const chromium = await launchChromium();
  const rows: Row[] = [];
  try {
    for (const tenants of sizes) {
      for (const command of ["up", "drift", "dns"] as const) {
        const file = path.join(dir, `${command}-${tenants}.html`);
        fs.writeFileSync(file, renderPage(reportFixture({ command, tenants }).report));
        const runs: Omit<Row, "tenants" | "command" | "bytes">[] = [];
        for (let i = 0; i < reps; i++) {
          const page = await chromium.context.newPage();
          await page.goto(`file://${file}`);
          await page.waitForSelector("body[data-ready='1']", { state: "attached" });
          const load = await page.evaluate(() => ({
            fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
            drawn: performance.getEntriesByName("txmail-ready")[0].startTime,
          }));
          // Each status filter on and off: the slowest click until the next frame is drawn.
          const filterMs = await page.evaluate(
            async (statuses: string[]) => {
              const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
              let worst = 0;
              for (const s of statuses) {
                for (let k = 0; k < 2; k++) {
                  const t0 = performance.now();
                  document.querySelector(`#statuses button[data-status=${s}]`).click();
                  await frame();
                  worst = Math.max(worst, performance.now() - t0);
                }
              }
              return worst;
            },
            [...STATUSES],
          );
          // A search (its 60 ms pause after typing not counted): until the next frame.
          const searchMs = await page.evaluate(async () => {
            const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            const input = document.getElementById("search");
            input.value = "tenant-001";
            input.dispatchEvent(new Event("input"));
            await new Promise((r) => setTimeout(r, 70));
            const t0 = performance.now();
            input.value = "tenant-0012";
            input.dispatchEvent(new Event("input"));
            await new Promise((r) => setTimeout(r, 61));
            await frame();
            return performance.now() - t0 - 61;
          });
          runs.push({ firstPaintMs: load.fcp, drawnMs: load.drawn, filterMs, searchMs });
          await page.close();
        }
        const row: Row = {
          tenants,
          command,
          bytes: fs.statSync(file).size,
          firstPaintMs: median(runs.map((r) => r.firstPaintMs)),
          drawnMs: median(runs.map((r) => r.drawnMs)),
          filterMs: median(runs.map((r) => r.filterMs)),
          searchMs: median(runs.map((r) => r.searchMs)),
        };
        process.stderr.write(`${JSON.stringify(row)}\n`);
        rows.push(row);
      }
    }
  } finally {
    await chromium.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const firstUp = firstUpSize(Math.max(...sizes));
  publishSection(section(rows, reps, firstUp), { name: "fleet-report", result: { rows, firstUp } });
}

/** The largest report: a fleet's first `up`, each tenant's 6 resources created (sizes only). */
function firstUpSize(tenants: number): { tenants: number; jsonBytes: number; htmlBytes: number } {
  const { report } = reportFixture({ command: "up", tenants });
  const kinds = ["SubAccount", "SubAccountApiKey", "Domain", "Webhook", "SmtpCredential", "Route"];
  report.changes = report.shards.flatMap((s) =>
    s.tenants.flatMap((t) =>
      kinds.map((kind) => ({ tenant: t, resource: `${t}-${kind}`, kind, op: "create" as const, fields: [] })),
    ),
  );
  return { tenants, jsonBytes: JSON.stringify(report).length, htmlBytes: Buffer.byteLength(renderPage(report)) };
}

function section(
  rows: Row[],
  reps: number,
  firstUp: { tenants: number; jsonBytes: number; htmlBytes: number },
): string[] {
  const met = (ok: boolean) => (ok ? "met" : "**missed**");
  return [
    "## The fleet's HTML report in headless Chromium",
    "",
    `Command: \`bash scripts/bench.sh fleet-report\`${process.env.BENCH_REPORT_TENANTS ? ` (BENCH_REPORT_TENANTS=${process.env.BENCH_REPORT_TENANTS})` : ""}; ` +
      `${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; Debian's Chromium, headless, through playwright-core. ` +
      `Reports generated by support/fleetReportFixture.ts (a nightly run: ~10 % of tenants changed, drifted or not ` +
      `seen in DNS; DNS reports with 3 records a tenant). Medians of ${reps} loads. First paint: the browser's ` +
      `first-contentful-paint; drawn: the page's own mark once the table, chart and counts are drawn; filter: the slowest ` +
      `of the five status filters clicked on and off, until the next frame; search: a typed search until the next ` +
      `frame (its 60 ms typing pause not counted). Goals: first paint and drawn ≤ 1 000 ms and filter ≤ 100 ms at 1 000 tenants; ` +
      `the file ≤ 3 MB at 10 000 (a report's data above 1.5 MB of JSON is embedded gzipped).`,
    "",
    "| tenants | run | file (KB) | first paint (ms) | drawn (ms) | filter click (ms) | search (ms) | goals |",
    "| ------- | --- | --------- | ---------------- | ---------- | ----------------- | ----------- | ----- |",
    ...rows.map((r) => {
      const goal =
        r.tenants <= 1000
          ? met(Math.max(r.firstPaintMs, r.drawnMs) <= 1000 && r.filterMs <= 100)
          : met(r.bytes <= 3 * 1024 * 1024);
      return `| ${r.tenants} | ${r.command} | ${(r.bytes / 1024).toFixed(0)} | ${r.firstPaintMs.toFixed(0)} | ${r.drawnMs.toFixed(0)} | ${r.filterMs.toFixed(1)} | ${r.searchMs.toFixed(1)} | ${goal} |`;
    }),
    "",
    `The largest report, a first \`up\` of ${firstUp.tenants} tenants (every resource created: ${firstUp.tenants * 6} ` +
      `changes), is ${(firstUp.jsonBytes / 1e6).toFixed(2)} MB of JSON and a ${(firstUp.htmlBytes / 1024).toFixed(0)} KB page.`,
  ];
}

runBenchmark(main);
