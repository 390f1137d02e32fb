// Objects whose collections another stack of the same names shares on one account: a parent API
// key labelled `ci`, a sub account named `acme`, and a Tenant (its sub account in the parent's
// collection, its bootstrap key, domain and webhook inside it). `present: false` removes them all;
// `variant` changes only values updated in place (an allow-list entry, a website, a webhook URL).
// A route stays throughout: a stack with no txmail resource left would drop its salt (the StackSalt
// resource, or the native provider) and draw another, and its creates would not meet their keys.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const variant = cfg.get("variant") ?? "";

new txmail.Route("stays", { name: "stays", url: "https://shared.example.com/in", recipient: "" });

if (cfg.getBoolean("present") ?? true) {
  new txmail.ApiKey("ci", {
    label: "ci",
    scopes: ["routes:read:all"],
    ipAllowList: variant ? ["127.0.0.1", "203.0.113.0/24"] : ["127.0.0.1"],
  });
  new txmail.SubAccount("acme", { name: "acme", website: `acme${variant}.example.com` });
  new txmail.Tenant("shop", {
    website: `shop${variant}.example.com`,
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
    webhooks: { events: { name: "events", url: `https://shop.example.com/hooks${variant}`, onBounced: true } },
  });
}
