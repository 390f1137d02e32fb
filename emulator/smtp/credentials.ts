// SMTP AUTH against the service's SMTP credentials (handlers/smtpCredentials.ts). The emulator keeps
// only each password's SHA-256, so a login is checked against the hash; nothing here ever writes a
// password anywhere (no log line, no error text, no reply).
import { timingSafeEqual } from "node:crypto";
import type { StatementSync } from "node:sqlite";
import type { Services } from "../context";
import { sha256 } from "../crypto";
import type { SmtpData } from "../handlers/smtpCredentials";
import type { SendGrant } from "../handlers/messages";
import { forbidden } from "../http/errors";
import type { AccountData } from "../records";

/**
 * Credentials are stored without a lookup column (their rows predate SMTP submission), so the
 * username is found in the stored JSON: no schema change, and data directories of earlier versions
 * work as they are. One statement per database, prepared once.
 */
const byUsername = new WeakMap<Services["db"], StatementSync>();

function rowsOf(svc: Services, username: string): SmtpData[] {
  let st = byUsername.get(svc.db);
  if (!st) {
    st = svc.db.sql.prepare(
      "SELECT data FROM objects WHERE kind = 'credential_smtp' AND json_extract(data, '$.username') = ?",
    );
    byUsername.set(svc.db, st);
  }
  return (st.all(username) as { data: string }[]).map((r) => JSON.parse(r.data) as SmtpData);
}

/** Equal-time comparison of two hex digests. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The live credential and its account, for a username and password; undefined when refused. */
export function login(
  svc: Services,
  username: string,
  password: string,
): { credential: SmtpData; account: AccountData } | undefined {
  const hash = sha256(password);
  // Usernames are random (`smtp-` + 12 characters), so at most one row in practice; each is checked.
  const credential = rowsOf(svc, username).find((c) => sameHash(c.password_hash, hash));
  return credential && live(svc, credential.id);
}

/**
 * The credential with this id and its account, while both exist: a credential deleted (or whose
 * account was deleted) after AUTH stops working on the open session too, as a revoked API key does.
 */
export function live(svc: Services, id: string): { credential: SmtpData; account: AccountData } | undefined {
  const credential = svc.objects.get<SmtpData>("credential_smtp", id)?.data;
  if (!credential) return undefined;
  const account = svc.objects.get<AccountData>("account", credential.account_id)?.data;
  if (!account || account.status === "deleted") return undefined;
  return { credential, account };
}

/**
 * What a credential may send from: a `global` one any domain of its account, a `scoped` one only
 * its `domains` (docs/contract/smtp-submission.md#sender-rules). The same place in the sender's
 * rules (handlers/messages.ts checkSender) as an API key's `messages:send` scopes.
 */
export function credentialGrant(c: SmtpData): SendGrant {
  return (domain) => {
    if (c.scope === "scoped" && !c.domains.includes(domain)) {
      throw forbidden(`this SMTP credential may send only from ${c.domains.join(", ")}, not from ${domain}`);
    }
  };
}
