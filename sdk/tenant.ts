// A tenant: one call provisions a sub account and everything it needs to send and receive mail.
//
// The parent's credentials create the sub account and its keys (the contract: a sub account's own
// keys cannot manage nested keys). Everything else — domain, routes, webhooks, SMTP credentials,
// members, suppressions — is created with the tenant's bootstrap key against the sub account, as the provisioning flow
// describes. Every child depends on the sub account and the bootstrap key, so removing a tenant
// from the program deletes its objects first, then the key, then the sub account.
import * as pulumi from "@pulumi/pulumi";
import { SubAccount } from "./subAccount";
import { SubAccountApiKey } from "./subAccountApiKey";
import { Domain, type DomainArgs } from "./domain";
import { Route, type RouteArgs } from "./route";
import { Webhook, type WebhookArgs } from "./webhook";
import { SmtpCredential, type SmtpCredentialArgs } from "./smtpCredential";
import { AccountMember, type AccountMemberArgs } from "./accountMember";
import { Suppression, type SuppressionArgs } from "./suppression";
import { peopleScopes } from "./internal/peopleScopes";
import type { ConnectionArgs } from "./internal/common";

type Own<T> = Omit<T, "connection" | "adoptId">;

export interface TenantKeyArgs {
  /** Default: `<tenant> <role>`. */
  label?: pulumi.Input<string>;
  scopes?: pulumi.Input<pulumi.Input<string>[]>;
  ipAllowList?: pulumi.Input<pulumi.Input<string>[]>;
  /** Change to rotate (create-before-delete). */
  rotation?: pulumi.Input<string>;
}

export interface TenantArgs {
  /** Sub account display name; default: the resource name. */
  displayName?: pulumi.Input<string>;
  website: pulumi.Input<string>;
  monthlyCredit?: pulumi.Input<number>;
  suspended?: pulumi.Input<boolean>;
  suspensionReason?: pulumi.Input<string>;
  /** The key the tenant's own objects are managed with (created with the parent's credentials). */
  bootstrapKey?: TenantKeyArgs;
  /** Extra sub-account keys by name, e.g. `{ app: { scopes: ["messages:send:all"] } }`. */
  apiKeys?: Record<string, TenantKeyArgs>;
  /** The sending domain. */
  domain?: Own<DomainArgs>;
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

/** What the bootstrap key may do by default: manage the tenant's own objects and send. */
export const DEFAULT_BOOTSTRAP_SCOPES = [
  "domains:read",
  "domains:write",
  "domains:delete:all",
  "routes:read:all",
  "routes:write:all",
  "routes:delete:all",
  "webhooks:read:all",
  "webhooks:write:all",
  "webhooks:delete:all",
  "smtp-credentials:read:all",
  "smtp-credentials:write:all",
  "smtp-credentials:delete:all",
  "messages:send:all",
];

export class Tenant extends pulumi.ComponentResource {
  readonly subAccount: SubAccount;
  readonly bootstrapKey: SubAccountApiKey;
  readonly apiKeys: Record<string, SubAccountApiKey> = {};
  readonly domain?: Domain;
  readonly routes: Record<string, Route> = {};
  readonly webhooks: Record<string, Webhook> = {};
  readonly smtpCredentials: Record<string, SmtpCredential> = {};
  readonly members: Record<string, AccountMember> = {};
  readonly suppressions: Record<string, Suppression> = {};
  /** One object summarising the tenant (no secrets). */
  readonly summary: pulumi.Output<Record<string, unknown>>;

  constructor(name: string, args: TenantArgs, opts?: pulumi.ComponentResourceOptions) {
    super("txmail:index:Tenant", name, {}, opts);
    const parent = { parent: this };
    const parentConn = args.connection;

    this.subAccount = new SubAccount(
      name,
      {
        name: args.displayName ?? name,
        website: args.website,
        monthlyCredit: args.monthlyCredit,
        suspended: args.suspended,
        suspensionReason: args.suspensionReason,
        connection: parentConn,
      },
      parent,
    );

    const key = (role: string, k: TenantKeyArgs | undefined, defaultScopes: string[]) =>
      new SubAccountApiKey(
        `${name}-${role}`,
        {
          subAccountId: this.subAccount.id,
          label: k?.label ?? `${name} ${role}`,
          scopes: k?.scopes ?? defaultScopes,
          ipAllowList: k?.ipAllowList,
          rotation: k?.rotation,
          connection: parentConn,
        },
        parent,
      );
    // Declared members and suppressions add only the scopes they need (internal/peopleScopes.ts).
    this.bootstrapKey = key("bootstrap", args.bootstrapKey, [...DEFAULT_BOOTSTRAP_SCOPES, ...peopleScopes(args)]);
    for (const [role, k] of Object.entries(args.apiKeys ?? {}))
      this.apiKeys[role] = key(role, k, ["messages:send:all"]);

    // The tenant's own objects: its key, its account.
    // A plain object of outputs (not one output of an object): each child registers two fields.
    const tenantConn: ConnectionArgs = {
      apiKey: this.bootstrapKey.secretKey,
      accountId: this.subAccount.id,
      // The parent's connection may be one secret object; its base URL is not a credential.
      ...(parentConn === undefined
        ? {}
        : { baseUrl: pulumi.unsecret(pulumi.output(parentConn).apply((p) => p.baseUrl)) as pulumi.Output<string> }),
    };
    const child = { parent: this, dependsOn: [this.bootstrapKey] };

    if (args.domain) this.domain = new Domain(`${name}-domain`, { ...args.domain, connection: tenantConn }, child);
    const afterDomain = { ...child, dependsOn: [this.bootstrapKey, ...(this.domain ? [this.domain] : [])] };
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

    const parts: Record<string, pulumi.Input<unknown>> = {
      subAccountId: this.subAccount.id,
      status: this.subAccount.status,
      domain: this.domain?.domain,
      dnsValid: this.domain?.dnsValid,
      dnsRecords: this.domain?.dnsRecords,
      routes: pulumi.all(Object.fromEntries(Object.entries(this.routes).map(([n, r]) => [n, r.id]))),
      webhooks: pulumi.all(Object.fromEntries(Object.entries(this.webhooks).map(([n, w]) => [n, w.id]))),
      smtpUsernames: pulumi.all(
        Object.fromEntries(Object.entries(this.smtpCredentials).map(([n, s]) => [n, s.username])),
      ),
      apiKeys: pulumi.all(Object.fromEntries(Object.entries(this.apiKeys).map(([n, k]) => [n, k.id]))),
      members: pulumi.all(Object.fromEntries(Object.entries(this.members).map(([n, m]) => [n, m.userId]))),
    };
    // JSON round trip drops the absent parts (no domain, …) so the summary shows only what exists.
    this.summary = pulumi.all(parts).apply((s) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>);
    // `summary` stays an output of this object (export it to see it in the stack outputs) but is not
    // recorded as the component's state: that record costs one more full checkpoint write per tenant,
    // late in the run when the checkpoint is largest (bench/RESULTS.md).
    this.registerOutputs({});
  }
}
