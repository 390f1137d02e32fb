// txmail-fleet dns's flags (fleet/args.ts): what it takes, and what the other commands refuse.
import { parseArgs } from "../../../../fleet/args";

describe("txmail-fleet dns arguments", () => {
  it("reads dns's options; by default a table of every record, read only", () => {
    expect(parseArgs(["dns"], "/p")).toMatchObject({
      operation: "dns",
      json: false,
      zone: false,
      requiredOnly: false,
      checkDns: false,
    });
    expect(parseArgs(["dns", "--zone", "--required-only", "--check-dns", "--tenant", "acme"], "/p")).toMatchObject({
      zone: true,
      requiredOnly: true,
      checkDns: true,
      tenants: ["acme"],
    });
    expect(parseArgs(["dns", "--json", "--frozen", "--runner", "1/2"], "/p")).toMatchObject({
      json: true,
      frozen: true,
      runner: { index: 1, count: 2 },
    });
  });

  it.each([
    [["up", "--zone"], /--zone: only dns takes it, not up/],
    [["drift", "--required-only"], /--required-only: only dns takes it, not drift/],
    [["refresh", "--check-dns"], /--check-dns: only dns takes it, not refresh/],
    [["dns", "--zone", "--json"], /--zone, --json: one document on stdout, choose one/],
    [["dns", "--remediate"], /--remediate: only drift takes it, not dns/],
    [["dns", "--zone=yes"], /--zone: takes no value/],
  ])("%j fails: %s", (argv, message) => {
    expect(() => parseArgs(argv, "/p")).toThrow(message);
  });
});
