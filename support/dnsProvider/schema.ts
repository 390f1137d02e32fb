// The package schema of `txmaildns`, served by GetSchema: Pulumi YAML types a resource
// `txmaildns:index:Record` from it (a program in Go, Python or TypeScript registers the type by its
// token and needs none). Written by hand: one resource, two config keys.
import { DEFAULT_TTL, RECORD_TYPE } from "./record";

export const DNS_PACKAGE = "txmaildns";
/** The version the plugin reports and is installed under (support/dnsPlugin.ts); programs pin it. */
export const DNS_PLUGIN_VERSION = "0.0.1";

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: "string", description, ...extra });

const config = {
  apiUrl: str(
    "The DNS server's HTTP API, e.g. `http://127.0.0.1:8081/api/v1/servers/localhost`. Unset: the environment variable TXMAILDNS_API_URL.",
  ),
  apiKey: str("The API's key (header X-API-Key). Unset: the environment variable TXMAILDNS_API_KEY.", {
    secret: true,
  }),
};

const inputs = {
  name: str(
    "The record's fully qualified name, e.g. `txm1._domainkey.mail.acme.example`. A new name replaces the record.",
  ),
  type: str("`CNAME` or `TXT`. A new type replaces the record."),
  value: str("A CNAME's target, or a TXT record's text (of any length: stored as strings of at most 255 bytes)."),
  ttl: { type: "integer", description: `The record's TTL in seconds (default ${DEFAULT_TTL}).` },
};

export const DNS_SCHEMA = JSON.stringify({
  name: DNS_PACKAGE,
  version: DNS_PLUGIN_VERSION,
  displayName: "txmail test DNS",
  description:
    "A test-only provider of DNS records in a PowerDNS Authoritative server: the user's DNS provider in pulumi-txmail's end-to-end tests.",
  config: { variables: config },
  provider: { description: "The DNS server to write records to.", inputProperties: config },
  resources: {
    [RECORD_TYPE]: {
      description: "One DNS record set: a name and type holding one value.",
      inputProperties: inputs,
      requiredInputs: ["name", "type", "value"],
      properties: { ...inputs, fqdn: str("The record's name as the server holds it: lower case, no trailing dot.") },
      required: ["name", "type", "value", "ttl", "fqdn"],
    },
  },
  language: {},
});
