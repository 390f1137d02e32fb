// The suite's closing line (scripts/jest-summary.js, called by scripts/test.sh) counts every failure:
// fed jest reports in which a suite errored without a failed test, it must say so and exit non-zero.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../../support/root";

const run = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, "scripts", "jest-summary.js");
const JEST = path.join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-summary-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the summary on `report` (an object, or raw text); returns its output and exit code. */
async function summarize(report: unknown, checksLog?: string): Promise<{ out: string; code: number }> {
  const file = path.join(dir, `r-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, typeof report === "string" ? report : JSON.stringify(report));
  const args = [SCRIPT, file];
  if (checksLog !== undefined) {
    args.push(`${file}.checks.log`);
    fs.writeFileSync(`${file}.checks.log`, checksLog);
  }
  try {
    const { stdout } = await run(process.execPath, args, { cwd: REPO_ROOT });
    return { out: stdout, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; code: number };
    return { out: e.stdout, code: e.code };
  }
}

const lastLine = (out: string) => out.trim().split("\n").at(-1);
const test = (status: string, title = status) => ({ status, title, fullName: title });

describe("jest-summary closing line", () => {
  it("counts passed and failed tests", async () => {
    const r = await summarize({
      success: false,
      testResults: [{ name: "a.test.ts", status: "failed", assertionResults: [test("passed"), test("failed")] }],
    });
    expect(lastLine(r.out)).toBe("1 passed, 1 failed");
    expect(r.code).toBe(1);
  });

  it("counts a suite whose afterAll threw after all its tests passed", async () => {
    const r = await summarize({
      success: false,
      testResults: [
        {
          name: "client.stub.test.ts",
          status: "failed",
          message: "● Test suite failed to run\n\n  leaked sockets: 2",
          assertionResults: [test("passed", "one"), test("passed", "two")],
        },
      ],
    });
    expect(lastLine(r.out)).toBe("2 passed, 1 failed");
    expect(r.out).toMatch(/suite error \(no failed test\): client\.stub\.test\.ts — ● Test suite failed to run/);
    expect(r.code).toBe(1);
  });

  it("counts a suite that could not load", async () => {
    const r = await summarize({
      success: false,
      testResults: [{ name: "broken.test.ts", status: "failed", message: "SyntaxError", assertionResults: [] }],
    });
    expect(lastLine(r.out)).toBe("0 passed, 1 failed");
    expect(r.code).toBe(1);
  });

  it("shows skipped and todo tests by name and in the line, without failing the run", async () => {
    const r = await summarize({
      success: true,
      testResults: [
        {
          name: "s.test.ts",
          status: "passed",
          assertionResults: [test("passed"), test("pending", "later"), test("todo", "idea")],
        },
      ],
    });
    expect(lastLine(r.out)).toBe("1 passed, 0 failed, 2 skipped");
    expect(r.out).toMatch(/pending: s\.test\.ts › later/);
    expect(r.out).toMatch(/todo: s\.test\.ts › idea/);
    expect(r.code).toBe(0);
  });

  it("fails a run jest called failed with no failing suite to show (no tests found)", async () => {
    const r = await summarize({ success: false, testResults: [] });
    expect(lastLine(r.out)).toBe("0 passed, 1 failed");
    expect(r.code).toBe(1);
  });

  it("fails when jest left no readable report", async () => {
    const r = await summarize("");
    expect(lastLine(r.out)).toBe("0 passed, 1 failed");
    expect(r.code).toBe(1);
  });

  it("counts the afterAll failure in a report jest really wrote", async () => {
    const suiteDir = fs.mkdtempSync(path.join(dir, "suite-"));
    fs.writeFileSync(
      path.join(suiteDir, "hook.fixture.js"),
      `test("passes", () => {});\nafterAll(() => { throw new Error("leak check failed"); });\n`,
    );
    const report = path.join(suiteDir, "report.json");
    const config = JSON.stringify({ rootDir: suiteDir, testMatch: ["**/hook.fixture.js"], transform: {} });
    await run(process.execPath, [JEST, "--ci", "--config", config, "--json", "--outputFile", report]).catch(() => {});
    const r = await summarize(fs.readFileSync(report, "utf8"));
    expect(r.out).toMatch(/suite error \(no failed test\): \S*hook\.fixture\.js — ● Test suite failed to run/);
    expect(lastLine(r.out)).toBe("1 passed, 1 failed");
    expect(r.code).toBe(1);
  });

  describe("with the static checks' log (scripts/check.sh)", () => {
    const passing = {
      success: true,
      testResults: [{ name: "a.test.ts", status: "passed", assertionResults: [test("passed")] }],
    };

    it("counts each check as a test", async () => {
      const r = await summarize(passing, "[check] prettier: ok (1 s)\nchecks: 6 passed, 0 failed\n");
      expect(lastLine(r.out)).toBe("7 passed, 0 failed");
      expect(r.code).toBe(0);
    });

    it("fails the run when a check failed, though every jest test passed", async () => {
      const r = await summarize(passing, "[check] eslint: FAILED (2 s)\nchecks: 5 passed, 1 failed\n");
      expect(lastLine(r.out)).toBe("6 passed, 1 failed");
      expect(r.out).toContain("static checks: 1 failed");
      expect(r.code).toBe(1);
    });

    it("counts checks that never finished as a failure", async () => {
      const r = await summarize(passing, "[check] prettier: ok (1 s)\n");
      expect(lastLine(r.out)).toBe("1 passed, 1 failed");
      expect(r.code).toBe(1);
    });
  });
});

describe("jest-summary slowest files", () => {
  it("lists the slowest files before the closing line, which stays last", async () => {
    const file = (name: string, seconds: number) => ({
      name: `${REPO_ROOT}/${name}`,
      status: "passed",
      startTime: 1_000,
      endTime: 1_000 + seconds * 1000,
      assertionResults: [test("passed")],
    });
    const r = await summarize({
      success: true,
      testResults: [file("test/a.test.ts", 3), file("test/b.test.ts", 120), file("test/c.test.ts", 40)],
    });
    const lines = r.out.trim().split("\n");
    expect(lines).toEqual([
      "worker time 163 s in 3 files; the slowest:",
      "   120 s  test/b.test.ts",
      "    40 s  test/c.test.ts",
      "     3 s  test/a.test.ts",
      "3 passed, 0 failed",
    ]);
  });
});
