// Suppressions: an address the account must never mail, for every domain or one. The service has
// no update, so any change replaces it; at most one live suppression exists per address and domain,
// so a replacement that keeps both deletes the old one first. Delete is addressed by email and
// domain. Once `expiresAt` has passed the suppression no longer exists: read reports it gone, so
// the next `pulumi up` recreates it only if the program still declares it (with a later expiresAt).
import { z } from "zod";
import { CreateSuppression, CreateSuppressionForm, paths, Suppression, SuppressionsCreated } from "../api";
import type { Props, Declaration } from "../core/declaration";
import { keysToCamel } from "../core/casing";

/** One spelling of an instant (the service may echo another): what state keeps and diff compares. */
const canonicalTime = (t: string) => new Date(t).toISOString();

const inputs = z.object({
  email: CreateSuppression.shape.email.transform((e) => e.trim().toLowerCase()).describe("The address never to mail."),
  domain: CreateSuppression.shape.domain
    .transform((d) => d?.toLowerCase())
    .describe("Only for this sending domain; unset: every domain of the account."),
  reason: CreateSuppression.shape.reason.describe(
    "Why (at most 255 characters), e.g. the compliance list it comes from.",
  ),
  expiresAt: CreateSuppression.shape.expires_at
    .transform(canonicalTime)
    .describe("RFC 3339 instant, in the future. Afterwards the suppression is gone (read as deleted)."),
});

const expired = (r: { expires_at?: unknown }) => Date.parse(String(r.expires_at)) <= Date.now();

const sameTarget = (a: Props, b: Props) => a.email === b.email && (a.domain ?? null) === (b.domain ?? null);

/** The live suppression of the program's address and domain, if any. */
async function findLive({ api, conn }: Parameters<NonNullable<Declaration<never>["fetch"]>>[0], p: Props) {
  const list = `${paths.suppressions(conn.accountId)}?${new URLSearchParams({
    email: String(p.email),
    ...(p.domain ? { domain: String(p.domain) } : {}),
  }).toString()}`;
  for await (const s of api.list(list, Suppression)) {
    if ((s.domain ?? null) === ((p.domain as string | undefined) ?? null) && !expired(s)) return s;
  }
  return undefined;
}

/** The live suppression with this id, if any (the service has no GET by id). */
async function findById({ api, conn }: Parameters<NonNullable<Declaration<never>["fetch"]>>[0], id: string) {
  for await (const s of api.list(paths.suppressions(conn.accountId), Suppression)) {
    if (s.id === id) return expired(s) ? undefined : s;
  }
  return undefined;
}

export const suppression = {
  kind: "Suppression",
  title: (p) => p.email ?? p.domain,
  description:
    "An address the account must never mail. Any change replaces it (delete first when email and domain stay). " +
    "After `expiresAt` the service drops it: `pulumi refresh` removes it from state and the next `pulumi up` " +
    "recreates it only if the program still declares it (with a later expiresAt).",
  sdk: { outputs: ["createdAt"] },
  inputs,
  apiFields: ["email", "domain", "reason", "expiresAt"],
  createForm: CreateSuppressionForm,
  replaceOn: ["email", "domain", "reason", "expiresAt"],
  immutable: true,
  uniqueName: true,
  // Delete takes the address, not the id: once this suppression is gone another (another stack's) can
  // be live at it, and is never deleted in its place.
  naturalKey: { inputs: ["email", "domain"] },
  deleteBeforeReplace: sameTarget,
  validate(p, olds) {
    // A suppression created already expired would be gone at the next read and recreated by every
    // up; an unchanged one in state may pass its date (it then reads as gone).
    const unchanged = olds.expiresAt === p.expiresAt && sameTarget(olds, p);
    if (typeof p.expiresAt === "string" && !unchanged && Date.parse(p.expiresAt) <= Date.now()) {
      return [
        {
          property: "expiresAt",
          reason: `expiresAt: ${p.expiresAt} is in the past; a suppression must expire in the future (remove it from the program if it has served its time)`,
        },
      ];
    }
    return [];
  },
  listing: {
    listed: true,
    title: (r) => `suppression-${String(r.email)}${r.domain ? `-${String(r.domain)}` : ""}`,
    // An expired suppression no longer exists for the service's senders, nor for the provider.
    live: (r, now) => Date.parse(String(r.expires_at)) > now,
  },
  record: Suppression,
  created: SuppressionsCreated.refine(
    (l) => l.data.length === 1,
    "the create must answer exactly one suppression",
  ).transform((l) => l.data[0]!),
  collectionPath: (c) => paths.suppressions(c.accountId),
  itemPath: (c, p) => paths.suppressionByAddress(c.accountId, String(p.email), p.domain as string | undefined),
  async fetch(ctx, props, id) {
    // `pulumi import` knows only the id: find it among all the account's suppressions.
    // Whether the live one is this one (its id), the core checks: another is never deleted in its place.
    return props.email === undefined ? findById(ctx, id) : findLive(ctx, props);
  },
  findExisting: (ctx, props) => findLive(ctx, props),
  outputsOf: (r) => {
    const out = keysToCamel(r);
    out.expiresAt = canonicalTime(String(r.expires_at));
    // The service reports "every domain" and "no reason" as null; the program leaves them unset.
    if (r.domain === null) delete out.domain;
    if (r.reason === null) delete out.reason;
    return out;
  },
  scopes: {
    read: () => ["suppressions:read"],
    write: () => ["suppressions:write"],
    delete: () => ["suppressions:delete"],
  },
} satisfies Declaration<z.infer<typeof inputs>>;
