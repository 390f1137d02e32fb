// The same SDK classes as every other program; which face serves them is the stack's choice
// (txmail:face / TXMAIL_FACE). Optionally a second account through an explicit provider.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const domainName = cfg.get("domain") ?? "mail.native.example.com";

const tenant = new txmail.SubAccount("tenant", {
  name: cfg.get("subName") ?? "Native Tenant",
  website: "native.example.com",
});

const key = new txmail.SubAccountApiKey("bootstrap", {
  subAccountId: tenant.id,
  label: cfg.get("keyLabel") ?? "bootstrap",
  scopes: ["routes:write:all", "domains:write"],
});

const domain = new txmail.Domain("d", { domain: domainName });

const route = new txmail.Route("r", {
  name: cfg.get("routeName") ?? "support",
  url: "https://example.com/inbound",
  recipient: `support@${domainName}`,
});

export const subAccountId = tenant.id;
export const keyId = key.id;
export const keySecret = key.secretKey;
export const domainId = domain.id;
export const routeId = route.id;
export const routeSecret = route.secret;

// A second account, managed in the same program through its own provider instance.
const otherAccountId = cfg.get("otherAccountId");
if (otherAccountId) {
  const second = new txmail.Provider("second", {
    apiKey: cfg.requireSecret("otherApiKey"),
    accountId: otherAccountId,
    baseUrl: cfg.require("otherBaseUrl"),
  });
  const otherRoute = new txmail.Route(
    "other-r",
    { name: "other", url: "https://example.com/other" },
    { provider: second },
  );
  exports.otherRouteId = otherRoute.id;
}
