// `txmail-fleet rotate`'s plan and report (fleet/rotate): which credentials of a shard's exported
// state are due (the provider's own decision, at the same instant), which URNs a shard's run
// targets, and the table and JSON that say what was done — names, kinds, actions and times only.
import { planShard, targetsOf } from "../../../fleet/rotate/plan";
import { rotateReport, rotateTable, rotatedCredentials } from "../../../fleet/rotate/report";
import type { ExportedState, StateResource } from "../../../fleet/shardState";

const DAY = 86_400_000;
const T0 = Date.parse("2027-01-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const stack = "urn:pulumi:shard-001::txmail-fleet::";
const tenantUrn = (t: string) => `${stack}txmail:index:Tenant::${t}`;
const SCHEDULE = { every: "30d", overlap: "7d" };
/** What a state holds of a secret exported without --show-secrets. */
const CIPHER = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };

function key(
  tenant: string,
  role: string,
  at: { rotatedAt: number; rotations?: number; previous?: boolean; schedule?: unknown; type?: string },
): StateResource {
  const schedule = "schedule" in at ? at.schedule : SCHEDULE;
  return {
    urn: `${stack}txmail:index:Tenant$${at.type ?? "txmail:index:SubAccountApiKey"}::${tenant}-${role}`,
    type: at.type ?? "txmail:index:SubAccountApiKey",
    custom: true,
    id: `${tenant}-${role}-id`,
    parent: tenantUrn(tenant),
    inputs: { label: `${tenant} ${role}`, rotation: schedule, connection: CIPHER },
    outputs: {
      secretKey: CIPHER,
      rotation: schedule,
      ...(typeof schedule === "object" && {
        currentId: `${tenant}-${role}-current`,
        rotations: at.rotations ?? 0,
        rotatedAt: iso(at.rotatedAt),
        nextRotationAt: iso(at.rotatedAt + 30 * DAY),
      }),
      ...(at.previous && {
        previousId: `${tenant}-${role}-previous`,
        previousSecretKey: CIPHER,
        previousRevokeAt: iso(at.rotatedAt + 7 * DAY),
      }),
    },
  };
}

const state = (...resources: StateResource[]): ExportedState => ({
  version: 3,
  deployment: {
    resources: [
      { urn: `${stack}pulumi:pulumi:Stack::txmail-fleet-shard-001`, type: "pulumi:pulumi:Stack" },
      ...["acme", "globex", "initech"].map((t) => ({ urn: tenantUrn(t), type: "txmail:index:Tenant" })),
      ...resources,
    ],
  },
});

const fleetState = () =>
  state(
    key("globex", "bootstrap", { rotatedAt: T0 - 31 * DAY }), // due by its schedule
    key("acme", "bootstrap", { rotatedAt: T0 - 8 * DAY, rotations: 2, previous: true }), // its previous past the overlap
    key("acme", "app", { rotatedAt: T0 - 2 * DAY }), // not due
    key("initech", "bootstrap", { rotatedAt: T0 - 10 * DAY, schedule: "2026-12" }), // the legacy trigger: no schedule
    key("initech", "smtp-crm", { rotatedAt: T0 - 1 * DAY, type: "txmail:index:SmtpCredential" }),
  );

describe("rotate's plan", () => {
  it("finds each credential on a schedule with the work due now, by tenant then resource", () => {
    const planned = planShard(fleetState(), "shard-001", { now: T0 });
    expect(planned.map((c) => [c.tenant, c.resource, c.kind, c.due?.work ?? "-", c.due?.cause ?? "-"])).toEqual([
      ["acme", "acme-app", "SubAccountApiKey", "-", "-"],
      ["acme", "acme-bootstrap", "SubAccountApiKey", "revoke previous", "-"],
      ["globex", "globex-bootstrap", "SubAccountApiKey", "rotate", "schedule"],
      ["initech", "initech-smtp-crm", "SmtpCredential", "-", "-"],
    ]);
    expect(planned[1]).toMatchObject({ rotations: 2, hasPrevious: true, previousRevokeAt: iso(T0 - DAY) });
    expect(targetsOf(planned, "shard-001")).toEqual([planned[1]!.urn, planned[2]!.urn]);
    expect(targetsOf(planned, "shard-002")).toEqual([]);
  });

  it("--older-than: a current key at least that old is due now (an early rotation); a younger one is not", () => {
    const planned = planShard(fleetState(), "shard-001", { now: T0, olderThanMs: 2 * DAY });
    const work = Object.fromEntries(planned.map((c) => [c.resource, c.due && `${c.due.work} (${c.due.cause})`]));
    expect(work).toEqual({
      "acme-app": "rotate (older than)",
      // 8 days old: rotated early; the rotation revokes its previous with it.
      "acme-bootstrap": "rotate (older than)",
      "globex-bootstrap": "rotate (schedule)",
      "initech-smtp-crm": undefined,
    });
  });

  it("--tenant: only the named tenants' credentials", () => {
    const planned = planShard(fleetState(), "shard-001", { now: T0, tenants: new Set(["globex"]) });
    expect(planned.map((c) => c.resource)).toEqual(["globex-bootstrap"]);
  });

  it("a resource being deleted, and the clock moved (TXMAIL_CLOCK_OFFSET_SECONDS's instant), are taken as given", () => {
    const s = fleetState();
    s.deployment.resources!.find((r) => r.urn.endsWith("globex-bootstrap"))!.delete = true;
    expect(planShard(s, "shard-001", { now: T0 }).map((c) => c.resource)).not.toContain("globex-bootstrap");
    const later = planShard(fleetState(), "shard-001", { now: T0 + 27 * DAY });
    expect(later.find((c) => c.resource === "acme-app")?.due).toBeUndefined();
    expect(
      planShard(fleetState(), "shard-001", { now: T0 + 28 * DAY }).find((c) => c.resource === "acme-app")?.due,
    ).toEqual({ work: "rotate", cause: "schedule" });
  });
});

describe("rotate's report", () => {
  const planned = () => planShard(fleetState(), "shard-001", { now: T0 });
  const after = (
    c: ReturnType<typeof planned>[number],
    change: Partial<{ rotations: number; hasPrevious: boolean; rotatedAt: string }>,
  ) => ({
    urn: c.urn,
    rotations: change.rotations ?? c.rotations,
    hasPrevious: change.hasPrevious ?? c.hasPrevious,
    rotatedAt: change.rotatedAt ?? c.rotatedAt,
    nextRotationAt: iso(Date.parse(change.rotatedAt ?? c.rotatedAt!) + 30 * DAY),
    ...((change.hasPrevious ?? c.hasPrevious) && {
      previousRevokeAt: iso(Date.parse(change.rotatedAt ?? c.rotatedAt!) + 7 * DAY),
    }),
  });

  it("says what the run did to each credential, with its times after the run; no secret and no id", () => {
    const p = planned();
    const [app, acme, globex] = p;
    const outcomes = new Map(
      [
        after(acme!, { hasPrevious: false }),
        after(globex!, { rotations: 1, hasPrevious: true, rotatedAt: iso(T0) }),
      ].map((o) => [o.urn, o]),
    );
    const credentials = rotatedCredentials(p, outcomes, { failed: new Set(), notRun: new Set() });
    const report = rotateReport({ now: T0, shardsRead: 1, ran: ["shard-001"], failed: [], notRun: [], credentials });
    expect(report).toEqual({
      command: "rotate",
      now: iso(T0),
      olderThan: null,
      shards: { read: 1, ran: ["shard-001"], failed: [], notRun: [] },
      counts: { rotated: 1, previousRevoked: 1, notDue: 2, failed: 0, notRun: 0 },
      credentials: [
        {
          tenant: "acme",
          shard: "shard-001",
          resource: "acme-app",
          kind: "SubAccountApiKey",
          action: "not due",
          cause: null,
          rotatedAt: app!.rotatedAt,
          nextRotationAt: app!.nextRotationAt,
          previousRevokeAt: null,
        },
        expect.objectContaining({ resource: "acme-bootstrap", action: "previous revoked", previousRevokeAt: null }),
        expect.objectContaining({
          resource: "globex-bootstrap",
          action: "rotated",
          cause: "schedule",
          rotatedAt: iso(T0),
          nextRotationAt: iso(T0 + 30 * DAY),
          previousRevokeAt: iso(T0 + 7 * DAY),
        }),
        expect.objectContaining({ resource: "initech-smtp-crm", kind: "SmtpCredential", action: "not due" }),
      ],
      exitCode: 0,
    });
    const table = rotateTable(report);
    expect(table.split("\n")).toEqual([
      "tenant   resource          kind              action            rotated at         next rotation",
      "acme     acme-app          SubAccountApiKey  not due           2026-12-30T00:00Z  2027-01-29T00:00Z",
      "acme     acme-bootstrap    SubAccountApiKey  previous revoked  2026-12-24T00:00Z  2027-01-23T00:00Z",
      "globex   globex-bootstrap  SubAccountApiKey  rotated           2027-01-01T00:00Z  2027-01-31T00:00Z",
      "initech  initech-smtp-crm  SmtpCredential    not due           2026-12-31T00:00Z  2027-01-30T00:00Z",
      "",
      "4 credentials on a schedule: 1 rotated, 1 previous revoked, 2 not due",
    ]);
    for (const text of [table, JSON.stringify(report)]) {
      expect(text).not.toContain("ciphertext");
      expect(text).not.toMatch(/-id\b|-current|-previous/); // no id of the service either
    }
  });

  it("a failed shard's due credentials are 'failed', an interrupted one's 'not run': exit 1", () => {
    const p = planned();
    const failed = rotateReport({
      now: T0,
      shardsRead: 1,
      ran: ["shard-001"],
      failed: [{ shard: "shard-001", error: "boom" }],
      notRun: [],
      credentials: rotatedCredentials(p, new Map(), { failed: new Set(["shard-001"]), notRun: new Set() }),
    });
    expect(failed.credentials.map((c) => c.action)).toEqual(["not due", "failed", "failed", "not due"]);
    expect(failed.exitCode).toBe(1);
    expect(rotateTable(failed)).toMatch(/: 0 rotated, 0 previous revoked, 2 not due, 2 FAILED$/);
    const interrupted = rotatedCredentials(p, new Map(), { failed: new Set(), notRun: new Set(["shard-001"]) });
    expect(interrupted.map((c) => c.action)).toEqual(["not due", "not run", "not run", "not due"]);
  });

  it("an early rotation says so in the table; a fleet with no credential on a schedule says only the count", () => {
    const p = planShard(fleetState(), "shard-001", { now: T0, olderThanMs: 2 * DAY });
    const app = p.find((c) => c.resource === "acme-app")!;
    const credentials = rotatedCredentials(
      p,
      new Map([[app.urn, after(app, { rotations: 1, hasPrevious: true, rotatedAt: iso(T0) })]]),
      { failed: new Set(), notRun: new Set() },
    );
    const report = rotateReport({
      now: T0,
      olderThan: "2d",
      shardsRead: 1,
      ran: ["shard-001"],
      failed: [],
      notRun: [],
      credentials,
    });
    expect(report.olderThan).toBe("2d");
    expect(rotateTable(report)).toMatch(/^acme +acme-app +SubAccountApiKey +rotated \(--older-than\) /m);
    const none = rotateReport({ now: T0, shardsRead: 0, ran: [], failed: [], notRun: [], credentials: [] });
    expect(rotateTable(none)).toBe("0 credentials on a schedule: 0 rotated, 0 previous revoked, 0 not due");
  });
});
