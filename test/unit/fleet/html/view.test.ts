// The HTML report's data (fleet/html): the rows and counts tenantView gives equal what the generated
// runs gave each tenant; drift's and dns's JSON alone are read as reports; --compare; the page's
// embedded JSON cannot close its <script>. The page itself is tested in Chromium (test/browser).
import { renderPage } from "../../../../fleet/html/page";
import { loadReport, ReportFileError } from "../../../../fleet/html/runReport";
import { compareViews, STATUSES, tenantView } from "../../../../fleet/html/view";
import { reportFixture } from "../../../../support/fleetReportFixture";

describe("the HTML report's tenants", () => {
  it.each(["up", "drift", "dns"] as const)("%s: each status's tenants are those the run gave it", (command) => {
    const f = reportFixture({ command, tenants: 500 });
    const view = tenantView(f.report);
    expect(view.rows.map((r) => r.tenant).sort()).toEqual(f.tenants);
    for (const s of STATUSES) {
      expect({
        s,
        tenants: view.rows
          .filter((r) => r.statuses.includes(s))
          .map((r) => r.tenant)
          .sort(),
      }).toEqual({
        s,
        tenants: f.expected[s],
      });
      expect(view.counts[s]).toBe(f.expected[s].length);
    }
  });

  it("reads drift --json and dns --json alone, whole, and refuses what is neither", () => {
    const drift = reportFixture({ command: "drift", tenants: 100 });
    const fromDrift = loadReport(JSON.parse(JSON.stringify(drift.report.drift)), "drift.json");
    expect(fromDrift).toMatchObject({ command: "drift", drift: drift.report.drift, fleet: { tenants: 100 } });
    // Drift's JSON names only the tenants with findings: those are its rows, with the same statuses.
    const named = tenantView(fromDrift);
    for (const s of ["drifted", "leftovers"] as const) expect(named.counts[s]).toBe(drift.expected[s].length);
    const dns = reportFixture({ command: "dns", tenants: 100 });
    const fromDns = loadReport(JSON.parse(JSON.stringify(dns.report.dns)), "dns.json");
    expect(fromDns.dns).toEqual(dns.report.dns);
    expect(tenantView(fromDns).counts).toEqual(tenantView(dns.report).counts);
    expect(() => loadReport({ hello: 1 }, "x.json")).toThrow(ReportFileError);
    expect(() => loadReport({ hello: 1 }, "x.json")).toThrow(/x.json: not a txmail-fleet report/);
  });

  it("--compare: each status's count then and now, who entered and who left it", () => {
    const now = reportFixture({ command: "up", tenants: 200 });
    const before = reportFixture({ command: "up", tenants: 180, seed: 5 });
    const c = compareViews({ command: "up", startedAt: "x" }, tenantView(before.report), tenantView(now.report));
    expect(c.counts.changed).toEqual({ before: before.expected.changed.length, now: now.expected.changed.length });
    expect(c.entered.changed).toEqual(now.expected.changed.filter((t) => !before.expected.changed.includes(t)));
    expect(c.left.changed).toEqual(before.expected.changed.filter((t) => !now.expected.changed.includes(t)));
    expect(c.added).toEqual(now.tenants.slice(180));
    expect(c.removed).toEqual([]);
  });

  it("a tenant's name cannot close the page's <script>: the JSON's '<' is escaped", () => {
    const f = reportFixture({ command: "up", tenants: 3 });
    f.report.shards[0]!.tenants.push("</script><script>alert(1)</script>");
    const html = renderPage(f.report);
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the data's and the page script's own
    expect(html).toContain("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>");
  });
});
