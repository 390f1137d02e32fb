// The fleet's HTML report (issue 63) in a real browser: Debian's Chromium, headless, driven over the
// DevTools protocol by puppeteer-core (support/browser.ts). Reports of 200 tenants generated with the
// fleet's own builders (support/fleetReportFixture.ts), which also say which tenants have each
// status; the page must load with no console error and no request but its own file, show those
// counts, filter and search to exactly those tenants, render a non-blank screenshot at desktop
// width, and pass axe-core's accessibility rules with no violation.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium, watchPage, type PageWatch } from "../../support/browser";
import { type FixtureCommand, reportFixture, type ReportFixture } from "../../support/fleetReportFixture";
import { renderPage, type PageOptions } from "../../fleet/html/page";
import { compareViews, STATUSES, tenantView } from "../../fleet/html/view";

jest.setTimeout(60_000);

// The functions handed to page.evaluate run in the page: these are its globals (the tests' own
// compilation has no DOM library, which would clash with Node's types).
declare const document: any, window: any, Image: any, requestAnimationFrame: any;

const AXE = require.resolve("axe-core/axe.min.js");
const SCREENSHOT = path.join(os.tmpdir(), "txmail-fleet-report-test.png");

let chromium: { context: BrowserContext; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-report-"));
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(
  name: string,
  f: ReportFixture,
  opts: PageOptions = {},
): Promise<{ page: Page; watch: PageWatch; file: string }> {
  const file = path.join(dir, `${name}.html`);
  fs.writeFileSync(file, renderPage(f.report, opts));
  const page = await chromium.context.newPage();
  const watch = await watchPage(page);
  await page.goto(`file://${file}`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 10_000, state: "attached" });
  return { page, watch, file };
}

/** Every tenant the table lists now: scrolled through, since it renders only the rows in view. */
async function listed(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const sc = document.getElementById("scroller")!;
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const seen = new Set<string>();
    for (let y = 0; ; y += sc.clientHeight) {
      sc.scrollTop = y;
      await frame();
      for (const tr of document.querySelectorAll("#rows tr[data-tenant]")) seen.add(tr.getAttribute("data-tenant")!);
      if (y + sc.clientHeight >= sc.scrollHeight) break;
    }
    sc.scrollTop = 0;
    return [...seen].sort();
  });
}

async function click(page: Page, selector: string): Promise<void> {
  await page.click(selector);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function counts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-count]")].map((e) => [e.getAttribute("data-count"), Number(e.textContent)]),
    ),
  );
}

function expectLoadedClean(watch: PageWatch, file: string): void {
  expect(watch.errors).toEqual([]);
  expect(watch.requests).toEqual([`file://${file}`]);
}

const FIXTURES: Record<FixtureCommand, ReportFixture> = {
  up: reportFixture({ command: "up", tenants: 200, shardSize: 20 }),
  drift: reportFixture({ command: "drift", tenants: 200, shardSize: 20 }),
  dns: reportFixture({ command: "dns", tenants: 200, shardSize: 20 }),
};

describe("the fleet's HTML report in Chromium", () => {
  it.each(["up", "drift", "dns"] as const)(
    "%s: no error or request, the counts and every filter's tenants are the report's",
    async (command) => {
      const f = FIXTURES[command];
      const { page, watch, file } = await open(command, f);
      expectLoadedClean(watch, file);
      // The fixture gives each status to some tenants of this kind of run.
      expect(STATUSES.filter((s) => f.expected[s].length > 0).length).toBeGreaterThanOrEqual(2);
      expect(await counts(page)).toEqual(Object.fromEntries(STATUSES.map((s) => [s, f.expected[s].length])));
      const fleet = await page.$eval("[data-field=fleet]", (e) => e.textContent);
      expect(fleet).toBe(`${f.report.fleet.tenants} tenants in ${f.report.fleet.shards} shards`);
      expect(await listed(page)).toEqual(f.tenants);
      for (const status of STATUSES) {
        await click(page, `#statuses button[data-status=${status}]`);
        expect({ status, tenants: await listed(page) }).toEqual({ status, tenants: f.expected[status] });
        await click(page, `#statuses button[data-status=${status}]`);
      }
      expect(await listed(page)).toEqual(f.tenants);
      await page.close();
    },
  );

  it("search, the shard filter and sorting show exactly the matching tenants", async () => {
    const f = FIXTURES.up;
    const { page } = await open("search", f);
    await page.fill("#search", "TENANT-0001");
    await page.waitForFunction(() => document.getElementById("shown")!.getAttribute("data-shown") !== "200");
    expect(await listed(page)).toEqual(f.tenants.filter((t) => t.includes("tenant-0001")));
    await page.fill("#search", "");
    await page.waitForFunction(() => document.getElementById("shown")!.getAttribute("data-shown") === "200");
    await page.selectOption("#shard", "shard-002");
    const shard2 = f.report.shards.find((s) => s.shard === "shard-002")!.tenants;
    expect(await listed(page)).toEqual([...shard2].sort());
    // Status and shard together: both hold.
    await click(page, "#statuses button[data-status=changed]");
    expect(await listed(page)).toEqual(f.expected.changed.filter((t) => shard2.includes(t)));
    await click(page, "#statuses button[data-status=changed]");
    await page.selectOption("#shard", "");
    // Sorted by changes, most first: the first row is a tenant with the most changes.
    await click(page, "#tenants th[data-key=changed] button");
    const first = await page.$eval("#rows tr[data-tenant]", (e) => e.getAttribute("data-tenant"));
    const most = Math.max(...tenantView(f.report).rows.map((r) => r.changed));
    expect(tenantView(f.report).rows.find((r) => r.tenant === first)!.changed).toBe(most);
    expect(await page.$eval("#tenants th[data-key=changed]", (e) => e.getAttribute("aria-sort"))).toBe("descending");
    await page.close();
  });

  it("a tenant's details: its changes and fields, DNS records seen or not, leftovers with their lines", async () => {
    const up = FIXTURES.up;
    const { page } = await open("detail", up);
    const leftover = up.report.leftovers[0]!;
    await page.fill("#search", leftover.tenant);
    await page.waitForFunction(() => document.getElementById("shown")!.getAttribute("data-shown") === "1");
    await click(page, `#rows button[data-open="${leftover.tenant}"]`);
    const text = await page.$eval("#detail", (e) => e.textContent);
    expect(text).toContain(leftover.deleteLine);
    expect(text).toContain(leftover.importLine);
    const changed = up.report.changes.find((c) => c.op === "update")!;
    await page.fill("#search", changed.tenant);
    await page.waitForFunction(() => document.getElementById("shown")!.getAttribute("data-shown") === "1");
    await click(page, `#rows button[data-open="${changed.tenant}"]`);
    expect(await page.$eval("#detail", (e) => e.textContent)).toContain(`${changed.resource}Webhookupdateurl`);
    await page.close();
    const dns = FIXTURES.dns;
    const notSeen = dns.report.dns!.find((t) => t.status === "read" && !t.dnsValid)!;
    const { page: dnsPage } = await open("detail-dns", dns);
    await dnsPage.fill("#search", notSeen.tenant);
    await dnsPage.waitForFunction(() => document.getElementById("shown")!.getAttribute("data-shown") === "1");
    await click(dnsPage, `#rows button[data-open="${notSeen.tenant}"]`);
    const dnsText = await dnsPage.$eval("#detail", (e) => e.textContent);
    expect(dnsText).toContain(notSeen.records[0]!.host);
    expect(dnsText).toContain("not seen");
    await dnsPage.close();
  });

  it("gzipped data (a large report's) reads the same; --compare shows what changed; nothing secret", async () => {
    const f = FIXTURES.drift;
    const before = reportFixture({ command: "drift", tenants: 200, shardSize: 20, seed: 7 });
    const compare = compareViews(
      { command: "drift", startedAt: before.report.startedAt },
      tenantView(before.report),
      tenantView(f.report),
    );
    const { page, watch, file } = await open("gzip", f, { compressAbove: 0, compare });
    expectLoadedClean(watch, file);
    const html = fs.readFileSync(file, "utf8");
    expect(html).toContain('data-encoding="gzip+base64"');
    expect(await counts(page)).toEqual(Object.fromEntries(STATUSES.map((s) => [s, f.expected[s].length])));
    const rows = await page.$$eval("#compare tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    expect(rows.find((r) => r[0] === "Drifted")!.slice(1, 3)).toEqual([
      String(before.expected.drifted.length),
      String(f.expected.drifted.length),
    ]);
    // The drift's secret field is shown masked, as the JSON report masks it; no secret the run held.
    const plain = fs.readFileSync(path.join(dir, "drift.html"), "utf8");
    expect(plain).toContain("[secret]");
    for (const secret of [...f.secrets, ...FIXTURES.up.secrets, ...FIXTURES.dns.secrets]) {
      expect(plain.includes(secret) || html.includes(secret)).toBe(false);
    }
    await page.close();
  });

  it("at desktop width: a screenshot that is not blank, and 0 axe-core violations", async () => {
    const f = FIXTURES.up;
    const before = reportFixture({ command: "up", tenants: 200, shardSize: 20, seed: 9 });
    const compare = compareViews(
      { command: "up", startedAt: before.report.startedAt },
      tenantView(before.report),
      tenantView(f.report),
    );
    const { page } = await open("a11y", f, { compare });
    await click(page, `#rows button[data-open="${f.expected.changed[0]}"]`);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    // Not blank: many colours, no one colour nearly everywhere (read back through a canvas).
    const png = fs.readFileSync(SCREENSHOT).toString("base64");
    const spread = await page.evaluate(async (data: string) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [img.width, img.height];
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      const colours = new Map<number, number>();
      for (let i = 0; i < px.length; i += 4 * 7) {
        const c = (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
        colours.set(c, (colours.get(c) ?? 0) + 1);
      }
      const total = [...colours.values()].reduce((a, b) => a + b, 0);
      return { width: img.width, distinct: colours.size, top: Math.max(...colours.values()) / total };
    }, png);
    expect(spread.width).toBe(1280);
    expect(spread.distinct).toBeGreaterThan(20);
    expect(spread.top).toBeLessThan(0.95);
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const axe = window.axe as { run(c: unknown): Promise<{ violations: unknown[] }> };
      const result = await axe.run(document);
      return result.violations.map((v) => {
        const x = v as { id: string; help: string; nodes: Array<{ target: unknown }> };
        return `${x.id}: ${x.help} (${x.nodes.map((n) => JSON.stringify(n.target)).join(", ")})`;
      });
    });
    expect(violations).toEqual([]);
    await page.close();
  });
});
