// SMTP credentials: create, list, get, delete. There is no update endpoint (PUT is a 405).
import { CreateSmtpCredential, CreateSmtpCredentialForm, type SmtpCredential } from "../../provider/api";
import { grant, requireDomains, sees } from "../authz";
import type { Ctx, EmulatedEndpoints } from "../context";
import { randomChars, sha256, uuid } from "../crypto";
import { PAGE_QUERY, listPage } from "../pagination";
import { parseBody } from "../validate";
import { DELETED, created, ok, ownedObject } from "./common";
import { normDomains } from "./webhooks";

/** What this file stores (SMTP credentials): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { credential_smtp: "smtp_credentials" } as const;

export interface SmtpData extends SmtpCredential {
  account_id: string;
  password_hash: string;
}

export function smtpRecord(s: SmtpData): SmtpCredential {
  const { account_id: _a, password_hash: _p, ...rest } = s;
  return rest;
}

const target = (ctx: Ctx): SmtpData => ownedObject(ctx, "credential_smtp", "smtp_credential_id", "smtp credential");

function create(ctx: Ctx) {
  const b = parseBody(CreateSmtpCredential, ctx.json());
  const domains = b.scope === "scoped" ? normDomains(b.domains) : [];
  requireDomains(ctx.key, "smtp-credentials", "write", domains, "every");
  const now = ctx.iso();
  const password = randomChars(32);
  const s: SmtpData = {
    object: "credential_smtp",
    id: uuid(),
    created_at: now,
    updated_at: now,
    name: b.name,
    username: `smtp-${randomChars(12).toLowerCase()}`,
    sandbox: b.sandbox ?? CreateSmtpCredentialForm.defaults.sandbox,
    scope: b.scope,
    domains,
    account_id: ctx.account.id,
    password_hash: sha256(password),
  };
  ctx.svc.objects.insert("credential_smtp", s.id, ctx.account.id, s);
  return created({ ...smtpRecord(s), password });
}

function list(ctx: Ctx) {
  const g = grant(ctx.key, "smtp-credentials", "read");
  const filter = g.all
    ? undefined
    : { sig: `domains=${[...g.domains].sort().join(",")}`, keep: (r: { data: SmtpData }) => sees(g, r.data.domains) };
  return ok(
    listPage<SmtpData, SmtpCredential>(
      ctx.svc.objects,
      "credential_smtp",
      ctx.account.id,
      ctx.query,
      (r) => smtpRecord(r.data),
      filter,
    ),
  );
}

function get(ctx: Ctx) {
  const s = target(ctx);
  requireDomains(ctx.key, "smtp-credentials", "read", s.domains, "any");
  return ok(smtpRecord(s));
}

function remove(ctx: Ctx) {
  const s = target(ctx);
  requireDomains(ctx.key, "smtp-credentials", "delete", s.domains, "any");
  ctx.svc.objects.delete(s.id);
  return ok({ message: DELETED });
}

export const smtpCredentials: EmulatedEndpoints = {
  listSmtpCredentials: { scope: { family: "smtp-credentials", verb: "read" }, query: PAGE_QUERY, handler: list },
  createSmtpCredential: { scope: { family: "smtp-credentials", verb: "write" }, idempotent: "plain", handler: create },
  getSmtpCredential: { scope: { family: "smtp-credentials", verb: "read" }, handler: get },
  deleteSmtpCredential: { scope: { family: "smtp-credentials", verb: "delete" }, handler: remove },
};
