// Adopting objects that already exist on the service (`pulumi import` cannot import dynamic
// resources: pulumi/pulumi#16175). Declare them as they are and add `adoptId`: the first `pulumi up`
// reads them instead of creating them; updatable fields then follow the program.
//   pulumi config set subAccountId <existing sub account id>
//   pulumi config set webhookId <existing webhook id>
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();

const tenant = new txmail.SubAccount("legacy-tenant", {
  name: cfg.get("subAccountName") ?? "Legacy Tenant",
  website: cfg.get("website") ?? "legacy.example.com",
  adoptId: cfg.require("subAccountId"),
});

const webhookId = cfg.get("webhookId");
const hook = webhookId
  ? new txmail.Webhook("legacy-events", {
      name: cfg.get("webhookName") ?? "legacy events",
      url: cfg.get("webhookUrl") ?? "https://legacy.example.com/hooks",
      onBounced: true,
      adoptId: webhookId,
    })
  : undefined;

export const subAccountId = tenant.id;
export const subAccountStatus = tenant.status;
export const adoptedWebhook = hook?.id;
/** The secret of an adopted object cannot be read back: it stays empty until the object is replaced. */
export const webhookSecretKnown = hook?.secret.apply((s) => s !== "");
