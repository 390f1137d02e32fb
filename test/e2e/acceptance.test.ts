// The acceptance command (scripts/acceptance.sh) as a user runs it, with the emulator standing in for
// the service: it refuses without the confirmation, sweeps only what runs left, and walks every kind's
// whole lifecycle on both faces leaving 0 objects and a report with 0 parse failures and no secret —
// the native face against the contract's shapes, the dynamic face against the public description's
// (`--shapes public`, docs/contract/shapes.md): the provider reads both alike.
// One walk per face, not one per face and shape: what reads a shape is the generic client and
// provider below both faces, so a second walk of the same lifecycle on the other face proves nothing
// more (the dynamic face's contract walk and both faces' read-only walk of the public shapes went).
// It takes over the lifecycle e2e it makes redundant: the `import` resource option for every kind
// (was test/e2e/import/importKinds.test.ts) and the native face's in-place update and clean destroy
// (was test/e2e/native/lifecycle.test.ts).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { z } from "zod";
import type { ContractReport } from "../../acceptance/report";
import { paths } from "../../provider/api";
import { createClient } from "../../provider/client";
import { controlClient, serviceObjects } from "../../support/control";
import { REPO_ROOT } from "./harness";
import { startService, type TestService } from "../../support/service";
import { OBJECT_KINDS } from "../../provider/api/kinds";

jest.setTimeout(15 * 60_000);

const Any = z.record(z.string(), z.unknown());
const CONFIRM = { TXMAIL_ACCEPTANCE: "i-understand-this-creates-objects" };
const FULL_STEPS = [
  "create",
  "read: refresh",
  "update in place",
  "import",
  "after import: preview",
  "replace",
  "destroy",
];

let contract: TestService;
let publicShapes: TestService;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-acceptance-test-"));

beforeAll(async () => {
  [contract, publicShapes] = await Promise.all([startService(), startService({ shapes: "public" })]);
  for (const svc of [contract, publicShapes]) {
    ownKeys.set(
      svc,
      (await controlClient(svc).dumpState()).api_keys.map((k) => k.id),
    );
  }
});
afterAll(async () => {
  await Promise.all([contract?.close(), publicShapes?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** scripts/acceptance.sh on an emulator's account, to its end: exit code and what it printed. */
function acceptance(svc: TestService, args: string[], extra: Record<string, string> = CONFIRM) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    TXMAIL_BASE_URL: svc.baseUrl,
    TXMAIL_ACCOUNT_ID: svc.accountId,
    TXMAIL_API_KEY: svc.apiKey,
    TXMAIL_ACCEPTANCE: undefined,
    ...extra,
  };
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("bash", [path.join(REPO_ROOT, "scripts", "acceptance.sh"), ...args], { cwd: dir, env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The service's objects besides the account's own API key (the one it was started with). */
async function objects(svc: TestService) {
  const own = new Set(ownKeys.get(svc));
  return serviceObjects(await controlClient(svc).dumpState()).filter((o) => !own.has(o.id));
}
const ownKeys = new Map<TestService, string[]>();

const readReport = (name: string) => {
  const text = fs.readFileSync(path.join(dir, name, "contract-report.json"), "utf8");
  return {
    text,
    md: fs.readFileSync(path.join(dir, name, "contract-report.md"), "utf8"),
    report: JSON.parse(text) as ContractReport,
  };
};

describe("the acceptance command", () => {
  it("refuses to start without the confirmation, after saying what it would create, touching nothing", async () => {
    const control = controlClient(contract);
    await control.resetCounters();
    const r = await acceptance(contract, [], {});
    expect(r.code).toBe(2);
    expect(r.output).toMatch(/creates the run's sub account txacc-\d{8}-[0-9a-f]{6}-workspace/);
    expect(r.output).toMatch(/Refusing to start: set TXMAIL_ACCEPTANCE=i-understand-this-creates-objects/);
    expect((await control.counters()).total).toBe(0);
  });

  it("--sweep-only removes what earlier runs left, and nothing else", async () => {
    const { client, accountId: a } = contract;
    const post = async (p: string, body: unknown) => (await client.post(p, body, Any)).data as any;
    const old = "txacc-20200101-abcdef";
    await post(paths.apiKeys(a), { label: `${old}-ci-2`, scopes: ["domains:read"] });
    const leftover = await post(paths.subAccounts(a), { name: `${old}-workspace`, website: "acceptance.example.com" });
    const key = await post(paths.subAccountApiKeys(a, leftover.id), {
      label: `${old}-runner`,
      scopes: ["routes:write:all"],
    });
    const inside = createClient({
      apiKey: key.secret_key,
      accountId: leftover.id,
      baseUrl: contract.baseUrl,
      rateLimit: false,
    });
    await inside.post(
      paths.routes(leftover.id),
      { name: `${old}-inbound`, url: "https://example.com/in", recipient: "" },
      Any,
    );
    // Not a run's: must survive.
    const mine = await post(paths.apiKeys(a), { label: "ci", scopes: ["domains:read"] });
    const customer = await post(paths.subAccounts(a), { name: "Customer txacc", website: "customer.example.com" });
    const before = await objects(contract);

    const r = await acceptance(contract, ["--sweep-only"]);
    expect({ code: r.code, output: r.code === 0 ? "" : r.output }).toEqual({ code: 0, output: "" });
    expect(r.output).toMatch(/swept what earlier runs left: .*Route 1.*SubAccount 1/);
    const after = await objects(contract);
    expect(after.map((o) => o.id).sort()).toEqual([mine.id, customer.id].sort());
    expect(before.length - after.length).toBe(4); // the key, the sub account, its key and its route

    // Leave the account as it was found for the lifecycle run.
    await client.delete(paths.apiKey(a, mine.id));
    await client.delete(paths.subAccount(a, customer.id));
  });

  it("walks every kind's whole lifecycle on both faces, one with the public shapes: 0 objects left, 0 parse failures, no secret in the report", async () => {
    const walks = [
      { svc: contract, face: "native", report: "contract" },
      { svc: publicShapes, face: "dynamic", report: "public" },
    ] as const;
    const runs = await Promise.all(walks.map((w) => acceptance(w.svc, ["--face", w.face, "--report", w.report])));
    const reports: string[] = [];
    for (const [i, w] of walks.entries()) {
      const r = runs[i]!;
      expect({ walk: w.report, code: r.code, output: r.code === 0 ? "" : r.output }).toEqual({
        walk: w.report,
        code: 0,
        output: "",
      });
      const { report, text, md } = readReport(w.report);
      const steps = report.checks.filter((c) => c.face === w.face);
      expect({ walk: w.report, steps: steps.map((c) => c.step) }).toEqual({ walk: w.report, steps: FULL_STEPS });
      expect(steps.filter((c) => !c.ok)).toEqual([]);
      expect(report.checks.filter((c) => c.face !== w.face && c.face !== "all")).toEqual([]);
      expect(report.totals.parseFailures).toBe(0);
      expect(report.totals.transportErrors).toBe(0);
      expect(report.unknownOperations).toEqual([]);
      expect(report.objectsLeft).toBe(0);
      // every kind of the one list that makes objects (a DomainVerification needs DNS a real account's run cannot publish)
      expect(Object.keys(report.created).sort()).toEqual([...OBJECT_KINDS].sort());
      expect(await objects(w.svc)).toEqual([]);
      // No secret: not the account's key, nor any key, password or signing secret the run saw.
      for (const t of [text, md]) {
        expect(t).not.toContain(w.svc.apiKey);
        expect(t).not.toMatch(/[a-z0-9]+-sk-[A-Za-z0-9]{20,}/);
        expect(t).not.toMatch(/"(secret|secret_key|password)"\s*:/);
      }
      reports.push(`${w.report} shapes, ${w.face} face: ${report.totals.requests} requests\n${md}`);
    }
    // The run's size, for docs/guide/acceptance.md ("what it costs").
    process.stderr.write(`acceptance reports (emulator):\n${reports.join("\n")}\n`);
  });
});
