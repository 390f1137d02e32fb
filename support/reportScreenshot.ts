// The screenshot of the fleet's HTML report in the README and docs/guide/fleets.md: a generated
// nightly `up` of 240 tenants (support/fleetReportFixture.ts) compared with the night before, one
// changed tenant opened, at desktop width in headless Chromium.
// Run: npm run gen:report-screenshot   (writes docs/guide/images/fleet-report.png)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { renderPage } from "../fleet/html/page";
import { compareViews, tenantView } from "../fleet/html/view";
import { launchChromium } from "./browser";
import { reportFixture } from "./fleetReportFixture";
import { REPO_ROOT } from "./root";

async function main(): Promise<void> {
  const now = reportFixture({ command: "up", tenants: 240, shardSize: 20, parallel: 3 });
  const before = reportFixture({ command: "up", tenants: 240, shardSize: 20, parallel: 3, seed: 62 });
  const compare = compareViews(
    { command: "up", startedAt: "2026-11-26T02:00:00.000Z" },
    tenantView(before.report),
    tenantView(now.report),
  );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "txmail-shot-")), "report.html");
  fs.writeFileSync(file, renderPage(now.report, { compare }));
  const out = path.join(REPO_ROOT, "docs", "guide", "images", "fleet-report.png");
  const chromium = await launchChromium();
  try {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.goto(`file://${file}`);
    await page.waitForSelector("body[data-ready='1']", { state: "attached" });
    await page.click("#statuses button[data-status=changed]");
    await page.click(`#rows button[data-open="${now.expected.changed[1]}"]`);
    await page.screenshot({ path: out });
  } finally {
    await chromium.close();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  process.stdout.write(`${out}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
