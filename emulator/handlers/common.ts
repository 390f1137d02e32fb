// Helpers shared by handlers: replies, field checks on top of the zod schemas.
import { canonicalizeAllowList } from "../../provider/api/cidr";
import { scopeProblem } from "../../provider/api/scopes";
import type { Ctx } from "../context";
import { randomChars, sha256 } from "../crypto";
import { type Reply, badRequest, notFound } from "../http/errors";
import type { ObjectType } from "../store/objects";
import { uuidParam } from "../validate";

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const DELETED = "Operation completed successfully";

/**
 * The stored object the path parameter `param` names, when `accountId` (default: the caller's
 * account) owns it; otherwise a 404 "<what> not found", so other accounts' objects stay invisible.
 */
export function ownedObject<T extends { account_id: string }>(
  ctx: Ctx,
  type: ObjectType,
  param: string,
  what: string,
  accountId = ctx.account.id,
): T {
  const id = uuidParam(param, ctx.params[param]!);
  const row = ctx.svc.objects.get<T>(type, id);
  if (!row || row.data.account_id !== accountId) throw notFound(`${what} not found`);
  return row.data;
}

/** Canonical, de-duplicated allow list; every problem is a 400 naming its index. */
export function allowList(entries: readonly string[]): string[] {
  const { canonical, problems } = canonicalizeAllowList(entries);
  if (problems.length > 0) {
    throw badRequest(
      problems
        .map((p) => (p.index === undefined ? `ip_allow_list: ${p.message}` : `ip_allow_list[${p.index}]: ${p.message}`))
        .join("; "),
    );
  }
  return canonical;
}

const PARENT_ONLY_SCOPE = /^(sub-accounts|sub-account-api-keys|api-keys):/;

/** Valid scopes, de-duplicated in order; a sub-account key cannot hold key or sub-account scopes. */
export function scopes(list: readonly string[], forSubAccount: boolean): string[] {
  const problems: string[] = [];
  list.forEach((s, i) => {
    const p = scopeProblem(s);
    if (p) problems.push(`scopes[${i}]: ${p}`);
    else if (forSubAccount && PARENT_ONLY_SCOPE.test(s)) {
      problems.push(
        `scopes[${i}]: '${s}' cannot be granted to a sub-account key (a sub account cannot manage API keys or sub accounts; those scopes belong to parent-account keys)`,
      );
    }
  });
  if (problems.length) throw badRequest(problems.join("; "));
  return [...new Set(list)];
}

/** A body that must be a JSON object (for handlers that validate with a schema). */
export const body = (ctx: Ctx): unknown => ctx.json();

export const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Lower-cased domain of an address (`user@d`, `*@d`), or undefined. */
export function domainOf(address: string): string | undefined {
  const at = address.lastIndexOf("@");
  if (at < 0) return undefined;
  const d = address.slice(at + 1).toLowerCase();
  return d || undefined;
}

/**
 * What the emulator keeps of a signed endpoint (a route, a webhook: the service signs what it posts
 * to their URL) besides its record: its account and its signing secret's hash.
 */
export interface SignedData {
  account_id: string;
  secret_hash: string;
}

/** A signed endpoint's record: its stored data less what SignedData adds. */
export function signedRecord<T extends SignedData>(data: T): Omit<T, keyof SignedData> {
  const { account_id: _a, secret_hash: _s, ...rest } = data;
  return rest;
}

/**
 * A new signed endpoint's secret (its create's answer shows it, once) and the fields it is stored
 * with after its own: nothing delivered yet, its account, the secret's hash.
 */
export function newSigned(ctx: Ctx) {
  const secret = `whsec_${randomChars(40)}`;
  const fields = {
    success_count: 0,
    error_count: 0,
    errors_since_last_success: 0,
    last_request_at: null,
    account_id: ctx.account.id,
    secret_hash: sha256(secret),
  };
  return { secret, fields };
}
