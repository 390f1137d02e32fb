// The ready-to-copy workflows (examples/ci) pass actionlint, and the fleet's matrix and its drift
// check take what must stay secret from secrets: the backend URL (it holds the database password)
// and the passphrase of the shard stacks' secrets provider. The drift check runs as one job over
// every shard and fails the job on a non-zero exit.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const CI = path.join(ROOT, "examples", "ci");

jest.setTimeout(5 * 60_000); // a cold tools cache builds actionlint first (~15 s)

describe("examples/ci workflows", () => {
  it("pass actionlint", () => {
    const actionlint = execFileSync("bash", [path.join(ROOT, "scripts", "build-actionlint.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    const files = fs.readdirSync(CI).filter((f) => f.endsWith(".yml"));
    expect(files).toContain("fleet.yml");
    // Exits 1 with one line per finding.
    const run = () =>
      execFileSync(actionlint, ["-no-color", ...files.map((f) => path.join(CI, f))], {
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).not.toThrow();
  });

  it("fleet.yml: the backend URL and the passphrase are secrets, and every runner takes its share", () => {
    const text = fs.readFileSync(path.join(CI, "fleet.yml"), "utf8");
    const job = (parse(text) as { jobs: { fleet: { env: Record<string, string>; steps: Array<{ run?: string }> } } })
      .jobs.fleet;
    expect(job.env.PULUMI_BACKEND_URL).toBe("${{ secrets.PULUMI_BACKEND_URL }}");
    expect(job.env.PULUMI_CONFIG_PASSPHRASE).toBe("${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
    expect(job.env.TXMAIL_RATE_SHARE).toBe("1/${{ strategy.job-total }}");
    const runs = job.steps.map((s) => s.run ?? "").filter((r) => r.includes("txmail-fleet"));
    expect(runs).toHaveLength(2);
    for (const r of runs)
      expect(r).toMatch(/--frozen[\s\S]*--runner \$\{\{ matrix\.runner \}\}\/\$\{\{ strategy\.job-total \}\}/);
    expect(text).not.toMatch(/--shard /);
  });

  it("drift.yml: one job over every shard, secrets from secrets, and the job fails on a non-zero exit", () => {
    const text = fs.readFileSync(path.join(CI, "drift.yml"), "utf8");
    type Step = { id?: string; if?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> };
    const workflow = parse(text) as {
      jobs: Record<string, { strategy?: unknown; env: Record<string, string>; steps: Step[] }>;
    };
    // The account-wide inventory runs only when one run checks every shard: no matrix, no share.
    expect(Object.keys(workflow.jobs)).toEqual(["drift"]);
    const job = workflow.jobs.drift!;
    expect(job.strategy).toBeUndefined();
    expect(text).not.toMatch(/--runner|--tenant /);
    expect(job.env.PULUMI_BACKEND_URL).toBe("${{ secrets.PULUMI_BACKEND_URL }}");
    expect(job.env.PULUMI_CONFIG_PASSPHRASE).toBe("${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
    // The check's exit code survives its step (bash -e) and fails the last step: 3 and 1 alike.
    const check = job.steps.find((s) => s.id === "drift")!;
    expect(check.run).toMatch(/npx txmail-fleet drift "\$\{args\[@\]\}" > drift\.json \|\| code=\$\?/);
    expect(check.run).toMatch(/--frozen --json --markdown drift\.md/);
    // The rotation runs first (the check then sees what it left), its exit code kept for the last
    // step too: the check runs whatever the rotation's outcome.
    const rotate = job.steps.find((s) => s.id === "rotate")!;
    expect(job.steps.indexOf(rotate)).toBe(job.steps.indexOf(check) - 1);
    expect(rotate.run).toMatch(
      /npx txmail-fleet rotate --tenants tenants\.yaml --frozen --json > rotate\.json \|\| code=\$\?\n/,
    );
    expect(rotate.run).toMatch(/echo "code=\$code" >> "\$GITHUB_OUTPUT"/);
    const kept = job.steps.find((s) => s.with?.name === "txmail-drift")!;
    expect(kept.with?.path).toMatch(/^rotate\.json$/m);
    const last = job.steps.at(-1)!;
    expect(last.if).toBe("steps.drift.outputs.code != '0' || steps.rotate.outputs.code != '0'");
    expect(last.env?.CODE).toBe("${{ steps.drift.outputs.code }}");
    expect(last.env?.ROTATE_CODE).toBe("${{ steps.rotate.outputs.code }}");
    expect(last.run).toMatch(/exit "\$CODE"/);
    expect(last.run).toMatch(/0\) exit "\$ROTATE_CODE"/);
  });

  it("histories.yml: both depths at the issue's counts, seeded by the run number, the report kept on failure", () => {
    type Step = { if?: string; run?: string; with?: Record<string, string> };
    const workflow = parse(fs.readFileSync(path.join(CI, "histories.yml"), "utf8")) as {
      jobs: Record<
        string,
        { strategy: { matrix: { include: unknown[] } }; env: Record<string, string>; steps: Step[] }
      >;
    };
    const job = workflow.jobs.histories!;
    expect(job.strategy.matrix.include).toEqual([
      { depth: "fast", count: 10000 },
      { depth: "engine", count: 50 },
    ]);
    expect(job.env.SEED).toBe("${{ github.run_number }}");
    expect(job.steps.some((s) => /scripts\/setup\.sh --with yaml/.test(s.run ?? ""))).toBe(true);
    const run = job.steps.find((s) => (s.run ?? "").includes("npm run histories"))!;
    expect(run.run).toMatch(
      /HISTORIES_SEED="\$SEED" npm run histories -- --depth "\$\{\{ matrix\.depth \}\}" --count "\$\{\{ matrix\.count \}\}"/,
    );
    // The runner writes the report where HISTORIES_REPORT says (test/histories/fast.test.ts).
    const keep = job.steps.at(-1)!;
    expect(keep.if).toBe("failure()");
    expect(keep.with?.path).toBe(job.env.HISTORIES_REPORT);
  });
});
