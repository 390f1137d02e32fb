// `txmail-fleet drift` on the real engine against the emulator (issue 38), on both faces: a fleet
// just made has no drift; changes made out of band through the service's API — a changed field on
// every kind that can change, a deleted route, a deleted sub-account key, a key, a webhook and a
// suppression made by hand — are reported exactly (nothing else, nothing missing), with no write to
// the service and no secret in any output; `--remediate` sets back what the tenants file sets (with
// no twin for what was deleted), keeps the values made by hand in the fields it leaves to the service
// (docs/guide/fleets.md, Remediation) exactly as the report gave them, and the next check finds only
// the hand-made objects (which no stack manages until someone adopts them). A domain verified in
// `up` (a tenant's `domainVerification`) whose record is removed later is reported as a changed
// verification, its one DNS check being the only request a check sends that is not a read
// (docs/guide/verifying-a-domain.md). Beside it, on the same
// fleet, `txmail-fleet dns` (docs/guide/fleets.md#handing-dns-to-another-team): each tenant's domain
// records as the service holds them, one domain verified and one not, as a table, JSON and a zone
// file, with no write (but --check-dns's one per domain) and no secret.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { controlClient, type EmulatorControl } from "../../../support/control";
import { startService, type TestService } from "../../../support/service";
import { runFleet, type FleetRun } from "../../../support/fleetCli";
import { FACES } from "../harness";
import { onFace } from "../onFace";
import type { DriftReport } from "../../../fleet/drift/report";
import type { TenantDns } from "../../../fleet/dns/types";
import type { Domain } from "../../../provider/api";

jest.setTimeout(10 * 60_000);

const TENANTS = [
  {
    name: "acme",
    website: "acme.example.com",
    domain: "mail.acme.example.com",
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
    apiKeys: { app: { ipAllowList: ["203.0.113.10"] } },
    routes: {
      support: { url: "https://acme.example.com/in", recipient: "support@mail.acme.example.com" },
      sales: { url: "https://acme.example.com/sales", recipient: "sales@mail.acme.example.com" },
    },
    webhooks: { events: { url: "https://acme.example.com/ev", events: ["delivered"] } },
    smtpCredentials: { crm: {} },
    suppressions: { bob: { email: "bob@example.com", expiresAt: "2030-01-01T00:00:00Z" } },
  },
  // A second tenant, untouched: nothing of it may be reported. It has no domain (for dns).
  {
    name: "globex",
    website: "globex.example.com",
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
    webhooks: { events: { url: "https://globex.example.com/ev", events: ["bounced"] } },
  },
  // A third: a domain of its own, verified in each `up` (for dns: verified while acme's is not); its
  // DNS record removed later is the drift of its verification, and nothing else of it may be reported.
  {
    name: "initech",
    website: "initech.example.com",
    domain: "mail.initech.example.com",
    domainVerification: { timeoutSeconds: 60 },
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
  },
];
const INITECH_DOMAIN = "mail.initech.example.com";

/** Any API key secret the emulator issues (`<prefix>-sk-<64 characters>`). */
const KEY_SECRET = /[a-z0-9]+-sk-[A-Za-z0-9]{64}/;

describe.each(FACES)("txmail-fleet drift on the real engine, %s face", (face) => {
  let svc: TestService;
  let control: EmulatorControl;
  let dir: string;
  let acme: string;
  let initech: string;
  /** The emulator's own key: a parent-account key no fleet manages, ignored as a team would. */
  let rootKey: string;
  /** The key made by hand that the out-of-band changes are made with (it allows every address). */
  let handKey: { id: string; secret_key: string };

  // The provider checks DNS again as soon as the emulator's cache (0 s: dnsCacheSeconds) allows.
  const fleet = (...args: string[]) =>
    runFleet(args, {
      cwd: dir,
      stateDir: path.join(dir, "state"),
      svc,
      env: { TXMAIL_DNS_CHECK_INTERVAL_MS: "200" },
    });
  const drift = async (...args: string[]): Promise<{ run: FleetRun; report: DriftReport }> => {
    const run = await fleet("drift", "--json", "--ignore", rootKey, ...args);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(KEY_SECRET);
    if (!run.stdout.trim()) throw new Error(`drift printed no report (exit ${run.code}):\n${run.stderr}`);
    return { run, report: JSON.parse(run.stdout) as DriftReport };
  };
  const api = async (key: string, method: string, where: string, body?: unknown) => {
    const res = await fetch(`${svc.baseUrl}/v2/accounts/${where}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${where}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown> & { id: string }) : undefined;
  };
  const writes = async () =>
    (await control.requests()).requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  /** A check's one request that is not a read: the service checking initech's DNS for its verification's read. */
  const initechCheck = () => `POST /v2/accounts/${initech}/domains/${INITECH_DOMAIN}/check-dns`;
  /**
   * While `running` goes on, polls the state dump until `domain` exists, then flips its DNS to
   * verified (its records published): the verification waiting in that run sees it at its next check.
   */
  const verifyOnceMade = async (running: Promise<unknown>, domain: string): Promise<Domain | undefined> => {
    let over = false;
    const end = () => {
      over = true;
    };
    void running.then(end, end);
    while (!over) {
      const made = (await control.dumpState()).domains.find((x) => x.domain === domain);
      if (made) return control.setDomainVerified(domain, true, { accountId: made.account_id });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return undefined;
  };

  beforeAll(async () => {
    // No DNS cache: a check after the flag flips sees it (the service's is 60 s).
    svc = await startService({ dnsCacheSeconds: 0 });
    control = controlClient(svc);
    const d = await control.dumpState();
    rootKey = d.api_keys.find((k) => k.account_id === d.parent_account_id)!.id;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-drift-"));
    fs.mkdirSync(path.join(dir, "state"));
    fs.writeFileSync(path.join(dir, "tenants.yaml"), stringify({ tenants: TENANTS }));
    const running = fleet("up", "--face", face);
    // initech's verification waits in this up until the service sees its records.
    const verified = verifyOnceMade(running, INITECH_DOMAIN);
    const up = await running;
    if (up.code !== 0) throw new Error(`up: ${up.stdout}${up.stderr}`);
    if ((await verified)?.dns_valid !== true) throw new Error(`up: ${INITECH_DOMAIN} was never flipped verified`);
    const accounts = (await control.dumpState()).accounts;
    acme = accounts.find((a) => a.name === "acme")!.id;
    initech = accounts.find((a) => a.name === "initech")!.id;
  });

  afterAll(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // Exit 0 end to end, on the fleet's default face: the next test's exact report already proves, on
  // both faces, that nothing unchanged is reported and that a check writes nothing (but the service's
  // DNS check of initech's verification, which changes no object).
  onFace(face, "native")(
    "a fleet just deployed has no drift, and the check writes nothing (but the verification's one DNS check)",
    async () => {
      await control.clearRequests();
      const { run, report } = await drift();
      expect(report).toMatchObject({ drift: [], unmanaged: [], unchecked: [], exitCode: 0, tenantsChecked: 3 });
      expect(run.code).toBe(0);
      expect(await writes()).toEqual([initechCheck()]);
    },
  );

  // dns reads what drift's inventory reads (the shard's outputs, each tenant's own key: fleet/shardOutputs.ts)
  // and runs no program, the same on both faces: one face. Before the changes by hand below.
  onFace(face, "native")(
    "dns: each tenant's records as the service holds them — a table, JSON, a zone file — one verified, one not; a shard never applied said; nothing written, no secret",
    async () => {
      const d = await control.dumpState();
      const accountOf = (name: string) => d.accounts.find((a) => a.name === name)!.id;
      // initech's DNS is published and the service has checked (its verification in up, and now);
      // acme's is published, and the service has not looked yet (--check-dns below asks it to).
      const initech = await control.setDomainVerified("mail.initech.example.com", true, {
        accountId: accountOf("initech"),
      });
      const acmeDomain = await control.setDomainVerified("mail.acme.example.com", true, {
        accountId: acme,
        apply: false,
      });
      // A tenant added to the file and placed in a new shard (a smaller shard size for new tenants),
      // which no up has made yet.
      const more = path.join(dir, "more.yaml");
      const hooli = { name: "hooli", website: "hooli.example.com", domain: "mail.hooli.example.com" };
      fs.writeFileSync(more, stringify({ tenants: [...TENANTS, hooli] }));
      const placed = ["--placement", path.join(dir, "tenants.placement.json")];
      const dns = async (...args: string[]) => {
        const run = await fleet("dns", ...args);
        expect(`${run.stdout}${run.stderr}`).not.toMatch(KEY_SECRET);
        return run;
      };
      await control.clearRequests();

      const table = await dns("--tenants", more, ...placed, "--shard-size", "1");
      expect(table.code).toBe(3);
      const lines = table.stdout.split("\n");
      expect(lines).toEqual(
        expect.arrayContaining([
          "4 tenants in 2 shards: 1 domain verified, 1 not verified, 1 tenant without a domain, 1 not applied yet",
          "acme (shard-001) mail.acme.example.com: verified no, last checked never; required, not seen: DKIM, Return-Path",
          `initech (shard-001) mail.initech.example.com: verified yes, last checked ${initech.last_dns_check_at}`,
          "globex (shard-001): no domain",
          "hooli (shard-002): not applied — shard-002 was never applied: txmail-fleet up",
          "globex   no domain",
          "hooli    (not applied)",
          "exit 3",
        ]),
      );
      const row = (tenant: string, domain: string, r: Domain["dns_records"][number]) =>
        new RegExp(
          `^${tenant} +${domain} +${r.label} +${r.type} +${r.host} +${r.required ? "yes" : "no"} +${r.propagated ? "yes" : "no"} +${r.content}$`.replace(
            /\./g,
            "\\.",
          ),
        );
      for (const r of initech.dns_records)
        expect(lines.some((l) => row("initech", initech.domain, r).test(l))).toBe(true);
      for (const r of acmeDomain.dns_records)
        expect(lines.some((l) => row("acme", acmeDomain.domain, r).test(l))).toBe(true);
      // A read never creates the shard it reads.
      expect(fs.existsSync(path.join(dir, "state", ".pulumi", "stacks", "txmail-fleet", "shard-002.json"))).toBe(false);

      const json = await dns("--json");
      expect(json.code).toBe(3);
      const tenants = JSON.parse(json.stdout) as TenantDns[];
      const records = (domain: Domain) =>
        domain.dns_records.map((r) => ({
          label: r.label ?? null,
          type: r.type,
          host: r.host,
          value: r.content,
          required: r.required,
          propagated: r.propagated,
        }));
      expect(tenants).toEqual([
        {
          tenant: "acme",
          shard: "shard-001",
          status: "read",
          domain: "mail.acme.example.com",
          dnsValid: false,
          lastCheckedAt: null,
          records: records(acmeDomain),
        },
        {
          tenant: "globex",
          shard: "shard-001",
          status: "no-domain",
          domain: null,
          dnsValid: null,
          lastCheckedAt: null,
          records: [],
        },
        {
          tenant: "initech",
          shard: "shard-001",
          status: "read",
          domain: "mail.initech.example.com",
          dnsValid: true,
          lastCheckedAt: initech.last_dns_check_at,
          records: records(initech),
        },
      ]);
      expect(json.stderr).toContain("3 tenants in 1 shard: 1 domain verified, 1 not verified");

      const zone = await dns("--zone", "--required-only");
      expect(zone.code).toBe(3);
      expect(zone.stdout).toMatch(/^; txmail-fleet dns --zone: /);
      const written = zone.stdout.split("\n").filter((l) => / IN /.test(l));
      expect(written).toEqual(
        [acmeDomain, initech].flatMap((domain) =>
          domain.dns_records
            .filter((r) => r.required)
            .map((r) => `${r.host}. IN ${r.type} ${r.type === "TXT" ? `"${r.content}"` : `${r.content}.`}`),
        ),
      );
      expect(zone.stdout).toContain(
        "; tenant acme (shard-001), domain mail.acme.example.com: not verified, last checked never",
      );
      expect(zone.stdout).not.toContain("globex");
      expect(await writes()).toEqual([]);

      // --check-dns: the service checks acme's domain once, and now sees its records.
      const checked = await dns("--check-dns", "--tenant", "acme");
      expect(checked.code).toBe(0);
      expect(await writes()).toEqual([`POST /v2/accounts/${acme}/domains/mail.acme.example.com/check-dns`]);
      expect(checked.stdout).toMatch(
        /^acme \(shard-001\) mail\.acme\.example\.com: verified yes, last checked \S+; checked now \(--check-dns\)$/m,
      );
      expect(checked.stdout).not.toMatch(/initech|globex/);
    },
  );

  it("reports exactly what was changed, deleted and made by hand, with 0 writes (but the verification's one DNS check) and no secret", async () => {
    const d = await control.dumpState();
    const parentKey = svc.apiKey;
    const parentAt = `${svc.accountId}/sub-accounts/${acme}`;
    handKey = (await api(parentKey, "POST", `${parentAt}/api-keys`, {
      label: "by hand",
      scopes: ["domains:write", "routes:write:all", "routes:delete:all", "webhooks:write:all", "suppressions:write"],
      ip_allow_list: ["0.0.0.0/1", "128.0.0.0/1"],
    })) as unknown as { id: string; secret_key: string };
    const hand = handKey.secret_key;
    const ofAcme = <T extends { account_id?: string }>(list: T[]) => list.filter((x) => x.account_id === acme);
    const [support, sales] = ofAcme(d.routes)
      .sort((a, b) => String(a.name).localeCompare(String(b.name)))
      .reverse();
    const key = (label: string) => ofAcme(d.api_keys).find((k) => k.label === label)!.id;
    // A changed field on every kind the service lets change.
    await api(parentKey, "PUT", parentAt, { monthly_credit: 777 });
    await api(parentKey, "PUT", `${parentAt}/api-keys/${key("acme bootstrap")}`, { label: "renamed by hand" });
    await api(hand, "PUT", `${acme}/domains/mail.acme.example.com`, { tracking_subdomain: "trk" });
    await api(hand, "PUT", `${acme}/routes/${support!.id}`, { url: "https://evil.example.com/route" });
    await api(hand, "PUT", `${acme}/webhooks/${ofAcme(d.webhooks)[0]!.id}`, { url: "https://evil.example.com/ev" });
    // Deleted at the service.
    await api(hand, "DELETE", `${acme}/routes/${sales!.id}`);
    await api(parentKey, "DELETE", `${parentAt}/api-keys/${key("acme app")}`);
    // Made by hand.
    const sneaky = await api(hand, "POST", `${acme}/webhooks`, {
      name: "sneaky",
      url: "https://evil.example.com/hook",
      on_bounced: true,
      scope: "global",
    });
    await api(hand, "POST", `${acme}/suppressions`, { email: "carol@example.com", expires_at: "2031-01-01T00:00:00Z" });
    const carol = (await control.dumpState()).suppressions.find((x) => x.email === "carol@example.com")!;
    // A record of initech's domain removed from its DNS: the service's next check no longer sees it.
    await control.setDomainVerified(INITECH_DOMAIN, false, { accountId: initech });
    const summary = path.join(dir, "summary.md");
    await control.clearRequests();

    const { run, report } = await drift("--markdown", summary);

    expect(await writes()).toEqual([initechCheck()]);
    expect(run.code).toBe(3);
    expect(report.drift.map((r) => [r.tenant, r.resource, r.kind, r.status, r.fields]).sort()).toEqual(
      [
        ["acme", "acme", "SubAccount", "changed", [{ field: "monthlyCredit", recorded: 0, service: 777 }]],
        ["acme", "acme-app", "SubAccountApiKey", "deleted", []],
        [
          "acme",
          "acme-bootstrap",
          "SubAccountApiKey",
          "changed",
          [{ field: "label", recorded: "acme bootstrap", service: "renamed by hand" }],
        ],
        ["acme", "acme-domain", "Domain", "changed", [{ field: "trackingSubdomain", recorded: null, service: "trk" }]],
        ["acme", "acme-route-sales", "Route", "deleted", []],
        [
          "acme",
          "acme-route-support",
          "Route",
          "changed",
          [{ field: "url", recorded: "https://acme.example.com/in", service: "https://evil.example.com/route" }],
        ],
        [
          "acme",
          "acme-webhook-events",
          "Webhook",
          "changed",
          [{ field: "url", recorded: "https://acme.example.com/ev", service: "https://evil.example.com/ev" }],
        ],
        [
          "initech",
          "initech-verification",
          "DomainVerification",
          "changed",
          [{ field: "verified", recorded: true, service: false }],
        ],
      ].sort(),
    );
    expect(report.unmanaged.map((u) => [u.tenant, u.kind, u.id, u.policy?.split(" ")[0]]).sort()).toEqual(
      [
        ["acme", "SubAccountApiKey", handKey.id, "ip-allow-list-no-allow-all"],
        ["acme", "Suppression", carol.id, undefined],
        ["acme", "Webhook", sneaky!.id, undefined],
      ].sort(),
    );
    expect(report.unchecked).toEqual([]);
    const markdown = fs.readFileSync(summary, "utf8");
    expect(markdown).toMatch(/^## Tenant drift — ❌ drift found/);
    expect(markdown).toContain("`pulumi import txmail:index:Webhook acme-sneaky");
    expect(markdown).toContain(
      "| initech | `initech-verification` | DomainVerification | changed | verified: true → false |",
    );
    expect(markdown).not.toMatch(KEY_SECRET);
  });

  it("--remediate sets back what the tenants file sets, with no twin, and keeps the reported values of the fields it leaves to the service; the next check finds only what was made by hand", async () => {
    // initech's record published again: this run's check finds its verification verified, so the
    // remediation's up (which would verify again, and wait for DNS) leaves it out.
    await control.setDomainVerified(INITECH_DOMAIN, true, { accountId: initech });
    const { run, report } = await drift("--remediate");
    expect(report.drift.map((r) => r.resource).sort()).toEqual([
      "acme",
      "acme-app",
      "acme-bootstrap",
      "acme-domain",
      "acme-route-sales",
      "acme-route-support",
      "acme-webhook-events",
    ]);
    expect(report.remediation).toEqual([expect.objectContaining({ shard: "shard-001", ok: true })]);
    // Fixed: the drift; left: the hand-made objects, which no stack manages.
    expect(run.code).toBe(3);

    const d = await control.dumpState();
    const ofAcme = <T extends { account_id?: string }>(list: T[]) => list.filter((x) => x.account_id === acme);
    // Fields the tenants file leaves to the service (acme sets no monthly credit, its domain no
    // tracking subdomain): accepted as the service holds them — exactly the values this run's report
    // gave as the service's, which are the ones made by hand.
    const reported = (resource: string, field: string): unknown => {
      const change = report.drift.find((r) => r.resource === resource)?.fields.find((f) => f.field === field);
      if (!change) throw new Error(`the report has no ${field} of ${resource}:\n${JSON.stringify(report.drift)}`);
      return change.service;
    };
    const leftToService = {
      monthlyCredit: reported("acme", "monthlyCredit"),
      trackingSubdomain: reported("acme-domain", "trackingSubdomain"),
    };
    expect(leftToService).toEqual({ monthlyCredit: 777, trackingSubdomain: "trk" });
    expect({
      monthlyCredit: d.accounts.find((a) => a.id === acme)!.monthly_credit,
      trackingSubdomain: ofAcme(d.domains).find((x) => x.domain === "mail.acme.example.com")!.tracking_subdomain,
    }).toEqual(leftToService);
    expect(
      ofAcme(d.routes)
        .map((r) => [r.name, r.url])
        .sort(),
    ).toEqual([
      ["sales", "https://acme.example.com/sales"],
      ["support", "https://acme.example.com/in"],
    ]);
    expect(
      ofAcme(d.webhooks)
        .map((w) => [w.name, w.url])
        .sort(),
    ).toEqual([
      ["events", "https://acme.example.com/ev"],
      ["sneaky", "https://evil.example.com/hook"],
    ]);
    expect(
      ofAcme(d.api_keys)
        .map((k) => k.label)
        .sort(),
    ).toEqual(["acme app", "acme bootstrap", "by hand"]);

    const after = await drift();
    expect(after.report.drift).toEqual([]);
    expect(after.report.unmanaged.map((u) => u.kind).sort()).toEqual(["SubAccountApiKey", "Suppression", "Webhook"]);
    expect(after.run.code).toBe(3);
  });
});
