// Provisions every tenant of a tenants file. Runs as the root stack of this repository (against
// the local emulator, see README) and works unchanged against the real service: set txmail:apiKey
// (secret), txmail:accountId and, for the emulator, txmail:baseUrl.
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const file = path.resolve(cfg.get("tenantsFile") ?? path.join(__dirname, "tenants.yaml"));
const entries = txmail.loadTenantsFile(file).tenants;
pulumi.log.info(`provisioning ${entries.length} tenant(s) from ${path.basename(file)}`);

const tenants = entries.map((t) => new txmail.Tenant(t.name, txmail.tenantArgs(t), txmail.tenantOptions(t)));

/** One summary per tenant (no secrets). */
export const summary = pulumi.all(Object.fromEntries(entries.map((t, i) => [t.name, tenants[i].summary])));
/** Bootstrap keys of the tenants (Pulumi secrets: `pulumi stack output bootstrapKeys --show-secrets`). */
export const bootstrapKeys = pulumi.all(
  Object.fromEntries(entries.map((t, i) => [t.name, tenants[i].bootstrapKey.secretKey])),
);
