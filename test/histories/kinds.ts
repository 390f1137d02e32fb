// What the history tester knows of each kind it drives: a program's inputs for a resource, the
// edits a program may make to them, where the service's dump lists its objects, and which outputs
// are the service's secrets. Values come from small pools on purpose: two stacks, or a stack and
// the environment, then meet on the same names, which is where ownership defects live.
import type { StateDump } from "../../emulator/control";
import type { Props } from "../../provider/core/declaration";

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
