// The test-only DNS provider `txmaildns` (support/dnsPlugin.ts, support/dnsProvider/) on the real
// engine against PowerDNS on loopback (support/dnsServer.ts), through a Pulumi YAML program — the
// "user's DNS provider" the DomainVerification e2e tests publish records with. Up publishes a CNAME
// and a TXT longer than one 255-byte string, both answered by the DNS server; a new TXT value is one
// in-place update; refresh drops a record deleted at the server behind the stack's back; destroy
// deletes the rest. The Go, Python and TypeScript forms of the resource are in dnsPlugin.ts's header.
import * as dns from "node:dns";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createTestStack, type TestStack } from "./harness";
import { dnsPluginEnv, installDnsPlugin } from "../../support/dnsPlugin";
import { type DnsServer, startDnsServer } from "../../support/dnsServer";

jest.setTimeout(5 * 60_000);

const CNAME = "txm1._domainkey.mail.acme.example";
const TXT = "mail.acme.example";
/** A DKIM-sized value: more than one TXT character-string (255 bytes) holds. */
const longTxt = (tag: string) =>
  `v=DKIM1; k=rsa; t=${tag}; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(8)}`;

const program = `name: dns-records
runtime: yaml
config:
  txtValue: { type: string }
resources:
  dkim:
    type: txmaildns:index:Record
    properties:
      name: ${CNAME}
      type: CNAME
      value: dkim1.txmail.example
    options:
      version: 0.0.1
  spf:
    type: txmaildns:index:Record
    properties:
      name: ${TXT}
      type: TXT
      value: \${txtValue}
      ttl: 30
    options:
      version: 0.0.1
outputs:
  dkimFqdn: \${dkim.fqdn}
`;

let server: DnsServer;
let dir: string;
let t: TestStack | undefined;

beforeAll(async () => {
  server = await startDnsServer();
  await server.createZone("acme.example");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-dns-plugin-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program);
});

afterAll(async () => {
  await t?.dispose();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh resolver per query, asking the test's server only: no answer is kept between queries. */
function resolver(): dns.promises.Resolver {
  const r = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  r.setServers([server.address]);
  return r;
}

/** What the server answers for a name's TXT: each record's strings, and its text. */
async function txt(name: string): Promise<{ strings: number; text: string }[] | string> {
  return resolver()
    .resolveTxt(name)
    .then(
      (records) => records.map((strings) => ({ strings: strings.length, text: strings.join("") })),
      (e: { code?: string }) => String(e.code),
    );
}

async function cname(name: string): Promise<string[] | string> {
  return resolver()
    .resolveCname(name)
    .then(
      (targets) => targets,
      (e: { code?: string }) => String(e.code),
    );
}

it("publishes, updates, refreshes and deletes DNS records through the engine", async () => {
  t = await createTestStack({
    programDir: dir,
    name: "dns",
    env: dnsPluginEnv(server),
    config: { txtValue: { value: longTxt("a") } },
  });
  installDnsPlugin(t.stack.workspace.pulumiHome!);

  const up = await t.up();
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  expect(up.outputs.dkimFqdn?.value).toBe(CNAME);
  expect(await cname(CNAME)).toEqual(["dkim1.txmail.example"]);
  expect(await txt(TXT)).toEqual([{ strings: 2, text: longTxt("a") }]);

  // A new value is an update in place of the one record.
  await t.stack.setConfig("txtValue", { value: longTxt("b") });
  const update = await t.up();
  expect(update.summary.resourceChanges).toEqual({ update: 1, same: 2 });
  expect(await txt(TXT)).toEqual([{ strings: 2, text: longTxt("b") }]);

  // Deleted at the server behind the stack's back: refresh reads it gone and drops it.
  await server.deleteRecord(CNAME, "CNAME");
  const refresh = await t.refresh();
  expect(refresh.summary.resourceChanges).toEqual({ delete: 1, same: 2 });
  const state = JSON.parse(await t.exportText()) as { deployment: { resources: Array<{ urn: string }> } };
  expect(state.deployment.resources.map((r) => r.urn.split("::").pop())).not.toContain("dkim");

  const destroy = await t.destroy();
  expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
  expect(await txt(TXT)).toMatch(/^(ENODATA|ENOTFOUND)$/);
  expect(await cname(CNAME)).toMatch(/^(ENODATA|ENOTFOUND)$/);
  // The server's API key reached the plugin through the environment and was never printed.
  expect(t.log()).not.toContain(server.apiKey);
});
