// Domain, Route, Webhook and SmtpCredential through the real engine against the emulator:
// up → in-place updates with forced replacements → destroy, with assertions on the service's
// records; one-time secrets stay out of state exports; look-ups page through > 100 items. Both
// faces; the paged look-up (the generic provider and client alone) and destroy on the dynamic one.
// A route changed by hand, found by a refresh and restored by the next up, is
// test/e2e/fleet/drift.test.ts's, on both faces; drift read back on refresh is also
// test/e2e/keys.test.ts's, on both faces.
import { generateKeyPairSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { Domain, Route, RouteWithSecret, SmtpCredential, Webhook, paths } from "../../provider/api";
import { controlClient, seqOf } from "../../support/control";
import { createTestStack, FACES, type TestStack } from "./harness";
import { onFace } from "./onFace";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

let svc: TestService;
let t: TestStack;

async function all<T>(path: string, schema: Parameters<TestService["client"]["list"]>[1]): Promise<T[]> {
  const out: T[] = [];
  for await (const item of svc.client.list(path, schema)) out.push(item as T);
  return out;
}
const domains = () => all<Domain>(paths.domains(svc.accountId), Domain);
const routes = () => all<Route>(paths.routes(svc.accountId), Route);
const webhooks = () => all<Webhook>(paths.webhooks(svc.accountId), Webhook);
const smtps = () => all<SmtpCredential>(paths.smtpCredentials(svc.accountId), SmtpCredential);

/** A fresh RSA key in PEM, as a customer would bring for DKIM (1024 bits: the service's minimum). */
const dkimKey = () =>
  generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs1", format: "pem" }) as string;

describe.each(FACES)("%s face", (face) => {
  beforeAll(async () => {
    svc = await startService();
    t = await createTestStack({
      programDir: path.join(__dirname, "programs", "objects"),
      name: `objects-${face}`,
      face,
      config: svc.config(),
    });
  });

  afterAll(async () => {
    await t?.dispose();
    await svc?.close();
  });

  describe("a tenant's objects on the real engine", () => {
    let first: Record<string, { value: unknown; secret: boolean }>;

    it("creates each object once, with DNS records and one-time secrets as secret outputs", async () => {
      const up = await t.up();
      first = up.outputs;
      expect((await domains()).map((d) => d.domain)).toEqual(["mail.example.com"]);
      expect(await routes()).toHaveLength(1);
      expect(await webhooks()).toHaveLength(1);
      expect(await smtps()).toHaveLength(1);
      expect(up.outputs.routeSecret.secret).toBe(true);
      expect(up.outputs.webhookSecret.secret).toBe(true);
      expect(up.outputs.smtpPassword.secret).toBe(true);
      expect(String(up.outputs.smtpPassword.value).length).toBeGreaterThan(8);
      const records = up.outputs.dnsRecords.value as Array<Record<string, unknown>>;
      expect(records.length).toBeGreaterThan(0);
      expect(records[0]).toEqual(
        expect.objectContaining({ type: expect.any(String), host: expect.any(String), value: expect.any(String) }),
      );
    });

    it("keeps secrets out of the state export", async () => {
      const exported = await t.exportText(false);
      for (const key of ["routeSecret", "webhookSecret", "smtpPassword"]) {
        expect(exported).not.toContain(String(first[key].value));
      }
      expect(exported).not.toContain(svc.apiKey);
    });

    // In-place updates of every kind, on both faces, are the acceptance run's (test/e2e/acceptance.test.ts);
    // here they share an up with the replacements, so the one-time secrets are seen to survive both.
    it("replaces what cannot change in place, new object first (an SMTP credential, a domain name); updates the rest in place", async () => {
      await t.stack.setConfig("routeName", { value: "helpdesk" });
      await t.stack.setConfig("onDelivered", { value: "true" });
      await t.stack.setConfig("tracking", { value: "track" });
      await t.stack.setConfig("sandbox", { value: "true" });
      await t.stack.setConfig("domain", { value: "mail2.example.com" });
      const control = controlClient(svc);
      await control.clearRequests();
      const up = await t.up();
      expect(up.outputs.routeId.value).toBe(first.routeId.value);
      expect((await routes())[0].name).toBe("helpdesk");
      expect((await webhooks())[0].on_delivered).toBe(true);
      expect((await domains())[0].tracking_subdomain).toBe("track");
      // The one-time secrets survive updates.
      expect(up.outputs.routeSecret.value).toBe(first.routeSecret.value);
      expect(up.outputs.smtpId.value).not.toBe(first.smtpId.value);
      expect((await smtps()).map((s) => s.id)).toEqual([up.outputs.smtpId.value]);
      expect((await smtps())[0].sandbox).toBe(true);
      expect((await domains()).map((d) => d.domain)).toEqual(["mail2.example.com"]);
      // Create-before-delete, as the service saw it: a sender switches to the new password while the
      // old one still works.
      const log = await control.requests();
      const acct = svc.accountId;
      expect(seqOf(log, "POST", paths.smtpCredentials(acct), 201)).toBeLessThan(
        seqOf(log, "DELETE", paths.smtpCredential(acct, String(first.smtpId.value)), 200),
      );
      expect(seqOf(log, "POST", paths.domains(acct), 201)).toBeLessThan(
        seqOf(log, "DELETE", paths.domain(acct, "mail.example.com"), 200),
      );
    });

    it("replaces the domain delete-first when its DKIM key changes (the service keeps names unique)", async () => {
      const before = await domains();
      const keyFile = path.join(t.stateDir, "dkim.pem");
      fs.writeFileSync(keyFile, dkimKey(), { mode: 0o600 });
      await t.stack.setConfig("dkimKeyFile", { value: keyFile });
      const control = controlClient(svc);
      await control.clearRequests();
      const up = await t.up();
      expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
      const after = await domains();
      expect(after.map((d) => d.domain)).toEqual(["mail2.example.com"]);
      expect(after[0].id).not.toBe(before[0].id);
      expect(after[0].dns_records.find((r) => r.label === "DKIM")).toMatchObject({ type: "TXT" }); // our key's record
      const log = await control.requests();
      const acct = svc.accountId;
      expect(seqOf(log, "DELETE", paths.domain(acct, "mail2.example.com"), 200)).toBeLessThan(
        seqOf(log, "POST", paths.domains(acct), 201),
      );
    });

    // Within 24 h of the create the key of a replacement's create is the first create's, and the
    // service answers it with that object, which must never be deleted as "the old one" (issue 58).
    it("replaces within 24 h of the create without losing an object: `replaceOnChanges`, `--replace`", async () => {
      const urns = (
        JSON.parse(await t.exportText(false)) as { deployment: { resources: { urn: string }[] } }
      ).deployment.resources.map((r) => r.urn);
      const urnOf = (name: string) => urns.find((u) => u.endsWith(`::${name}`))!;
      const before = { route: await routes(), domain: await domains() };

      await t.stack.setConfig("replaceOnUrl", { value: "true" });
      await t.stack.setConfig("routeUrl", { value: "https://example.com/inbound-2" });
      const optedIn = await t.up();
      expect(optedIn.summary.resourceChanges).toMatchObject({ replace: 1 });
      expect(optedIn.outputs.routeId.value).not.toBe(before.route[0]!.id);
      expect((await routes()).map((r) => [r.id, r.url])).toEqual([
        [optedIn.outputs.routeId.value, "https://example.com/inbound-2"],
      ]);

      // A targeted replacement: the provider cannot tell its create from a rerun, the service
      // answers with the same object, and the engine's delete of it is refused.
      const forced = await t.up({ replace: [urnOf("d"), urnOf("w")] });
      expect((await domains()).map((d) => d.id)).toEqual([forced.outputs.domainId.value]);
      expect(forced.outputs.domainId.value).toBe(before.domain[0]!.id);
      expect((await webhooks()).map((w) => w.id)).toEqual([forced.outputs.webhookId.value]);
      expect(t.log()).toContain("not deleted, and not replaced");
      // Every id the state names is live: a refresh finds nothing deleted.
      const refresh = await t.refresh();
      expect(refresh.summary.resourceChanges?.delete ?? 0).toBe(0);
    });

    onFace(face, "dynamic")("finds a route by name across pages (> 100 routes)", async () => {
      for (let i = 0; i < 120; i++) {
        await svc.client.post(
          paths.routes(svc.accountId),
          { name: `bulk-${i}`, url: "https://example.com/bulk", recipient: "" },
          RouteWithSecret,
        );
      }
      await t.stack.setConfig("lookupRoute", { value: "bulk-119" });
      const up = await t.up();
      const bulk = (await routes()).find((r) => r.name === "bulk-119");
      expect(up.outputs.foundRouteId.value).toBe(bulk?.id);
      expect(up.outputs.usage.value).toMatch(/^[a-z]{3}$/);
    });

    // The native face's destroy of every kind is the acceptance run's (test/e2e/acceptance.test.ts).
    onFace(face, "dynamic")("destroys every object it created (and only those)", async () => {
      await t.destroy();
      expect(await domains()).toHaveLength(0);
      expect(await webhooks()).toHaveLength(0);
      expect(await smtps()).toHaveLength(0);
      expect((await routes()).every((r) => r.name.startsWith("bulk-"))).toBe(true);
    });
  });
});
