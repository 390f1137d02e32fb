// One object of every kind, as test/e2e/import/*.test.ts also makes them out of band. Config:
// - `declare: false` declares nothing (a stack that only receives `pulumi import`s);
// - `subAccountKey`/`subAccountId` add an explicit provider `acme` for that sub account (bulk import).
// Names are the ones txmail-import-plan derives from the objects' names, so a plan's imports and
// this program describe the same resources.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
// Objects inside a sub account are managed with its own key: an explicit provider holds it.
const subAccountKey = cfg.getSecret("subAccountKey");
const acme = subAccountKey
  ? new txmail.Provider("acme", {
      apiKey: subAccountKey,
      accountId: cfg.require("subAccountId"),
      baseUrl: cfg.require("baseUrl"),
    })
  : undefined;
const opts = (_name: string): pulumi.CustomResourceOptions => (acme ? { provider: acme } : {});

if (cfg.getBoolean("declare") !== false) {
  if (!acme) {
    // Objects of the parent account only.
    const sub = new txmail.SubAccount(
      "acme-corp",
      { name: "Acme Corp", website: "acme.example.com" },
      opts("acme-corp"),
    );
    new txmail.SubAccountApiKey(
      "acme-corp-bootstrap",
      { subAccountId: sub.id, label: "bootstrap", scopes: ["domains:read"] },
      opts("acme-corp-bootstrap"),
    );
    new txmail.ApiKey("ci", { label: "ci", scopes: ["routes:read:all"], ipAllowList: ["10.0.0.0/8"] }, opts("ci"));
    new txmail.AccountMember("dev", { email: "dev@acme.example.com", role: "Developer" }, opts("dev"));
  }
  new txmail.Domain("mail-acme-example-com", { domain: "mail.acme.example.com" }, opts("mail-acme-example-com"));
  new txmail.Route(
    "inbound",
    { name: "inbound", url: "https://acme.example.com/in", recipient: "in@mail.acme.example.com" },
    opts("inbound"),
  );
  new txmail.Webhook(
    "events",
    { name: "events", url: "https://acme.example.com/hooks", onBounced: true },
    opts("events"),
  );
  new txmail.SmtpCredential(
    "relay",
    { name: "relay", scope: "scoped", domains: ["mail.acme.example.com"] },
    opts("relay"),
  );
  new txmail.Suppression(
    "suppression-gone-acme-example-com",
    { email: "gone@acme.example.com", reason: "hard bounce", expiresAt: cfg.require("expiresAt") },
    opts("suppression-gone-acme-example-com"),
  );
}
