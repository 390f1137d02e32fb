// Domain, Route, Webhook and SmtpCredential through the real engine against the emulator:
// up → in-place update → forced replacement → drift + refresh → destroy, with assertions on the
// service's records; one-time secrets stay out of state exports; look-ups page through > 100 items.
import * as path from "node:path";
import { Domain, Route, RouteWithSecret, SmtpCredential, Webhook, paths } from "../../provider/api";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "./service";

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

beforeAll(async () => {
  svc = await startService();
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "objects"),
    name: "objects",
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

  it("updates in place (same ids) and the service records follow", async () => {
    await t.stack.setConfig("routeName", { value: "helpdesk" });
    await t.stack.setConfig("onDelivered", { value: "true" });
    await t.stack.setConfig("tracking", { value: "track" });
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 3 });
    expect(up.outputs.routeId.value).toBe(first.routeId.value);
    expect((await routes())[0].name).toBe("helpdesk");
    expect((await webhooks())[0].on_delivered).toBe(true);
    expect((await domains())[0].tracking_subdomain).toBe("track");
    // The one-time secrets survive updates.
    expect(up.outputs.routeSecret.value).toBe(first.routeSecret.value);
  });

  it("replaces what cannot change in place: an SMTP credential, a domain name", async () => {
    await t.stack.setConfig("sandbox", { value: "true" });
    await t.stack.setConfig("domain", { value: "mail2.example.com" });
    const up = await t.up();
    expect(up.outputs.smtpId.value).not.toBe(first.smtpId.value);
    expect((await smtps()).map((s) => s.id)).toEqual([up.outputs.smtpId.value]);
    expect((await smtps())[0].sandbox).toBe(true);
    expect((await domains()).map((d) => d.domain)).toEqual(["mail2.example.com"]);
  });

  it("shows out-of-band drift on refresh and restores the program's values on up", async () => {
    const routeId = String((await t.stack.outputs()).routeId.value);
    await svc.client.put(paths.route(svc.accountId, routeId), { name: "renamed-by-hand" }, Route);
    const refresh = await t.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await t.up();
    expect((await routes())[0].name).toBe("helpdesk");
  });

  it("finds a route by name across pages (> 100 routes)", async () => {
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

  it("destroys every object it created (and only those)", async () => {
    await t.destroy();
    expect(await domains()).toHaveLength(0);
    expect(await webhooks()).toHaveLength(0);
    expect(await smtps()).toHaveLength(0);
    expect((await routes()).every((r) => r.name.startsWith("bulk-"))).toBe(true);
  });
});
