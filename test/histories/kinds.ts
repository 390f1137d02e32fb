// What the history tester knows of each kind it drives: a program's inputs for a resource, the
// edits a program may make to them, where the service's dump lists its objects, and which outputs
// are the service's secrets. Values come from small pools on purpose: two stacks, or a stack and
// the environment, then meet on the same names, which is where ownership defects live.
import type { StateDump } from "../../emulator/control";
import type { Props } from "../../provider/core/declaration";
import { scopesToManageAll } from "../../provider/api/managementScopes";

export const KINDS = [
  "Route",
  "Webhook",
  "ApiKey",
  "SubAccount",
  "Domain",
  "Suppression",
  "AccountMember",
  "SmtpCredential",
  "SubAccountApiKey",
] as const;
export type HKind = (typeof KINDS)[number];

/**
 * What a program may declare: every managed kind, and the Tenant component (sdk/nodejs/tenant.ts),
 * which is no object of its own but the resources it makes (`tenantParts`).
 */
export const PROGRAM_KINDS = [...KINDS, "Tenant"] as const;
export type PKind = (typeof PROGRAM_KINDS)[number];

/**
 * A sub account the world made before the history (world.ts `subAccounts`), as a program names it:
 * a SubAccountApiKey's `subAccountId` (a Tenant's bootstrap key, whose sub account is a given here:
 * the SubAccount kind has histories of its own). The world makes it the id when it runs the program.
 */
export const SUB_ACCOUNT_REF = (n: number) => `@subAccount#${n}`;

/** Logical names (the URN's last part); the same pool in every stack. */
export const NAMES = ["a", "b"] as const;

/** One way a program may change a resource's inputs. */
export interface Edit {
  /** What the history says, e.g. `url → https://h1.example.com/in`. */
  label: string;
  apply(inputs: Props): Props;
}

/** What the commands know of a kind a program declares: its inputs and their edits. */
export interface ProgramKindModel {
  /** A program's inputs for the resource `name`, in variant `v` (0–2) of the pooled values. */
  base(name: string, v: number): Props;
  updatable: Edit[];
  replacing: Edit[];
  optional: { field: string; value: unknown }[];
  naturalKey?: boolean;
}

export interface KindModel {
  kind: HKind;
  /** A program's inputs for the resource `name`, in variant `v` (0–2) of the pooled values. */
  base(name: string, v: number): Props;
  /** Changes the service makes in place. */
  updatable: Edit[];
  /** Changes that force a replacement. */
  replacing: Edit[];
  /** Optional fields added (the drop is the same field removed). */
  optional: { field: string; value: unknown }[];
  /** The dump's section of the kind. */
  section: keyof StateDump;
  /** The id Pulumi's state holds for a dumped record. */
  idOf(record: Record<string, unknown>): string;
  /** Whether a dumped record still is an object (a soft-deleted sub account is not). */
  live?(record: Record<string, unknown>): boolean;
  /** Outputs holding a secret of the service (returned once at creation). */
  secrets: string[];
  /** The service addresses it by a natural key (name, address, user), not by its id. */
  naturalKey?: boolean;
}

const set = (field: string, value: unknown, label = `${field} → ${JSON.stringify(value)}`): Edit => ({
  label,
  apply: (p) => ({ ...p, [field]: value }),
});

const urlOf = (v: number) => `https://h${v}.example.com/in`;

export const KIND_MODELS: Record<HKind, KindModel> = {
  Route: {
    kind: "Route",
    base: (name, v) => ({ name: `route-${name}`, url: urlOf(v), recipient: "" }),
    updatable: [set("url", urlOf(1)), set("url", urlOf(2)), set("name", "route-renamed")],
    replacing: [],
    optional: [
      { field: "enabled", value: true },
      { field: "attachments", value: true },
    ],
    section: "routes",
    idOf: (r) => String(r.id),
    secrets: ["secret"],
  },
  Webhook: {
    kind: "Webhook",
    base: (name, v) => ({ name: `hook-${name}`, url: urlOf(v), onDelivered: true }),
    updatable: [set("url", urlOf(1)), set("onBounced", true)],
    replacing: [],
    optional: [{ field: "enabled", value: true }],
    section: "webhooks",
    idOf: (r) => String(r.id),
    secrets: ["secret"],
  },
  ApiKey: {
    kind: "ApiKey",
    // Variant #1 rotates on a schedule (provider/core/rotating), so histories meet it often.
    base: (name, v) => ({
      label: `key-${name}-${v}`,
      scopes: ["messages:send:all"],
      ...(v === 1 ? { rotation: { every: "30d", overlap: "7d" } } : {}),
    }),
    updatable: [
      set("label", "key-relabelled"),
      set("scopes", ["messages:send:all", "statistics-transactional:read:all"]),
      // A rotation schedule (provider/core/rotating): the resource then owns a current and a previous key.
      set("rotation", { every: "30d", overlap: "7d" }, "rotation → every 30d, overlap 7d"),
      set("rotation", { every: "20d", overlap: "1d" }, "rotation → every 20d, overlap 1d"),
    ],
    replacing: [set("rotation", "2030-01-01"), set("rotation", "2031-01-01")],
    optional: [{ field: "ipAllowList", value: ["10.0.0.1"] }],
    section: "api_keys",
    idOf: (r) => String(r.id),
    secrets: ["secretKey"],
  },
  SubAccount: {
    kind: "SubAccount",
    base: (name, v) => ({ name: `tenant-${name}-${v}`, website: `shop${v}.example.com` }),
    updatable: [set("name", "tenant-renamed"), set("website", "other.example.com")],
    replacing: [],
    optional: [{ field: "monthlyCredit", value: 1000 }],
    section: "accounts",
    idOf: (r) => String(r.id),
    live: (r) => r.status !== "deleted" && r.parent_account_id !== null,
    secrets: [],
  },
  Domain: {
    kind: "Domain",
    base: (name) => ({ domain: `${name}.mail.example.com` }),
    updatable: [set("trackingSubdomain", "t1"), set("trackingSubdomain", "t2")],
    replacing: [set("domain", "moved.mail.example.com")],
    optional: [{ field: "dkimRotationIntervalDays", value: 30 }],
    section: "domains",
    idOf: (r) => String(r.id),
    secrets: [],
    naturalKey: true,
  },
  Suppression: {
    kind: "Suppression",
    base: (name) => ({ email: `${name}@example.net`, expiresAt: "2099-01-01T00:00:00.000Z" }),
    updatable: [],
    replacing: [set("expiresAt", "2098-01-01T00:00:00.000Z"), set("email", "moved@example.net")],
    optional: [{ field: "reason", value: "complaint" }],
    section: "suppressions",
    idOf: (r) => String(r.id),
    secrets: [],
    naturalKey: true,
  },
  AccountMember: {
    kind: "AccountMember",
    base: (name, v) => ({ email: `${name}@members.example.net`, role: v === 2 ? "Analyst" : "Developer" }),
    updatable: [],
    replacing: [set("role", "Analyst"), set("email", "moved@members.example.net")],
    optional: [{ field: "name", value: "A Person" }],
    section: "members",
    idOf: (r) => String(r.user_id),
    secrets: [],
    naturalKey: true,
  },
  SmtpCredential: {
    kind: "SmtpCredential",
    base: (name, v) => ({ name: `smtp-${name}-${v}` }),
    updatable: [],
    replacing: [set("name", "smtp-renamed"), set("sandbox", true)],
    optional: [{ field: "sandbox", value: false }],
    section: "smtp_credentials",
    idOf: (r) => String(r.id),
    secrets: ["password"],
  },
  SubAccountApiKey: {
    kind: "SubAccountApiKey",
    // As ApiKey, in one of the two given sub accounts; variant #1 rotates on a schedule.
    base: (name, v) => ({
      subAccountId: SUB_ACCOUNT_REF(v === 2 ? 1 : 0),
      label: `tenant-key-${name}-${v}`,
      scopes: ["messages:send:all"],
      ...(v === 1 ? { rotation: { every: "30d", overlap: "7d" } } : {}),
    }),
    updatable: [
      set("label", "tenant-key-relabelled"),
      set("scopes", ["messages:send:all", "statistics-transactional:read:all"]),
      set("rotation", { every: "30d", overlap: "7d" }, "rotation → every 30d, overlap 7d"),
    ],
    replacing: [set("subAccountId", SUB_ACCOUNT_REF(1)), set("rotation", "2030-01-01")],
    optional: [
      { field: "ipAllowList", value: ["10.0.0.1"] },
      { field: "deferScopeRemoval", value: true },
    ],
    section: "api_keys",
    idOf: (r) => String(r.id),
    secrets: ["secretKey"],
  },
};

/**
 * A reference to another resource's output within one `up` (the engine resolves it once that
 * resource is made: resources are made in program order): `field` of the resource `name` of `kind`
 * in the same tenant. The fast depth resolves it from the state (world.ts), as the engine resolves an
 * output; the engine depth never sees one (the plugin builds the tenant).
 */
export interface OutputRef {
  "@output": { kind: HKind; name: string; field: string };
}
export const outputRef = (kind: HKind, name: string, field: string): OutputRef => ({
  "@output": { kind, name, field },
});
export const isOutputRef = (v: unknown): v is OutputRef =>
  typeof v === "object" && v !== null && "@output" in (v as Record<string, unknown>);

const hookOf = (v: number) => ({ name: "hook", url: urlOf(v), onDelivered: true });
const routeOf = (v: number) => ({ name: "inbound", url: urlOf(v), recipient: "" });

/**
 * The Tenant kept small: a display name and a website (its sub account), its bootstrap key, and
 * optionally one webhook and one route, made in the sub account with the bootstrap key.
 */
export const TENANT_MODEL: ProgramKindModel = {
  base: (name, v) => ({ displayName: `org-${name}-${v}`, website: `org${v}.example.com` }),
  updatable: [
    set("website", "other.example.com"),
    set("displayName", "org-renamed"),
    // The webhook's url (made with it when the tenant had none).
    { label: "webhooks.hook.url → h2", apply: (p) => ({ ...p, webhooks: { hook: hookOf(2) } }) },
  ],
  // The bootstrap key's deprecated rotation string replaces it (create-before-delete); the objects
  // made with it then update to the new key.
  replacing: [
    { label: "bootstrapKey.rotation → 2030-01-01", apply: (p) => ({ ...p, bootstrapKey: { rotation: "2030-01-01" } }) },
  ],
  optional: [
    { field: "webhooks", value: { hook: hookOf(0) } },
    { field: "routes", value: { inbound: routeOf(0) } },
  ],
};

export const PROGRAM_MODELS: Record<PKind, ProgramKindModel> = { ...KIND_MODELS, Tenant: TENANT_MODEL };

/** One resource a Tenant makes: its kind, logical name, and inputs (with references to its siblings' outputs). */
export interface TenantPart {
  kind: HKind;
  name: string;
  inputs: Props;
}

/** Drops the fields a program leaves out (the SDK sends no undefined input). */
const defined = (p: Record<string, unknown>): Props =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));

/**
 * The resources `new Tenant(name, inputs)` makes (sdk/nodejs/tenant.ts, for the parts the model
 * uses), in the order it registers them: the sub account and the bootstrap key with the parent
 * account's connection, then its routes and webhooks with the tenant's (the bootstrap key's secret
 * and the sub account's id).
 */
export function tenantParts(name: string, inputs: Props): TenantPart[] {
  const routes = (inputs.routes ?? {}) as Record<string, Props>;
  const webhooks = (inputs.webhooks ?? {}) as Record<string, Props>;
  const bootstrap = (inputs.bootstrapKey ?? {}) as Props;
  const scopes = scopesToManageAll([
    ...Object.values(routes).map((r) => ({ kind: "Route" as const, recipient: (r.recipient as string) ?? undefined })),
    ...Object.values(webhooks).map((w) => ({
      kind: "Webhook" as const,
      scope: w.scope as undefined,
      domains: w.domains as undefined,
    })),
  ]);
  const keyName = `${name}-bootstrap`;
  const connection = {
    apiKey: outputRef("SubAccountApiKey", keyName, "secretKey"),
    accountId: outputRef("SubAccount", name, "id"),
  };
  return [
    {
      kind: "SubAccount",
      name,
      inputs: defined({ name: inputs.displayName ?? name, website: inputs.website }),
    },
    {
      kind: "SubAccountApiKey",
      name: keyName,
      inputs: defined({
        subAccountId: outputRef("SubAccount", name, "id"),
        label: `${name} bootstrap`,
        scopes,
        rotation: bootstrap.rotation,
        deferScopeRemoval: true,
      }),
    },
    ...Object.entries(routes).map(([n, r]) => ({
      kind: "Route" as const,
      name: `${name}-route-${n}`,
      inputs: { ...r, connection } as unknown as Props,
    })),
    ...Object.entries(webhooks).map(([n, w]) => ({
      kind: "Webhook" as const,
      name: `${name}-webhook-${n}`,
      inputs: { ...w, connection } as unknown as Props,
    })),
  ];
}
