// The test-only plugin `txmaildns` (support/dnsProvider/): "the user's DNS provider" in the e2e
// tests, which publish a txmail Domain's DNS records into a PowerDNS server on loopback
// (support/dnsServer.ts) as a user publishes them with `cloudflare.Record` or `aws.route53.Record`.
// One resource, `txmaildns:index:Record` — inputs name, type (CNAME | TXT), value, ttl (default 60);
// outputs the same and `fqdn` — and the config `txmaildns:apiUrl` / `txmaildns:apiKey` (secret),
// which default to the environment variables TXMAILDNS_API_URL / TXMAILDNS_API_KEY, so a test
// program needs no config: run the stack with `dnsPluginEnv(server)` in its environment.
//
// Installed in a test's Pulumi home beside the txmail plugin (`installDnsPlugin(home)`, after
// engineEnv), as `pulumi plugin install` leaves a plugin: plugins/resource-txmaildns-v0.0.1/. Its
// executable is a two-line launcher written there that runs dist/support/dnsProvider/main.js with
// this very Node by absolute path — not `node` from PATH, which a YAML stack does not have
// (support/stack.ts runs YAML without Node). Rebuild dist/ (npx tsc -p tsconfig.json) after
// changing the plugin's sources.
//
// A program pins the plugin's version, as a program depending on a real provider does: automatic
// plugin acquisition is off in tests, so the plugin installed here is the only one; the engine
// found it without a version too (YAML, TypeScript), but a pinned version keeps the default
// provider's name stable (`default_0_0_1`). The forms below are what worked (CLI 3.274.1; the Go and
// Python SDKs 3.274.1; each in test/e2e/domainVerification.test.ts or the Go and Python SDK e2e programs):
//
//   YAML        dkim:
//                 type: txmaildns:index:Record
//                 properties: { name: x.acme.example, type: TXT, value: hello, ttl: 30 }
//                 options: { version: 0.0.1 }
//   TypeScript  (pulumi.CustomResource is abstract: a subclass names the outputs it reads)
//               class DnsRecord extends pulumi.CustomResource {
//                 declare readonly fqdn: pulumi.Output<string>;
//                 constructor(name: string, args: { name: pulumi.Input<string>; type: "CNAME" | "TXT";
//                     value: pulumi.Input<string>; ttl?: pulumi.Input<number> },
//                     opts: pulumi.CustomResourceOptions = {}) {
//                   super("txmaildns:index:Record", name, { ...args, fqdn: undefined }, { version: "0.0.1", ...opts });
//                 }
//               }
//   Go          type Record struct {
//                   pulumi.CustomResourceState
//                   Fqdn pulumi.StringOutput `pulumi:"fqdn"`
//               }
//               var rec Record
//               err := ctx.RegisterResource("txmaildns:index:Record", "x", pulumi.Map{
//                   "name": pulumi.String("x.acme.example"), "type": pulumi.String("TXT"),
//                   "value": pulumi.String("hello"),
//               }, &rec, pulumi.Version("0.0.1"))
//   Python      rec = pulumi.CustomResource("txmaildns:index:Record", "x",
//                   {"name": "x.acme.example", "type": "TXT", "value": "hello", "fqdn": None},
//                   opts=pulumi.ResourceOptions(version="0.0.1"))
//               (rec.fqdn exists because "fqdn" is named, as None, among the props)
//
// The engine must have the plugin's environment (dnsPluginEnv) or its config; an input may be an
// output of another resource (a Domain's dnsRecords): in a preview it is unknown, and check/diff
// leave it to the run that knows it.
//
// The record's zone must exist on the server first (DnsServer.createZone): the plugin writes into
// the longest zone that holds the name and fails, naming the name, when none does.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./root";
import { DNS_PACKAGE, DNS_PLUGIN_VERSION } from "./dnsProvider/schema";

export { DNS_PLUGIN_VERSION } from "./dnsProvider/schema";

/** The plugin's compiled entry (tsconfig.json compiles support/ into dist/support/). */
export const DNS_PLUGIN_MAIN = path.join(REPO_ROOT, "dist", "support", "dnsProvider", "main.js");

/** The environment that points a stack's txmaildns plugin at `server` (what a program's config would). */
export function dnsPluginEnv(server: { apiUrl: string; apiKey: string }): Record<string, string> {
  return { TXMAILDNS_API_URL: server.apiUrl, TXMAILDNS_API_KEY: server.apiKey };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Installs the txmaildns plugin into the Pulumi home `pulumiHome` (plugins/resource-txmaildns-v0.0.1/),
 * replacing one there. Throws with the fix when dist/ has no build of it.
 */
export function installDnsPlugin(pulumiHome: string): void {
  if (!fs.existsSync(DNS_PLUGIN_MAIN))
    throw new Error(`no txmaildns plugin at ${DNS_PLUGIN_MAIN}: build dist/ (npx tsc -p tsconfig.json)`);
  const dir = path.join(pulumiHome, "plugins", `resource-${DNS_PACKAGE}-v${DNS_PLUGIN_VERSION}`);
  fs.mkdirSync(dir, { recursive: true });
  // `exec`: the engine's child is the plugin itself, which ends when the engine does (engineWatch).
  fs.writeFileSync(
    path.join(dir, `pulumi-resource-${DNS_PACKAGE}`),
    `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(DNS_PLUGIN_MAIN)} "$@"\n`,
    { mode: 0o755 },
  );
}

// `node dist/support/dnsPlugin.js <pulumi-home>`: for a stack run by hand.
if (require.main === module) {
  const [home] = process.argv.slice(2);
  if (!home) {
    console.error("usage: node dist/support/dnsPlugin.js <pulumi-home>");
    process.exit(2);
  }
  installDnsPlugin(home);
}
