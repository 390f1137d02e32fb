// tenantCredentials / credentialsByTenant (sdk/nodejs/tenantCredentials.ts): every secret a Tenant's objects
// hold, by the names the Tenant declares them under, as one Pulumi secret.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "../../../sdk/nodejs";
import { credentialsByTenant } from "../../../sdk/nodejs/tenantCredentials";

// What the service returns once, at creation: a value naming its resource, to see it lands in its place.
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      const kind = args.type.split(":").pop();
      const made: Record<string, unknown> =
        kind === "SubAccountApiKey"
          ? { secretKey: `key-of-${args.name}` }
          : kind === "SmtpCredential"
            ? { username: `user-of-${args.name}`, password: `password-of-${args.name}` }
            : kind === "Route" || kind === "Webhook"
              ? { secret: `secret-of-${args.name}` }
              : {};
      return { id: `${args.name}-id`, state: { ...args.inputs, ...made } };
    },
    call: (args) => args.inputs,
  },
  "proj",
  "stack",
  false,
);

const resolved = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

function tenant(name: string, more: Partial<txmail.TenantArgs> = {}): txmail.Tenant {
  return new txmail.Tenant(name, { website: `${name}.example.com`, ...more });
}

it("gathers every secret of a tenant by its declared name, as one Pulumi secret", async () => {
  const acme = tenant("acme", {
    apiKeys: { app: {} },
    smtpCredentials: { crm: { name: "crm" } },
    routes: { support: { name: "support", url: "https://acme.example.com/in" } },
    webhooks: { events: { name: "events", url: "https://acme.example.com/ev" } },
  });
  const credentials = txmail.tenantCredentials(acme);
  expect(await pulumi.isSecret(credentials)).toBe(true);
  expect(await resolved(credentials)).toEqual({
    bootstrapKey: "key-of-acme-bootstrap",
    apiKeys: { app: "key-of-acme-app" },
    smtpCredentials: { crm: { username: "user-of-acme-smtp-crm", password: "password-of-acme-smtp-crm" } },
    routes: { support: "secret-of-acme-route-support" },
    webhooks: { events: "secret-of-acme-webhook-events" },
  });
});

it("keys several tenants' credentials by the names given; a tenant with no objects has empty maps", async () => {
  const both = credentialsByTenant({ a: tenant("a", { apiKeys: { app: {} } }), b: tenant("b") });
  expect(await pulumi.isSecret(both)).toBe(true);
  expect(await resolved(both)).toEqual({
    a: {
      bootstrapKey: "key-of-a-bootstrap",
      apiKeys: { app: "key-of-a-app" },
      smtpCredentials: {},
      routes: {},
      webhooks: {},
    },
    b: { bootstrapKey: "key-of-b-bootstrap", apiKeys: {}, smtpCredentials: {}, routes: {}, webhooks: {} },
  });
});
