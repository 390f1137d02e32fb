// The Tenant component (sdk/nodejs/tenant.ts) in the package schema, served through `construct`. Its
// inputs mirror TenantArgs and are composed from the resources' own input schemas — a tenant's
// domain takes exactly what a Domain takes — so a field added to a declaration reaches the Tenant
// too. Exported as zod, so the provider can validate a construct's inputs with the same schema.
import { z } from "zod";
import type { Kind } from "../../provider/api/kinds";
import { declarations } from "../../provider/resources";
import { commonInputs } from "./common";
import { Converter, type JsonSchema } from "./jsonSchemaToPulumi";
import type { PropertySpec, SchemaResource } from "./pulumiSchema";
import { ANY_REF, resourceRef } from "./tokens";
import type { TypeRegistry } from "./typeRegistry";
import { jsonSchemaOf } from "./zodJson";

const inputsOf = (kind: Kind) => declarations[kind].inputs as unknown as z.ZodObject;

/** A tenant's part: the kind's inputs, under a type name of its own (`meta({ id })`). */
const part = (kind: Kind, id: string, description: string) => inputsOf(kind).meta({ id, description });
const byName = (schema: z.ZodType, what: string) => z.record(z.string(), schema).optional().describe(what);

const TenantKey = inputsOf("ApiKey")
  .pick({ label: true, scopes: true, ipAllowList: true, rotation: true })
  .partial()
  .meta({
    id: "TenantKey",
    description:
      "A key of the tenant's sub account. Default label: `<tenant> <role>`. `rotation`: a schedule " +
      "`{ every, overlap }` (the next key made, the previous one live for the overlap), or the deprecated string " +
      "whose change replaces the key (create-before-delete).",
  });

const subAccount = inputsOf("SubAccount").shape;

export const TenantInputs = z.object({
  displayName: (subAccount.name as z.ZodType)
    .optional()
    .describe("Sub account display name; default: the resource name."),
  website: subAccount.website!,
  monthlyCredit: subAccount.monthlyCredit!,
  suspended: subAccount.suspended!,
  suspensionReason: subAccount.suspensionReason!,
  bootstrapKey: TenantKey.optional().describe(
    "The key the tenant's own objects are managed with (created with the parent's credentials). Default scopes: " +
      "what the declared objects need (`bootstrapKeyScopes`); `scopes` replaces them.",
  ),
  apiKeys: byName(
    TenantKey,
    "Extra sub-account keys by name, e.g. `{ app: { ipAllowList: [...] } }`. Default scopes: `messages:send:<domain>` " +
      "for the tenant's domain (`messages:send:all` without one).",
  ),
  domain: part("Domain", "TenantDomain", "The tenant's sending domain.").optional().describe("The sending domain."),
  domainVerification: inputsOf("DomainVerification")
    .omit({ domain: true })
    .meta({ id: "TenantDomainVerification", description: "How the tenant's domain is verified." })
    .optional()
    .describe(
      "Wait, in each `up`, until the service sees the domain's DNS records: for tenants whose records are published " +
        "elsewhere (`txmail-fleet dns` hands them over). To publish them in the same program, make your own " +
        "DomainVerification, depending on the records, with the tenant's `connection`.",
    ),
  routes: byName(part("Route", "TenantRoute", "An inbound route of the tenant."), "Inbound routes by name."),
  webhooks: byName(part("Webhook", "TenantWebhook", "An event webhook of the tenant."), "Event webhooks by name."),
  smtpCredentials: byName(
    part("SmtpCredential", "TenantSmtpCredential", "SMTP credentials of the tenant."),
    "SMTP credentials by name.",
  ),
  members: byName(
    part("AccountMember", "TenantMember", "A person who may log in to the tenant's sub account."),
    "People who may log in to the tenant's sub account, by name: `{ alice: { email, role } }`.",
  ),
  suppressions: byName(
    part("Suppression", "TenantSuppression", "An address the tenant must never mail."),
    "Addresses the tenant must never mail, by name.",
  ),
});

/** The component's outputs: its parts, as references to the resources it registers. */
function tenantOutputs(connection: PropertySpec): { properties: Record<string, PropertySpec>; required: string[] } {
  const one = (kind: string, description: string): PropertySpec => ({ $ref: resourceRef(kind), description });
  const map = (kind: string, description: string): PropertySpec => ({
    type: "object",
    additionalProperties: { $ref: resourceRef(kind) },
    description,
  });
  return {
    properties: {
      subAccount: one("SubAccount", "The tenant's sub account."),
      bootstrapKey: one("SubAccountApiKey", "The key the tenant's objects are managed with."),
      apiKeys: map("SubAccountApiKey", "The extra keys, by name."),
      domain: one("Domain", "The sending domain, when declared."),
      domainVerification: one("DomainVerification", "The domain's verification, when `domainVerification` is given."),
      connection: {
        ...connection,
        description:
          "The connection the tenant's own objects are managed with: its bootstrap key (a secret) and sub account. " +
          "Give it to resources you add beside the tenant, e.g. a DomainVerification of its domain.",
      },
      routes: map("Route", "Inbound routes, by name."),
      webhooks: map("Webhook", "Event webhooks, by name."),
      smtpCredentials: map("SmtpCredential", "SMTP credentials, by name."),
      members: map("AccountMember", "Members, by name."),
      suppressions: map("Suppression", "Suppressions, by name."),
      summary: {
        type: "object",
        additionalProperties: { $ref: ANY_REF },
        description: "One object summarising the tenant (no secrets).",
      },
    },
    required: [
      "subAccount",
      "bootstrapKey",
      "connection",
      "apiKeys",
      "routes",
      "webhooks",
      "smtpCredentials",
      "members",
      "suppressions",
      "summary",
    ],
  };
}

export function tenantSchema(registry: TypeRegistry): SchemaResource {
  const json = jsonSchemaOf(TenantInputs, "input");
  const secrets = { TenantDomain: [...(declarations.Domain.writeOnly ?? [])] };
  const own = new Converter(registry, (json.$defs ?? {}) as Record<string, JsonSchema>, secrets).object(json, "Tenant");
  const { connection } = commonInputs(registry);
  return {
    description:
      "A tenant: a sub account and everything it needs to send and receive mail, in one declaration. The parent's " +
      "credentials create the sub account and its keys; the domain, routes, webhooks, SMTP credentials, members and " +
      "suppressions are created with the tenant's bootstrap key. Removing a tenant deletes its objects first, then " +
      "the key, then the sub account.",
    isComponent: true,
    inputProperties: {
      ...own.properties,
      connection: {
        ...connection!,
        description: "Parent credentials override (default: the provider's configuration).",
      },
    },
    ...(own.required ? { requiredInputs: own.required } : {}),
    ...tenantOutputs(connection!),
  };
}
