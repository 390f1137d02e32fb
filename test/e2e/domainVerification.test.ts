// A domain verified in the same `pulumi up` that publishes its DNS records, on the real engine,
// against the emulator resolving through a real DNS server on loopback (PowerDNS,
// support/dnsServer.ts; the emulator's --dns-server). The records are published by "the user's DNS
// provider" — the test-only plugin txmaildns (support/dnsPlugin.ts), standing for
// cloudflare.DnsRecord — into that server. TypeScript on both faces and Pulumi YAML here; Go and
// Python in their SDK programs (test/e2e/go, test/e2e/python).
//   - one up: domain, records, verification, then the key that needs it — verified, ≤ 2 checks;
//   - refresh after a record is deleted at the DNS server: the verification reads it gone, the next
//     up publishes it again and verifies again;
//   - a record published wrong: the up fails naming it, and what needs the domain is not made.
import * as path from "node:path";
import { controlClient, type EmulatorControl } from "../../support/control";
import { dnsPluginEnv, installDnsPlugin } from "../../support/dnsPlugin";
import { type DnsServer, startDnsServer } from "../../support/dnsServer";
import { startService, type TestService } from "../../support/service";
import { createTestStack, type Face, type TestStack } from "./harness";

jest.setTimeout(10 * 60_000);

const CHECK = "/v2/accounts/{account_id}/domains/{domain}/check-dns";
/** The emulator's check-dns cache, and the provider's interval matched to it (the service's: 60 s). */
const CACHE_SECONDS = 1;

let server: DnsServer;
let svc: TestService;
let control: EmulatorControl;
const stacks: TestStack[] = [];

beforeAll(async () => {
  server = await startDnsServer();
  await server.createZone("example.com");
  svc = await startService({ dnsServer: server.address, dnsCacheSeconds: CACHE_SECONDS });
  control = controlClient(svc);
});

afterAll(async () => {
  await Promise.all(stacks.map((s) => s.dispose()));
  await svc?.close();
  await server?.close();
});

async function stack(program: string, domain: string, extra: Record<string, string> = {}, face?: Face) {
  const config = { ...svc.config(), domain: { value: domain } };
  for (const [k, v] of Object.entries(extra)) Object.assign(config, { [k]: { value: v } });
  const t = await createTestStack({
    programDir: path.join(__dirname, "programs", program),
    name: `verify-${face ?? "yaml"}`,
    config,
    env: { ...dnsPluginEnv(server), TXMAIL_DNS_CHECK_INTERVAL_MS: String(CACHE_SECONDS * 1000) },
    face,
  });
  installDnsPlugin(t.stack.workspace.pulumiHome!);
  stacks.push(t);
  return t;
}

/** The check-dns requests of one domain, in arrival order, and the arrival of the last request of `path`. */
async function requests(domain: string) {
  const { requests: log } = await control.requests();
  const checks = log.filter((r) => r.template === CHECK && r.path.includes(`/domains/${domain}/`));
  return { checks, log };
}

describe.each(["dynamic", "native"] as const)("TypeScript, %s face", (face) => {
  const domain = `mail.${face}.example.com`;

  it("publishes the records and verifies the domain in one up; what needs it comes after", async () => {
    const t = await stack("verify", domain, {}, face);
    const up = await t.up();
    expect(up.outputs.verified?.value).toBe(true);
    const { checks, log } = await requests(domain);
    expect(checks.length).toBeGreaterThanOrEqual(1);
    expect(checks.length).toBeLessThanOrEqual(2);
    const keyCreate = log.filter((r) => r.method === "POST" && r.template === "/v2/accounts/{account_id}/api-keys");
    expect(keyCreate.at(-1)!.seq).toBeGreaterThan(checks.at(-1)!.seq);
    if (face === "native") return; // what follows is the generic provider's, the same below both faces

    // A record deleted at the DNS provider's server: refresh reads it gone (the record and the
    // verification), the next up publishes it again and verifies again.
    const dkimHost = `txm1._domainkey.${domain}`;
    await server.deleteRecord(dkimHost, "CNAME");
    await control.advanceClock(CACHE_SECONDS * 1000 + 1);
    const refresh = await t.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1, update: 1 });
    const again = await t.up();
    expect(again.summary.resourceChanges).toMatchObject({ create: 1, update: 1 });
    expect(again.outputs.verified?.value).toBe(true);
  });
});

it("a record published wrong fails the up naming it, and what needs the domain is not made", async () => {
  const domain = "mail.wrong.example.com";
  const t = await stack("verify", domain, { wrongLabel: "DKIM", timeoutSeconds: "3" }, "dynamic");
  const error = await t.up().then(
    () => "",
    (e: Error) => e.message,
  );
  expect(error).toMatch(/domain mail\.wrong\.example\.com: DNS not verified within 3 s/);
  expect(error).toContain(`CNAME txm1._domainkey.${domain}`);
  expect(error).not.toContain(`CNAME rp.${domain}`); // published right: seen
  expect(error).toMatch(/The domain itself .* was not changed/);
  const { api_keys: keys } = await control.dumpState();
  expect(keys.filter((k) => k.label === `sender ${domain}`)).toEqual([]);
});

it("Pulumi YAML: publishes and verifies in one up", async () => {
  const domain = "mail.yaml.example.com";
  const t = await stack("verify-yaml", domain);
  const up = await t.up();
  expect(up.outputs.labels?.value).toEqual(["DKIM", "Return-Path"]);
  expect(up.outputs.verified?.value).toBe(true);
  expect((await requests(domain)).checks.length).toBeLessThanOrEqual(2);
});
