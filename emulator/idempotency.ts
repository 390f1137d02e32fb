// Idempotency (docs/contract/idempotency.md, rules 1–9, and the 409/422 rows of docs/contract/errors.md#statuses).
//
// 1. Only endpoints declaring Idempotency-Key (the POST creates) take part; elsewhere the header is ignored.
// 2. A record is matched on account + key; its method, resolved path and SHA-256 of the raw body
//    must match, else 422 (no Idempotent-Replayed, no Retry-After).
// 3. A fresh execution carries no Idempotent-Replayed header.
// 4. A completed record replays status and body with `Idempotent-Replayed: true`.
// 5. 2xx and 4xx produced by the handler are stored (in the handler's own transaction for 2xx, so a
//    committed object always has its stored response).
// 6. 5xx and handler failures are not stored; the key is released and a retry re-executes.
// 7. Key creation ("secret" endpoints): a 201 is stored sealed with AES-256-GCM (server secret in the
//    data dir) and replayed for 5 minutes; after that the sealed body is wiped and the key answers
//    409 (terminal: no Idempotent-Replayed, no Retry-After) — re-executing would mint a second key,
//    replaying is no longer allowed, so the only safe answer is a refusal that says what happened.
//    A 4xx from them is not stored; the key stays in progress until its 5-minute lease ends.
// 8. After 24 h the record is gone and the key is fresh again (idempotency rule 8 leaves this undefined).
// 9. Records are per account.
// In progress: a concurrent request with the same key (possible while a delay fault holds the first)
// gets 409 + `Idempotent-Replayed: false` + `Retry-After` (1 s while executing; the remaining lease
// for a key-creation 4xx lease).
import type { Clock } from "./clock";
import { sha256, type Sealer } from "./crypto";
import { HttpError, type Reply, badRequest } from "./http/errors";
import type { IdemRecord, IdemStore } from "./store/idempotency";

export const RECORD_LIFETIME_MS = 24 * 3600_000;
export const SECRET_REPLAY_MS = 5 * 60_000;
export const LEASE_MS = 5 * 60_000;
export const MAX_KEY_LENGTH = 255;

export interface Claim {
  account: string;
  key: string;
  method: string;
  path: string;
  hash: string;
  secret: boolean;
}

const mapKey = (account: string, key: string) => `${account}\n${key}`;

export const MISMATCH = "Idempotency-Key already used with a different payload (method, path or body differ)";
export const IN_PROGRESS = "a request with this Idempotency-Key is in progress; retry later";
export const SECRET_EXPIRED =
  "the response to this Idempotency-Key carried a secret and can no longer be replayed (5-minute replay window passed); " +
  "the key it created exists: list the keys to find it, or use a new Idempotency-Key to create another";

export class Idempotency {
  private readonly executing = new Map<string, string>();
  constructor(
    private readonly store: IdemStore,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
  ) {}

  /** Validates the header value (before any record is looked at). */
  static checkKey(key: string): void {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw badRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters (got ${key.length})`);
    }
  }

  /** A claim for a fresh execution, or the reply to send instead (replay, 409, 422). */
  begin(c: Omit<Claim, "hash">, raw: Buffer): { claim: Claim } | { reply: Reply } {
    const claim: Claim = { ...c, hash: sha256(raw) };
    const fp = `${claim.method} ${claim.path} ${claim.hash}`;
    const now = this.clock.now();
    const mk = mapKey(claim.account, claim.key);
    const running = this.executing.get(mk);
    if (running !== undefined) {
      if (running !== fp) return { reply: err(422, MISMATCH) };
      return { reply: inProgress(1) };
    }
    let rec = this.store.get(claim.account, claim.key);
    if (rec && rec.expires_at <= now) {
      this.store.delete(claim.account, claim.key);
      rec = undefined;
    }
    if (rec) {
      if (`${rec.method} ${rec.path} ${rec.body_hash}` !== fp) return { reply: err(422, MISMATCH) };
      if (rec.state === "in_progress") {
        if (rec.lease_until !== null && rec.lease_until > now) {
          return { reply: inProgress(Math.max(1, Math.ceil((rec.lease_until - now) / 1000))) };
        }
        this.store.delete(claim.account, claim.key);
      } else if (rec.encrypted) {
        if (rec.body === null || rec.replay_until === null || rec.replay_until <= now) {
          return { reply: err(409, SECRET_EXPIRED) };
        }
        const body = JSON.parse(this.sealer.open(rec.body, mk)) as unknown;
        return { reply: { status: rec.status!, body, headers: { "idempotent-replayed": "true" } } };
      } else {
        const body = rec.body === null ? undefined : (JSON.parse(rec.body) as unknown);
        return { reply: { status: rec.status!, body, headers: { "idempotent-replayed": "true" } } };
      }
    }
    this.executing.set(mk, fp);
    return { claim };
  }

  /** Records the outcome (call inside the handler's transaction for 2xx). */
  record(claim: Claim, reply: Reply): void {
    const now = this.clock.now();
    const base: IdemRecord = {
      account_id: claim.account,
      idem_key: claim.key,
      method: claim.method,
      path: claim.path,
      body_hash: claim.hash,
      state: "completed",
      status: reply.status,
      body: null,
      encrypted: 0,
      created_at: now,
      expires_at: now + RECORD_LIFETIME_MS,
      lease_until: null,
      replay_until: null,
    };
    if (reply.status >= 500) {
      this.store.delete(claim.account, claim.key);
    } else if (claim.secret && reply.status >= 400) {
      this.store.put({ ...base, state: "in_progress", status: null, lease_until: now + LEASE_MS });
    } else if (claim.secret) {
      const sealed = this.sealer.seal(JSON.stringify(reply.body), mapKey(claim.account, claim.key));
      this.store.put({ ...base, body: sealed, encrypted: 1, replay_until: now + SECRET_REPLAY_MS });
    } else {
      this.store.put({ ...base, body: reply.body === undefined ? null : JSON.stringify(reply.body) });
    }
  }

  /** Releases a key: the stored record (if any) and the in-memory claim (idempotency rule 6). */
  release(claim: Claim): void {
    this.store.delete(claim.account, claim.key);
    this.done(claim);
  }

  /** The execution is over (after commit or rollback). */
  done(claim: Claim): void {
    this.executing.delete(mapKey(claim.account, claim.key));
  }

  sweep(): void {
    this.store.sweep(this.clock.now());
  }
}

function err(status: number, message: string): Reply {
  return { status, body: { message } };
}

function inProgress(seconds: number): Reply {
  return {
    status: 409,
    body: { message: IN_PROGRESS },
    headers: { "idempotent-replayed": "false", "retry-after": String(seconds) },
  };
}

export { HttpError };
