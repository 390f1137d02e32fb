// The benchmark's floor is only a floor if it pays no cost the real program avoids: on the real
// engine, bench/programs/floor must store each resource's provider as a short require() of its
// installed package (as pulumi-txmail does), while the naive floor stores the methods by value.
// The native floor must be served by the txmail plugin's own server code over no-op operations, and
// store no provider code at all. Also the rotation of program order within benchmark rounds, which
// cancels the machine's drift.
import * as path from "node:path";
import { PROGRAMS, floorProgram, roundOrder, median } from "../../bench/up";
import { REPO_ROOT, TOOLS_DIR } from "../../support/root";
import { createTestStack, type TestStack } from "../../support/stack";
import { stackProcesses } from "../../support/processes";

jest.setTimeout(5 * 60_000);

interface StateResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

const stacks: TestStack[] = [];
afterAll(async () => {
  for (const s of stacks) await s.dispose();
});

async function storedProviders(program: "floor" | "floor-naive", extra: Parameters<typeof floorProgram>[2] = {}) {
  const s = await createTestStack({ ...floorProgram(program, { tenants: { value: "1" } }, extra), name: program });
  stacks.push(s);
  await s.up();
  const state = JSON.parse(await s.exportText()) as { deployment: { resources?: StateResource[] } };
  const noops = (state.deployment.resources ?? []).filter((r) => r.type === "pulumi-nodejs:dynamic/bench:Noop");
  expect(noops).toHaveLength(6); // the tenant graph: sub account, key, domain, route, webhook, SMTP
  return noops.flatMap((r) => [r.inputs?.__provider, r.outputs?.__provider]).map(String);
}

describe("benchmark floor", () => {
  it("stores its provider as a require of the installed no-op package", async () => {
    const stored = await storedProviders("floor", {
      extraPackages: [path.join(REPO_ROOT, "bench", "programs", "noop-provider")],
    });
    for (const text of stored) {
      expect(text).toMatch(/require\("txmail-bench-noop(\/index\.js)?"\)/);
      expect(text.length).toBeLessThan(400);
    }
  });

  it("differs from the naive floor, whose provider is serialized by value", async () => {
    const stored = await storedProviders("floor-naive");
    for (const text of stored) {
      expect(text).not.toMatch(/require\("txmail-bench-noop(\/index\.js)?"\)/);
      expect(text.length).toBeGreaterThan(800);
    }
  });

  it("native: no-op custom resources served by the plugin server of native/server.ts", async () => {
    const pluginDir = path.join(REPO_ROOT, "bench", "programs", "noop-native-provider");
    const s = await createTestStack({
      ...floorProgram(
        "floor-native",
        { tenants: { value: "1" } },
        { env: { PATH: `${pluginDir}:${path.join(TOOLS_DIR, "bin")}:${process.env.PATH ?? ""}` } },
      ),
      name: "floor-native",
    });
    stacks.push(s);
    // While the up runs, the plugin serving it is the floor's main.js (which serves dist/native/server.js).
    let plugins = 0;
    const timer = setInterval(() => {
      plugins = Math.max(plugins, stackProcesses(s, (args) => args.includes("noop-native-provider/main.js")).length);
    }, 100);
    try {
      await s.up();
    } finally {
      clearInterval(timer);
    }
    expect(plugins).toBe(1);
    const state = JSON.parse(await s.exportText()) as { deployment: { resources?: StateResource[] } };
    const resources = state.deployment.resources ?? [];
    const noops = resources.filter((r) => r.type === "txmailfloor:index:Noop");
    expect(noops).toHaveLength(6);
    expect(resources.map((r) => r.type)).toContain("pulumi:providers:txmailfloor");
    for (const r of noops) {
      expect(r.inputs).not.toHaveProperty("__provider");
      expect(r.outputs).toEqual(r.inputs); // create echoed its inputs, as the dynamic floor's does
    }
    expect(Object.keys((await s.up()).summary.resourceChanges ?? {})).toEqual(["same"]);
  });

  it("rotates which program runs first in each round", () => {
    const firsts = PROGRAMS.map((_, r) => roundOrder(r)[0]);
    expect(new Set(firsts)).toEqual(new Set(PROGRAMS));
    for (let r = 0; r < 6; r++) expect(new Set(roundOrder(r))).toEqual(new Set(PROGRAMS));
  });

  it("takes the median of every run (mean of the middle two for an even count)", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
