// A likely leftover's report: what it says to a person (why, untouched, how to delete) and what
// txmail-fleet reads back from it (kind and id), so the fleet's summary counts exactly the reports.
import { leftoverMessage, leftoversIn, typeAndName } from "../../../provider/core/leftovers";
import { leftoversLine } from "../../../fleet/report";

const leftover = {
  kind: "ApiKey",
  id: "0b7c1e4e-2f43-4c5e-9a55-3d1f0c8f9a10",
  title: "ci",
  createdAt: "2026-11-28T00:00:00.000Z",
  importId: "0b7c1e4e-2f43-4c5e-9a55-3d1f0c8f9a10",
  url: "http://127.0.0.1:4170/v2/accounts/a/api-keys/0b7c1e4e-2f43-4c5e-9a55-3d1f0c8f9a10",
};

describe("a likely leftover's report", () => {
  it("says why, that it was left alone, and how to delete it; on the native face the import line too", () => {
    const native = leftoverMessage(leftover, "made during this create", "urn:pulumi:dev::p::txmail:index:ApiKey::ci");
    expect(native).toContain("likely leftover: ApiKey 0b7c1e4e-2f43-4c5e-9a55-3d1f0c8f9a10 'ci', created 2026-11-28");
    expect(native).toContain("(made during this create); it was not touched");
    expect(native).toContain(`DELETE ${leftover.url}`);
    expect(native).toContain(`pulumi import txmail:index:ApiKey ci-leftover ${leftover.id}`);
    // A dynamic resource cannot be imported (pulumi/pulumi#16175): no import line.
    const dynamic = leftoverMessage(leftover, "why", "urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:ApiKey::ci");
    expect(dynamic).not.toContain("pulumi import");
  });

  it("is read back by kind and id, once per report", () => {
    const message = leftoverMessage(leftover, "why", "urn:pulumi:dev::p::txmail:index:ApiKey::ci");
    expect(leftoversIn(`${message}\n${leftoverMessage({ ...leftover, kind: "Route", id: "r1" }, "why", "u")}`)).toEqual(
      [`ApiKey ${leftover.id}`, "Route r1"],
    );
    expect(leftoversIn("taken over: an earlier run created it")).toEqual([]);
  });

  it("names a component child's type and name from its URN", () => {
    expect(typeAndName("urn:pulumi:dev::p::txmail:index:Tenant$txmail:index:Route::shop-route")).toEqual({
      type: "txmail:index:Route",
      name: "shop-route",
    });
  });
});

describe("the fleet's summary of leftovers", () => {
  const result = (stackName: string, leftovers?: string[]) => ({
    shard: 1,
    stackName,
    ok: true,
    counts: { created: 0, updated: 0, replaced: 0, deleted: 0, same: 0, failed: 0 },
    durationMs: 1,
    logFile: "log",
    leftovers,
  });

  it("lists every shard's reports, and says nothing when there are none", () => {
    expect(leftoversLine([result("shard-001"), result("shard-002", [])])).toBeUndefined();
    expect(leftoversLine([result("shard-001", ["Route r1"]), result("shard-002", ["ApiKey k1"])])).toMatch(
      /^2 likely leftover\(s\) reported .*not touched.*: shard-001: Route r1, shard-002: ApiKey k1$/,
    );
  });
});
