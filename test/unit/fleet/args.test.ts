import { parseArgs } from "../../../fleet/args";
import { DEFAULT_PARALLEL } from "../../../fleet/defaults";

describe("txmail-fleet arguments", () => {
  it("defaults: tenants.yaml in the current directory, default parallelism, no shard size (the file's or the default)", () => {
    const o = parseArgs(["up"], "/p");
    expect(o).toMatchObject({
      operation: "up",
      tenantsFile: "/p/tenants.yaml",
      parallel: DEFAULT_PARALLEL,
      tenants: [],
      debug: false,
      saveEveryStep: false,
    });
    expect(o.shardSize).toBeUndefined();
  });

  it("reads drift's options", () => {
    const o = parseArgs(
      ["drift", "--json", "--markdown", "summary.md", "--remediate", "--no-inventory", "--ignore", "k1", "--ignore=k2"],
      "/p",
    );
    expect(o).toMatchObject({
      operation: "drift",
      json: true,
      markdownFile: "/p/summary.md",
      remediate: true,
      noInventory: true,
      ignore: ["k1", "k2"],
    });
    expect(parseArgs(["drift"], "/p")).toMatchObject({ json: false, remediate: false, noInventory: false, ignore: [] });
  });

  it("reads every option, in both spellings", () => {
    const o = parseArgs(
      [
        "preview",
        "--tenants",
        "t.yaml",
        "--runner=2/3",
        "--tenant",
        "a",
        "--tenant=b",
        "--parallel",
        "2",
        "--shard-size",
        "4",
        "--policy-pack",
        "pk",
        "--frozen",
        "--debug",
        "--save-every-step",
        "--face",
        "dynamic",
      ],
      "/p",
    );
    expect(o).toMatchObject({
      operation: "preview",
      tenantsFile: "/p/t.yaml",
      runner: { index: 2, count: 3 },
      tenants: ["a", "b"],
      parallel: 2,
      shardSize: 4,
      policyPacks: ["/p/pk"],
      frozen: true,
      debug: true,
      saveEveryStep: true,
      face: "dynamic",
    });
  });

  it("--shard I/N, the old name of --runner, still selects the runner, with one warning naming --runner", () => {
    const o = parseArgs(["up", "--shard", "2/4", "--shard=2/4"], "/p");
    expect(o.runner).toEqual({ index: 2, count: 4 });
    expect(o.warnings).toEqual(["--shard I/N is deprecated: use --runner I/N (the same share: runner I of N)"]);
    expect(parseArgs(["up", "--runner", "2/4"], "/p").warnings).toEqual([]);
  });

  it("rotate: every shard's credentials by default; --tenant (repeatable), --older-than in the schedule's grammar, --json", () => {
    expect(parseArgs(["rotate"], "/p")).toMatchObject({ operation: "rotate", tenants: [], json: false });
    expect(parseArgs(["rotate"], "/p").olderThan).toBeUndefined();
    expect(
      parseArgs(["rotate", "--tenant", "a", "--tenant=b", "--older-than", "7d", "--json", "--runner", "1/2"], "/p"),
    ).toMatchObject({ tenants: ["a", "b"], olderThan: "7d", json: true, runner: { index: 1, count: 2 } });
    expect(parseArgs(["rotate", "--older-than=36h"], "/p").olderThan).toBe("36h");
  });

  it("output: one tenant, secrets masked unless --show-secrets", () => {
    expect(parseArgs(["output", "--tenant", "a"], "/p")).toMatchObject({
      operation: "output",
      tenants: ["a"],
      showSecrets: false,
    });
    expect(parseArgs(["output", "--tenant=a", "--show-secrets"], "/p")).toMatchObject({ showSecrets: true });
  });

  it.each([
    [
      ["deploy"],
      /the command must be one of up, preview, refresh, destroy, place, output, drift, dns, report, rotate, got .deploy./,
    ],
    [["output"], /output: needs exactly one --tenant NAME, got 0/],
    [["output", "--tenant", "a", "--tenant", "b"], /output: needs exactly one --tenant NAME, got 2/],
    [["up", "--show-secrets"], /--show-secrets: only output shows secrets, not up/],
    [["output", "--tenant", "a", "--show-secrets=yes"], /--show-secrets: takes no value/],
    [["up", "--remediate"], /--remediate: only drift takes it, not up/],
    [["place", "--json"], /--json: only up, preview, refresh, destroy, drift, dns, rotate take it, not place/],
    [
      ["rotate", "--html", "r.html"],
      /--html: only up, preview, refresh, destroy, drift, dns and report take it, not rotate/,
    ],
    [["up", "--older-than", "7d"], /--older-than: only rotate takes it, not up/],
    [["rotate", "--older-than"], /--older-than: needs a value/],
    [
      ["rotate", "--older-than", "1w"],
      /--older-than: must be a whole number of days or hours, such as 30d or 12h, got '1w'/,
    ],
    [["rotate", "--older-than", "0d"], /--older-than: must be a whole number of days or hours/],
    [["rotate", "--older-than=7"], /--older-than: must be a whole number of days or hours/],
    [
      ["place", "--html", "r.html"],
      /--html: only up, preview, refresh, destroy, drift, dns and report take it, not place/,
    ],
    [["report", "--html", "r.html"], /report: needs --from RUN.json/],
    [["up", "--compare", "p.json"], /--compare: needs --html FILE/],
    [["refresh", "--markdown", "r.md"], /--markdown: only drift takes it, not refresh/],
    [["up", "--ignore", "k"], /--ignore: only drift takes it, not up/],
    [["drift", "--markdown"], /--markdown: needs a value/],
    [["up", "--parallel", "0"], /--parallel: must be a whole number from 1 to 64, got '0'/],
    [["up", "--parallel", "2.5"], /--parallel: must be a whole number/],
    [["up", "--shard-size", "x"], /--shard-size: must be a whole number from 1 to 1000, got 'x'/],
    [["up", "--runner", "3/2"], /--runner: must be I\/N with 1 ≤ I ≤ N/],
    [["up", "--runner", "0/2"], /--runner: must be I\/N/],
    [["up", "--runner", "1"], /--runner: must be I\/N/],
    [["up", "--shard", "1"], /--shard: must be I\/N/],
    [["up", "--tenant"], /--tenant: needs a value/],
    [["up", "--project", "a b"], /--project: must be letters, digits/],
    [["refresh", "--policy-pack", "p"], /--policy-pack: only preview and up run policy packs, not refresh/],
    [["up", "--policy-pack-config", "c.json"], /--policy-pack-config: needs a --policy-pack/],
    [["up", "--frozen=yes"], /--frozen: takes no value/],
    [["up", "--debug=1"], /--debug: takes no value/],
    [["up", "--save-every-step=no"], /--save-every-step: takes no value/],
    [["up", "--face", "yaml"], /--face: must be dynamic or native, got 'yaml'/],
    [["up", "--colour"], /unknown option '--colour'/],
  ])("%j fails naming the flag and the rule", (argv, message) => {
    expect(() => parseArgs(argv as string[], "/p")).toThrow(message);
  });
});
