// The acceptance run's program (dynamic face): one object of every kind. Values come from stack
// config, set by the runner step by step (acceptance/lifecycle.ts), so this program and its YAML twin
// (../yaml/Pulumi.yaml) describe the same objects. Sub accounts and API keys live in the account
// the environment names; everything else in the run's own sub account, through the `workspace`
// provider. The kinds with steps of their own are written out here; every other kind's resource
// comes from the list the runner derives from its example (acceptance/derived.ts).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const importIds: Record<string, string> = JSON.parse(cfg.get("importIds") ?? "{}");

const workspace = new txmail.Provider("workspace", {
  apiKey: cfg.requireSecret("workspaceKey"),
  accountId: cfg.require("workspaceAccountId"),
  baseUrl: cfg.require("workspaceBaseUrl"),
});
// The dynamic face adopts existing objects with `adoptId` (the engine's `import` option cannot reach a
// dynamic provider: test/e2e/upstream/dynamicImport.test.ts).
const adopt = (name: string) => (importIds[name] ? { adoptId: importIds[name] } : {});
const opts = (provider?: txmail.Provider): pulumi.CustomResourceOptions => (provider ? { provider } : {});
const optional = (key: string) => cfg.get(key) || undefined;

const tenant = new txmail.SubAccount(
  "tenant",
  { ...adopt("tenant"), name: cfg.require("tenantName"), website: "acceptance.example.com" },
  opts(),
);
const bootstrap = new txmail.SubAccountApiKey(
  "bootstrap",
  {
    ...adopt("bootstrap"),
    subAccountId: tenant.id,
    label: cfg.require("bootstrapLabel"),
    scopes: ["domains:read"],
    rotation: optional("rotation"),
  },
  opts(),
);
const ci = new txmail.ApiKey(
  "ci",
  { ...adopt("ci"), label: cfg.require("ciLabel"), scopes: ["routes:read:all"], rotation: optional("rotation") },
  opts(),
);
const domain = new txmail.Domain(
  "domain",
  { ...adopt("domain"), domain: cfg.require("domainName"), trackingSubdomain: cfg.require("tracking") },
  opts(workspace),
);
const route = new txmail.Route(
  "route",
  {
    ...adopt("route"),
    name: cfg.require("routeName"),
    url: "https://example.com/inbound",
    recipient: pulumi.interpolate`in@${domain.domain}`,
  },
  opts(workspace),
);
const member = new txmail.AccountMember(
  "member",
  { ...adopt("member"), email: cfg.require("memberEmail"), role: cfg.require("memberRole") as txmail.MemberRole },
  opts(workspace),
);
const suppression = new txmail.Suppression(
  "suppression",
  {
    ...adopt("suppression"),
    email: cfg.require("suppressionEmail"),
    reason: optional("suppressionReason"),
    expiresAt: cfg.require("expiresAt"),
  },
  opts(workspace),
);

// The derived kinds: each a resource of its kind's class, in the run's sub account, with the
// properties of the step.
type Derived = { kind: string; name: string; properties: Record<string, unknown> };
type KindClass = new (
  name: string,
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;
const derived: Derived[] = JSON.parse(cfg.get("derived") ?? "[]");
const classes = txmail as unknown as Record<string, KindClass>;
const made = derived.map(({ kind, name, properties }) => {
  const resource = new classes[kind]!(name, { ...adopt(name), ...properties }, opts(workspace));
  return [name, resource.id] as const;
});

export const tenantId = tenant.id;
export const bootstrapId = bootstrap.id;
export const ciId = ci.id;
export const domainId = domain.id;
export const routeId = route.id;
export const memberId = member.id;
export const suppressionId = suppression.id;
export const derivedIds = Object.fromEntries(made);
