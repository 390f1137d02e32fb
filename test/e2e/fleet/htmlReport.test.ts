// The HTML report of real fleet runs (issue 63) against the emulator: up, dns and drift of the
// example tenants (every kind of secret: keys, SMTP passwords, route and webhook secrets) with
// --json and --html, then every secret the run's tenants hold (read back with `output
// --show-secrets`) and the service's root key grepped against each page and JSON report: none may
// appear. The page's own behaviour is tested in Chromium (test/browser); here, what a run writes.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness";
import { startService, type TestService } from "../../../support/service";
import { runFleet, type FleetRun } from "../../../support/fleetCli";
import { REPORT_FORMAT, type FleetRunReport } from "../../../fleet/html/runReport";
import { tenantView } from "../../../fleet/html/view";

jest.setTimeout(15 * 60_000);

let svc: TestService;
let dir: string;
let stateDir: string;
const fleet = (...args: string[]) => runFleet(args, { cwd: dir, stateDir, svc });
const expectRan = (run: FleetRun, codes = [0]) => {
  if (!codes.includes(run.code ?? -1)) throw new Error(`exit ${run.code}\n${run.stdout}\n${run.stderr}`);
};
const TENANTS = ["acme", "globex", "initech"];

beforeAll(async () => {
  svc = await startService();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-fleet-html-"));
  stateDir = path.join(dir, "state");
  fs.mkdirSync(stateDir);
  fs.copyFileSync(
    path.join(REPO_ROOT, "examples", "tenants-from-yaml", "tenants.yaml"),
    path.join(dir, "tenants.yaml"),
  );
});

afterAll(async () => {
  await svc?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every string in a JSON value. */
const strings = (v: unknown): string[] =>
  typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];

it("up, dns and drift write the page and the JSON; no secret of the run is in either", async () => {
  const up = await fleet("up", "--shard-size", "2", "--json", "--html", "up.html");
  expectRan(up);
  const report = JSON.parse(up.stdout) as FleetRunReport;
  expect(report).toMatchObject({ format: REPORT_FORMAT, command: "up", fleet: { tenants: 3, shards: 2 }, exitCode: 0 });
  expect(report.shards.map((s) => [s.shard, s.tenants])).toEqual([
    ["shard-001", ["acme", "globex"]],
    ["shard-002", ["initech"]],
  ]);
  for (const s of report.shards) {
    expect(s.queuedMs).toBeGreaterThanOrEqual(0);
    expect(s.runningMs).toBeGreaterThan(0);
  }
  // A first up creates every resource of each tenant: every tenant changed, each change named.
  const view = tenantView(report);
  expect(view.rows.map((r) => r.tenant).sort()).toEqual(TENANTS);
  expect(view.counts.changed).toBe(3);
  expect(
    report.changes.find((c) => c.resource === "acme-smtp-legacy-crm" || c.kind === "SmtpCredential"),
  ).toMatchObject({
    tenant: "acme",
    op: "create",
  });
  const page = fs.readFileSync(path.join(dir, "up.html"), "utf8");
  expect(page).toContain('<script type="application/json" id="report">');
  expect(page).not.toMatch(/https?:\/\/[^"'\s]*\.(js|css|woff2?)\b/);

  const dns = await fleet("dns", "--json", "--html", "dns.html");
  expectRan(dns, [0, 3]);
  const drift = await fleet("drift", "--json", "--html", "drift.html");
  expectRan(drift, [0, 3]);
  // No such file yet: a usage error naming it.
  const missing = await fleet("report", "--from", "up.json", "--html", "again.html");
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("up.json");
  fs.writeFileSync(path.join(dir, "up.json"), up.stdout);
  const fromJson = await fleet("report", "--from", "up.json", "--html", "again.html", "--compare", "up.json");
  expectRan(fromJson);
  const rewritten = fs.readFileSync(path.join(dir, "again.html"), "utf8");
  // The same data embedded: the JSON report's own.
  expect(rewritten).toContain(JSON.stringify(report).replace(/</g, "\\u003c"));

  const secrets = [svc.apiKey];
  for (const tenant of TENANTS) {
    const out = await fleet("output", "--tenant", tenant, "--show-secrets");
    expectRan(out);
    const { credentials } = JSON.parse(out.stdout) as { credentials: Record<string, unknown> };
    const { smtpCredentials, ...rest } = credentials as { smtpCredentials: Record<string, { password: string }> };
    secrets.push(...strings(rest), ...Object.values(smtpCredentials).map((s) => s.password));
  }
  const held = secrets.filter((s) => s.length >= 12);
  // acme alone: a bootstrap key, an API key, an SMTP password, a route's and a webhook's secret.
  expect(held.length).toBeGreaterThanOrEqual(8);
  const written = Object.fromEntries(
    ["up.html", "dns.html", "drift.html", "again.html", "up.json"].map((f) => [
      f,
      fs.readFileSync(path.join(dir, f), "utf8"),
    ]),
  );
  // How many secrets each file holds (counted, never printed: a failure must not leak them itself).
  const leaked = Object.entries({ ...written, "dns --json": dns.stdout, "drift --json": drift.stdout }).map(
    ([file, text]) => [file, held.filter((secret) => text.includes(secret)).length],
  );
  expect(leaked.filter(([, n]) => n !== 0)).toEqual([]);
});
