// Message sending: conversation messages and "create message". The sender's domain must be a
// domain of the account with valid DNS; accepted messages are `queued`, one item per recipient,
// and each recipient counts as one reception for sub-account usage (sandbox messages included).
import { type Address, CreateConversationMessage, CreateMessage, type MessageItem } from "../../provider/api";
import { requireDomains } from "../authz";
import type { Ctx, EmulatedEndpoints } from "../context";
import { uuid } from "../crypto";
import { badRequest } from "../http/errors";
import type { AccountData } from "../records";
import { parseBody } from "../validate";
import { domainOf } from "./common";
import { findDomain } from "./domains";

/** What this file stores (messages): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { message: "messages" } as const;

const DAY = 86_400_000;

function checkSchedule(ctx: Ctx, s: { first_attempt?: string; expires?: string } | undefined): void {
  if (!s) return;
  const fa = s.first_attempt ? Date.parse(s.first_attempt) : undefined;
  const ex = s.expires ? Date.parse(s.expires) : undefined;
  if (fa !== undefined && (fa <= ctx.now || fa > ctx.now + 7 * DAY)) {
    throw badRequest("schedule.first_attempt: must be in the future and within 7 days of the request");
  }
  if (ex !== undefined && (ex <= ctx.now || ex > ctx.now + 8 * DAY)) {
    throw badRequest("schedule.expires: must be in the future and within 8 days of the request");
  }
  if (fa !== undefined && ex !== undefined && ex <= fa)
    throw badRequest("schedule.expires: must be after schedule.first_attempt");
}

/**
 * Who may send from a domain: an API key's `messages:send` scopes, or an SMTP credential's scope and
 * domains (emulator/smtp). It throws the refusal (a 403).
 */
export type SendGrant = (domain: string) => void;

const keyGrant =
  (ctx: Ctx): SendGrant =>
  (domain) =>
    requireDomains(ctx.key, "messages", "send", [domain], "every");

/**
 * The sender's rules, one copy for the API's sends and SMTP submission: the grant covers the
 * domain of `email`, and that domain is a domain of the account with valid DNS. `field` names the
 * address in the 400 (`from.email`, `MAIL FROM`). Returns the domain.
 */
export function checkSender(ctx: Ctx, email: string, field: string, grant: SendGrant): string {
  const domain = domainOf(email);
  if (!domain) throw badRequest(`${field}: ${email} has no domain`);
  grant(domain);
  const d = findDomain(ctx.svc, ctx.account.id, domain);
  if (!d || !d.dns_valid) {
    throw badRequest(`${field}: ${domain} is not a domain of this account with valid DNS records`);
  }
  return domain;
}

/**
 * Accepts a message: the sender's rules, then one `queued` message per recipient, counted as
 * receptions. Called inside the store's transaction (the pipeline's, or SMTP submission's).
 */
export function acceptMessage(
  ctx: Ctx,
  from: Address,
  recipients: Address[],
  subject: string,
  extra: Record<string, unknown>,
  grant: SendGrant = keyGrant(ctx),
  field = "from.email",
) {
  const domain = checkSender(ctx, from.email, field, grant);
  const now = ctx.iso();
  const items: MessageItem[] = recipients.map((r) => {
    const id = `<${uuid()}@${domain}>`;
    const item: MessageItem = {
      object: "message",
      id,
      recipient: { email: r.email, name: r.name ?? "" },
      status: "queued",
      error: null,
    };
    ctx.svc.objects.insert("message", id, ctx.account.id, {
      ...item,
      account_id: ctx.account.id,
      from: from.email,
      subject,
      created_at: now,
      ...extra,
    });
    return item;
  });
  ctx.svc.receptions.record(ctx.account.id, ctx.now, items.length);
  const a = ctx.svc.objects.get<AccountData>("account", ctx.account.id)!;
  ctx.svc.objects.update(a.id, { ...a.data, last_activity_at: now });
  return { status: 202, body: { object: "list", data: items } };
}

function conversation(ctx: Ctx) {
  const b = parseBody(CreateConversationMessage, ctx.json());
  checkSchedule(ctx, b.schedule);
  const all = [...b.to, ...(b.cc ?? []), ...(b.bcc ?? [])];
  return acceptMessage(ctx, b.from, all, b.subject, {
    kind: "conversation",
    sandbox: b.sandbox ?? false,
    tags: b.tags ?? [],
  });
}

function create(ctx: Ctx) {
  const b = parseBody(CreateMessage, ctx.json());
  checkSchedule(ctx, b.schedule);
  const rs = b.recipients.map((r) => ({ email: r.email, name: r.name }));
  return acceptMessage(ctx, b.from, rs, b.subject, {
    kind: "message",
    sandbox: b.sandbox ?? false,
    tags: b.tags ?? [],
  });
}

export const messages: EmulatedEndpoints = {
  sendMessage: { scope: { family: "messages", verb: "send" }, idempotent: "plain", handler: create },
  sendConversationMessage: {
    scope: { family: "messages", verb: "send" },
    idempotent: "plain",
    handler: conversation,
  },
};
