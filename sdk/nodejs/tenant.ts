// A tenant: one call provisions a sub account and everything it needs to send and receive mail.
//
// The parent's credentials create the sub account and its keys (the contract: a sub account's own
// keys cannot manage nested keys). Everything else — domain, routes, webhooks, SMTP credentials,
// members, suppressions — is created with the tenant's bootstrap key against the sub account, as the provisioning flow
// describes. Every child depends on the sub account and the bootstrap key, so removing a tenant
// from the program deletes its objects first, then the key, then the sub account.
import * as pulumi from "@pulumi/pulumi";
import { SubAccount, type SubAccountArgs } from "./subAccount";
import { SubAccountApiKey, type SubAccountApiKeyArgs } from "./subAccountApiKey";
import { Domain, type DomainArgs } from "./domain";
import { DomainVerification, type DomainVerificationArgs } from "./domainVerification";
import { Route, type RouteArgs } from "./route";
import { Webhook, type WebhookArgs } from "./webhook";
import { SmtpCredential, type SmtpCredentialArgs } from "./smtpCredential";
import { AccountMember, type AccountMemberArgs } from "./accountMember";
import { Suppression, type SuppressionArgs } from "./suppression";
import type { ConnectionArgs } from "./internal/common";
import type * as ManagementScopes from "../../provider/api/managementScopes";

/**
 * The management scopes, loaded on first use: they come from the contract files, which load zod,
 * and `import "pulumi-txmail"` stays light (test/unit/sdk/startup.test.ts).
 */
const managementScopes = () => require("../../provider/api/managementScopes") as typeof ManagementScopes;

type Own<T> = Omit<T, "connection" | "adoptId">;

export interface TenantKeyArgs {
  /** Default: `<tenant> <role>`. */
  label?: pulumi.Input<string>;
  scopes?: pulumi.Input<pulumi.Input<string>[]>;
  ipAllowList?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * A schedule `{ every, overlap }` (the key's `rotation`: the next key made, the previous one live for
   * the overlap), or the deprecated string whose change replaces the key (create-before-delete).
   */
  rotation?: SubAccountApiKeyArgs["rotation"];
}

export interface TenantArgs {
  /** Sub account display name; default: the resource name. */
  displayName?: pulumi.Input<string>;
  website: pulumi.Input<string>;
  monthlyCredit?: pulumi.Input<number>;
  suspended?: pulumi.Input<boolean>;
  suspensionReason?: pulumi.Input<string>;
  /**
   * The key the tenant's own objects are managed with (created with the parent's credentials).
   * Default scopes: what the declared objects need (`bootstrapKeyScopes`); `scopes` replaces them.
   */
  bootstrapKey?: TenantKeyArgs;
  /**
   * Extra sub-account keys by name, e.g. `{ app: { ipAllowList: [...] } }`. Default scopes:
   * `messages:send:<domain>` for the tenant's domain (`messages:send:all` without one).
   */
  apiKeys?: Record<string, TenantKeyArgs>;
  /** The sending domain. */
  domain?: Own<DomainArgs>;
  /**
   * Wait, in each `up`, until the service sees the domain's DNS records — for tenants whose records
   * are published elsewhere (another team, another tool: `txmail-fleet dns` hands them over). To
   * publish them in the same program, make your own DomainVerification instead, depending on the
   * records (`connection` gives it the tenant's key).
   */
  domainVerification?: Omit<Own<DomainVerificationArgs>, "domain">;
  routes?: Record<string, Own<RouteArgs>>;
  webhooks?: Record<string, Own<WebhookArgs>>;
  smtpCredentials?: Record<string, Own<SmtpCredentialArgs>>;
  /** People who may log in to the tenant's sub account, by name: `{ alice: { email, role } }`. */
  members?: Record<string, Own<AccountMemberArgs>>;
  /** Addresses the tenant must never mail, by name. */
  suppressions?: Record<string, Own<SuppressionArgs>>;
  /** Parent credentials override (default: the `txmail:*` config). */
  connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * The bootstrap key's scopes when `bootstrapKey.scopes` is not given: exactly what the tenant's
 * declared objects need to be managed (provider/api/managementScopes.ts) — `{domain}` scopes where
 * the service allows them, `:all` only for objects tied to no domain, nothing for kinds the tenant
 * does not declare, and no `messages:send:*` (sending is what `apiKeys` are for). With no objects
 * at all: `domains:read`. Values unknown at preview make the list unknown until `pulumi up`.
 */
export function bootstrapKeyScopes(args: TenantArgs): pulumi.Output<string[]> {
  const declared = {
    domain: args.domain?.domain,
    verified: args.domainVerification !== undefined,
    routes: Object.values(args.routes ?? {}).map((r) => ({ recipient: r.recipient })),
    webhooks: Object.values(args.webhooks ?? {}).map((w) => ({ scope: w.scope, domains: w.domains })),
    smtp: Object.values(args.smtpCredentials ?? {}).map((s) => ({ scope: s.scope, domains: s.domains })),
    members: Object.keys(args.members ?? {}).length,
    suppressions: Object.keys(args.suppressions ?? {}).length,
  };
  return pulumi
    .output(declared)
    .apply((d) =>
      managementScopes().scopesToManageAll([
        ...(d.domain === undefined ? [] : [{ kind: "Domain" as const, domain: d.domain }]),
        ...(d.verified ? [{ kind: "DomainVerification" as const }] : []),
        ...d.routes.map((r) => ({ kind: "Route" as const, recipient: r.recipient ?? undefined })),
        ...d.webhooks.map((w) => ({ kind: "Webhook" as const, scope: w.scope, domains: w.domains })),
        ...d.smtp.map((s) => ({ kind: "SmtpCredential" as const, scope: s.scope, domains: s.domains })),
        ...(d.members > 0 ? [{ kind: "AccountMember" as const }] : []),
        ...(d.suppressions > 0 ? [{ kind: "Suppression" as const }] : []),
      ]),
    );
}

/** A tenant key's scopes when not given: sending from the tenant's domain (any domain without one). */
export function appKeyScopes(args: TenantArgs): pulumi.Output<string[]> {
  return pulumi.output(args.domain?.domain).apply((d) => [managementScopes().sendScope(d)]);
}

/** The sub account's fields, from the tenant's. */
function subAccountArgs(name: string, args: TenantArgs): SubAccountArgs {
  return {
    name: args.displayName ?? name,
    website: args.website,
    monthlyCredit: args.monthlyCredit,
    suspended: args.suspended,
    suspensionReason: args.suspensionReason,
    connection: args.connection,
  };
}

export class Tenant extends pulumi.ComponentResource {
  readonly subAccount: SubAccount;
  readonly bootstrapKey: SubAccountApiKey;
  readonly apiKeys: Record<string, SubAccountApiKey> = {};
  readonly domain?: Domain;
  /** Present when `domainVerification` is given. */
  readonly domainVerification?: DomainVerification;
  /**
   * The connection the tenant's own objects are managed with (its bootstrap key, a secret, and its
   * sub account): for resources added beside the tenant, such as the DomainVerification of its
   * domain, which waits for the DNS records published from `domain.dnsRecords`:
   * `new DomainVerification(name, { domain: tenant.domain!.domain, connection: tenant.connection }, { dependsOn: records })`.
   */
  readonly connection: ConnectionArgs;
  readonly routes: Record<string, Route> = {};
  readonly webhooks: Record<string, Webhook> = {};
  readonly smtpCredentials: Record<string, SmtpCredential> = {};
  readonly members: Record<string, AccountMember> = {};
  readonly suppressions: Record<string, Suppression> = {};
  /** One object summarising the tenant (no secrets). */
  readonly summary: pulumi.Output<Record<string, unknown>>;

  constructor(name: string, args: TenantArgs, opts?: pulumi.ComponentResourceOptions) {
    super("txmail:index:Tenant", name, {}, opts);
    this.subAccount = new SubAccount(name, subAccountArgs(name, args), { parent: this });
    this.bootstrapKey = this.apiKey(
      name,
      "bootstrap",
      args.bootstrapKey,
      bootstrapKeyScopes(args),
      args.connection,
      true,
    );
    for (const [role, k] of Object.entries(args.apiKeys ?? {})) {
      this.apiKeys[role] = this.apiKey(name, role, k, appKeyScopes(args), args.connection);
    }
    this.connection = this.tenantConnection(args.connection);
    this.domain = this.addObjects(name, args, this.connection);
    this.summary = this.summarise();
    // `summary` stays an output of this object (export it to see it in the stack outputs) but is not
    // recorded as the component's state: that record costs one more full checkpoint write per tenant,
    // late in the run when the checkpoint is largest (bench/RESULTS.md).
    this.registerOutputs({});
  }

  /** A key of the sub account, made with the parent account's connection. */
  private apiKey(
    name: string,
    role: string,
    k: TenantKeyArgs | undefined,
    defaultScopes: pulumi.Input<string[]>,
    parentConn: TenantArgs["connection"],
    manages = false,
  ): SubAccountApiKey {
    return new SubAccountApiKey(
      `${name}-${role}`,
      {
        subAccountId: this.subAccount.id,
        label: k?.label ?? `${name} ${role}`,
        scopes: k?.scopes ?? defaultScopes,
        ipAllowList: k?.ipAllowList,
        rotation: k?.rotation,
        // The key is updated before the objects managed with it, and Pulumi deletes removed
        // objects last: scopes they still need are dropped one run later (see SubAccountApiKey).
        ...(manages ? { deferScopeRemoval: true } : {}),
        connection: parentConn,
      },
      { parent: this },
    );
  }

  /**
   * The tenant's own objects: its key, its account.
   * A plain object of outputs (not one output of an object): each child registers two fields.
   */
  private tenantConnection(parentConn: TenantArgs["connection"]): ConnectionArgs {
    return {
      apiKey: this.bootstrapKey.secretKey,
      accountId: this.subAccount.id,
      // The parent's connection may be one secret object; its base URL is not a credential.
      ...(parentConn === undefined
        ? {}
        : { baseUrl: pulumi.unsecret(pulumi.output(parentConn).apply((p) => p.baseUrl)) as pulumi.Output<string> }),
    };
  }

  /** The objects in the sub account, made with its bootstrap key; returns the domain, if any. */
  private addObjects(name: string, args: TenantArgs, tenantConn: ConnectionArgs): Domain | undefined {
    const child = { parent: this, dependsOn: [this.bootstrapKey] };
    const domain = args.domain
      ? new Domain(`${name}-domain`, { ...args.domain, connection: tenantConn }, child)
      : undefined;
    const afterDomain = { ...child, dependsOn: [this.bootstrapKey, ...(domain ? [domain] : [])] };
    if (args.domainVerification !== undefined) {
      if (!domain) throw new Error(`Tenant ${name}: domainVerification needs a domain`);
      (this as { domainVerification?: DomainVerification }).domainVerification = new DomainVerification(
        `${name}-verification`,
        { ...args.domainVerification, domain: domain.domain, connection: tenantConn },
        afterDomain,
      );
    }
    for (const [n, r] of Object.entries(args.routes ?? {})) {
      this.routes[n] = new Route(`${name}-route-${n}`, { ...r, connection: tenantConn }, afterDomain);
    }
    for (const [n, w] of Object.entries(args.webhooks ?? {})) {
      this.webhooks[n] = new Webhook(`${name}-webhook-${n}`, { ...w, connection: tenantConn }, afterDomain);
    }
    for (const [n, s] of Object.entries(args.smtpCredentials ?? {})) {
      this.smtpCredentials[n] = new SmtpCredential(`${name}-smtp-${n}`, { ...s, connection: tenantConn }, afterDomain);
    }

    for (const [n, m] of Object.entries(args.members ?? {})) {
      this.members[n] = new AccountMember(`${name}-member-${n}`, { ...m, connection: tenantConn }, child);
    }
    for (const [n, s] of Object.entries(args.suppressions ?? {})) {
      this.suppressions[n] = new Suppression(`${name}-suppression-${n}`, { ...s, connection: tenantConn }, child);
    }
    return domain;
  }

  private summarise(): pulumi.Output<Record<string, unknown>> {
    const parts: Record<string, pulumi.Input<unknown>> = {
      subAccountId: this.subAccount.id,
      status: this.subAccount.status,
      domain: this.domain?.domain,
      dnsValid: this.domain?.dnsValid,
      dnsRecords: this.domain?.dnsRecords,
      verified: this.domainVerification?.verified,
      routes: pulumi.all(Object.fromEntries(Object.entries(this.routes).map(([n, r]) => [n, r.id]))),
      webhooks: pulumi.all(Object.fromEntries(Object.entries(this.webhooks).map(([n, w]) => [n, w.id]))),
      smtpUsernames: pulumi.all(
        Object.fromEntries(Object.entries(this.smtpCredentials).map(([n, s]) => [n, s.username])),
      ),
      apiKeys: pulumi.all(Object.fromEntries(Object.entries(this.apiKeys).map(([n, k]) => [n, k.id]))),
      members: pulumi.all(Object.fromEntries(Object.entries(this.members).map(([n, m]) => [n, m.userId]))),
    };
    // JSON round trip drops the absent parts (no domain, …) so the summary shows only what exists.
    return pulumi.all(parts).apply((s) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>);
  }
}
