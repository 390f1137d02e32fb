// The drift report's exit codes and its three forms (fleet/drift/report.ts).
import {
  buildReport,
  DRIFT_EXIT,
  markdownReport,
  notListedGroups,
  terminalReport,
} from "../../../../fleet/drift/report";
import { SECRET, type ResourceDrift, type ShardDrift, type UnmanagedObject } from "../../../../fleet/drift/types";

const changed: ResourceDrift = {
  tenant: "acme",
  resource: "acme-webhook-events",
  kind: "Webhook",
  urn: "urn:x",
  id: "w-1",
  status: "changed",
  fields: [
    { field: "url", recorded: "https://a.example.com/ev", service: "https://evil.example.com/x" },
    { field: "label", recorded: SECRET, service: SECRET },
  ],
};
const failed: ResourceDrift = { ...changed, status: "failed", fields: [], error: "HTTP 401" };
const handMade: UnmanagedObject = {
  kind: "Webhook",
  tenant: "acme",
  id: "w-9",
  title: "sneaky",
  importLine: "pulumi import txmail:index:Webhook acme-sneaky w-9",
};
const shard = (over: Partial<ShardDrift> = {}): ShardDrift => ({
  shard: "shard-001",
  tenants: ["acme"],
  drift: [],
  unmanaged: [],
  notListed: [],
  managed: [],
  listCalls: 7,
  ...over,
});
const none = { unmanaged: [], notListed: [], listCalls: 2 };
const report = (shards: ShardDrift[], unchecked: Array<{ shard: string; error: string }> = [], remediated?: boolean) =>
  buildReport(
    new Date(0),
    shards,
    unchecked,
    none,
    remediated === undefined
      ? undefined
      : [
          {
            shard: "shard-001",
            ok: remediated,
            counts: { created: 1, updated: 1, replaced: 0, deleted: 0, same: 3, failed: 0 },
          },
        ],
  );

describe("the drift report", () => {
  it.each([
    ["nothing found", DRIFT_EXIT.clean, [shard()], [], undefined],
    ["a changed resource", DRIFT_EXIT.found, [shard({ drift: [changed] })], [], undefined],
    ["an object no stack manages", DRIFT_EXIT.found, [shard({ unmanaged: [handMade] })], [], undefined],
    ["a resource not checked", DRIFT_EXIT.incomplete, [shard({ drift: [changed, failed] })], [], undefined],
    ["a shard not checked", DRIFT_EXIT.incomplete, [shard()], [{ shard: "shard-002", error: "locked" }], undefined],
    ["drift remediated", DRIFT_EXIT.clean, [shard({ drift: [changed] })], [], true],
    [
      "drift remediated, a hand-made object left",
      DRIFT_EXIT.found,
      [shard({ drift: [changed], unmanaged: [handMade] })],
      [],
      true,
    ],
    ["a remediation that failed", DRIFT_EXIT.incomplete, [shard({ drift: [changed] })], [], false],
  ])("%s: exit %i", (_what, code, shards, unchecked, remediated) => {
    expect(report(shards as ShardDrift[], unchecked, remediated).exitCode).toBe(code);
  });

  it("counts the inventory's list requests of the account and every shard", () => {
    expect(report([shard(), shard({ shard: "shard-002" })]).listCalls).toBe(16);
  });

  it("shows each change with both values in every form, a secret only as masked", () => {
    const r = report([shard({ drift: [changed], unmanaged: [handMade] })]);
    for (const text of [terminalReport(r), markdownReport(r), JSON.stringify(r)]) {
      expect(text).toContain("https://evil.example.com/x");
      expect(text).toContain("acme-sneaky");
      expect(text).toContain(SECRET);
    }
    expect(markdownReport(r)).toMatch(/^## Tenant drift — ❌ drift found/);
    expect(terminalReport(r)).toMatch(/1 changed, 0 deleted at the service, 0 not checked, 1 unmanaged objects/);
  });

  it("says each family the inventory could not list once, with the tenants it concerns", () => {
    const reason = "the key may not list them (needs routes:read:all)";
    const tenants = ["a", "b", "c", "d", "e"];
    expect(
      notListedGroups([
        ...tenants.map((tenant) => ({ tenant, kind: "Route" as const, reason })),
        { tenant: "a", kind: "Suppression", reason: "the key may not list them (needs suppressions:read)" },
      ]),
    ).toEqual([
      `Route of a, b, c and 2 more: ${reason}`,
      "Suppression of a: the key may not list them (needs suppressions:read)",
    ]);
  });
});
