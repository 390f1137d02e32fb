// Driven by stack config so a test can walk one stack through updates and replacements.
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const domainName = cfg.get("domain") ?? "mail.example.com";
// A DKIM key read from a file, as users keep one: a plain string the SDK must treat as a secret.
const dkimKeyFile = cfg.get("dkimKeyFile");

const domain = new txmail.Domain("d", {
  domain: domainName,
  trackingSubdomain: cfg.get("tracking"),
  dkimPrivateKey: dkimKeyFile ? fs.readFileSync(dkimKeyFile, "utf8") : undefined,
});

const route = new txmail.Route(
  "r",
  {
    name: cfg.get("routeName") ?? "support",
    url: cfg.get("routeUrl") ?? "https://example.com/inbound",
    recipient: `support@${domainName}`,
    enabled: cfg.getBoolean("routeEnabled") ?? true,
  },
  // A url that must not change in place (e.g. a sender pinned to the old signing secret).
  cfg.getBoolean("replaceOnUrl") ? { replaceOnChanges: ["url"] } : {},
);

const webhook = new txmail.Webhook(
  "w",
  {
    name: "events",
    url: "https://example.com/hooks",
    onBounced: true,
    onDelivered: cfg.getBoolean("onDelivered") ?? false,
  },
  { dependsOn: [domain] },
);

const smtp = new txmail.SmtpCredential("s", { name: "crm", sandbox: cfg.getBoolean("sandbox") ?? false });

const lookup = cfg.get("lookupRoute");

export const domainId = domain.id;
export const dnsRecords = domain.dnsRecords;
export const routeId = route.id;
export const routeSecret = route.secret;
export const webhookId = webhook.id;
export const webhookSecret = webhook.secret;
export const smtpId = smtp.id;
export const smtpUsername = smtp.username;
export const smtpPassword = smtp.password;
export const foundRouteId = lookup ? txmail.lookupRoute({ name: lookup }).apply((r) => r.id) : "";
export const usage = txmail.getSubAccountUsage().apply((u) => u.currency);
