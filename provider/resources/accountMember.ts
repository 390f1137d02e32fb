// Account members: who may log in to an account (a sub account through `connection`), with which
// role. The service publishes no update, so every change replaces the membership. The same email
// cannot be a member twice (409), so a replacement that keeps the email removes the old membership
// first (the person has no access for the moment between the two calls); a new email is added
// before the old one is removed. The record has neither email nor name: both are kept from inputs.
import { z } from "zod";
import { AccountMember, AddMember, AddMemberForm, MemberList, paths } from "../api";
import type { Declaration } from "../core/declaration";
import { pairImportId } from "../core/importId";

const inputs = z.object({
  email: AddMember.shape.email
    .transform((e) => e.trim().toLowerCase())
    .describe("The person's email address (their login)."),
  name: AddMember.shape.name.describe("Display name, used when the service invites the person."),
  role: AddMember.shape.role.describe("The member's role in the account."),
});

export const accountMember = {
  kind: "AccountMember",
  // The display name when the program gives one, else the email (the record carries neither).
  title: (p) => p.name ?? p.email,
  description:
    "A person who may log in to the account (a sub account: give its `connection`, or declare members in a " +
    "`Tenant`). The service has no update: any change replaces the membership; keeping the email means the old " +
    "membership is removed before the new one is added. Adopt an existing member with `adoptId: <user id>`. The " +
    "account owner, and the user the API key acts for, cannot be removed.",
  sdk: { outputs: ["userId", "accountId", "createdAt"] },
  inputs,
  apiFields: ["email", "name", "role"],
  createForm: AddMemberForm,
  replaceOn: ["email", "name", "role"],
  immutable: true,
  inputOnly: ["email", "name"],
  deleteBeforeReplace: (olds, news) => olds.email === news.email,
  // The record has no email, which the resource needs: the importer says it, `<email>/<userId>`
  // (like adoption, the service cannot confirm it; the name stays unset).
  importId: pairImportId({
    syntax: "<email>/<userId>",
    field: "email",
    fieldOf: () => "<email>",
    idOf: (r) => r.user_id,
    firstProblem: (email) => {
      const parsed = AddMember.shape.email.safeParse(email);
      return parsed.success ? undefined : `'${email}' is not an email address`;
    },
    normalize: (email) => email.trim().toLowerCase(),
  }),
  listing: {
    listed: false,
    unlisted: (count) =>
      `${count} member(s) not listed: the service's member record carries no email, which the resource needs; ` +
      "import one with its email in the id (`pulumi import txmail:index:AccountMember <name> <email>/<userId>`)",
  },
  record: AccountMember,
  created: AccountMember,
  idOf: (r) => String(r.user_id),
  // A user id outlives a membership: the same person removed and added again (by another stack) has
  // the same one. Only `createdAt` tells the two memberships apart.
  naturalKey: { inputs: [], identity: ["createdAt"] },
  collectionPath: (c) => paths.members(c.accountId),
  itemPath: (c, _p, id) => paths.member(c.accountId, id),
  // No GET by id: the (unpaginated) list holds every member.
  async fetch({ api, conn }, _props, id) {
    const { data } = await api.get(paths.members(conn.accountId), MemberList);
    return data.find((m) => m.user_id === id);
  },
  // The look for look-alikes (operations/candidates.ts): one unpaged list, which refuses `limit`.
  async *listAll({ api, conn }) {
    yield* (await api.get(paths.members(conn.accountId), MemberList)).data;
  },
  conflictHint: (p) =>
    `${String(p.email)} is already a member of this account. The member record carries no email, so the ` +
    `provider cannot tell which user it is: to manage that membership, add \`adoptId: "<user id>"\` (from the ` +
    `dashboard or GET /members) with the same role, or remove the person first.`,
  forbiddenAlso: {
    delete:
      "Or the member is the account owner, or the user this API key acts for: the service never removes " +
      "either. To stop managing such a member without removing it, `pulumi state delete` the resource.",
  },
  scopes: {
    read: () => ["accounts:members:read"],
    write: () => ["accounts:members:add"],
    delete: () => ["accounts:members:remove"],
  },
} satisfies Declaration<z.infer<typeof inputs>>;
