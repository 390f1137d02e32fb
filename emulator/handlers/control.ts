// The control surface under /_emulator/ (off unless enabled; X-Emulator-Control token checked by
// the server): faults, clock, counters, request log, domain verification, parent suspension, state
// dump.
import type { AccountData, KeyData } from "../records";
import type { Runtime } from "../runtime";
import { type FaultSpec } from "../faults";
import { HttpError, type Reply } from "../http/errors";
import { setVerified, domainRecord, type DomainData } from "./domains";
import { subAccountRecord } from "../records";
import { newSecretKey, randomChars, sha256, uuid } from "../crypto";
import { memberRowId } from "../members";

type ControlHandler = (body: Record<string, unknown>, query: URLSearchParams) => Reply;

export function controlEndpoints(
  rt: Runtime,
): (method: string, path: string, query: URLSearchParams, raw: Buffer) => Reply {
  const { svc } = rt;
  const table: Record<string, ControlHandler> = {
    "GET /_emulator/faults": () => ({ status: 200, body: { faults: rt.faults.all() } }),
    "POST /_emulator/faults": (b) => ({ status: 201, body: rt.faults.add(b as unknown as FaultSpec) }),
    "DELETE /_emulator/faults": () => {
      rt.faults.clear();
      return { status: 200, body: { message: "faults cleared" } };
    },
    "GET /_emulator/clock": () => ({ status: 200, body: clockBody() }),
    "POST /_emulator/clock/advance": (b) => {
      const ms = typeof b.ms === "number" ? b.ms : typeof b.seconds === "number" ? b.seconds * 1000 : NaN;
      svc.db.tx(() => svc.clock.advance(ms));
      return { status: 200, body: clockBody() };
    },
    "GET /_emulator/counters": () => ({ status: 200, body: rt.counters.snapshot() }),
    "DELETE /_emulator/counters": () => {
      rt.counters.reset();
      return { status: 200, body: { message: "counters reset" } };
    },
    "GET /_emulator/requests": () => ({ status: 200, body: rt.requests.snapshot() }),
    "DELETE /_emulator/requests": () => {
      rt.requests.clear();
      return { status: 200, body: { message: "request log cleared" } };
    },
    "POST /_emulator/domains/verification": (b) => {
      if (typeof b.domain !== "string" || typeof b.verified !== "boolean") {
        throw new HttpError(400, "domain (string) and verified (boolean) are required");
      }
      const account = typeof b.accountId === "string" ? b.accountId : svc.parentAccountId;
      return { status: 200, body: setVerified(svc, account, b.domain, b.verified, b.apply !== false) };
    },
    "POST /_emulator/parent/suspension": (b) => {
      if (typeof b.suspended !== "boolean") throw new HttpError(400, "suspended (boolean) is required");
      const id = typeof b.accountId === "string" ? b.accountId : svc.parentAccountId;
      return { status: 200, body: suspendParent(id, b.suspended) };
    },
    "POST /_emulator/members/key": (b) => {
      if (typeof b.accountId !== "string" || typeof b.userId !== "string" || !Array.isArray(b.scopes)) {
        throw new HttpError(400, "accountId (string), userId (string) and scopes (array) are required");
      }
      return { status: 201, body: memberKey(b.accountId, b.userId, b.scopes as string[]) };
    },
    "GET /_emulator/state": (_b, q) => ({ status: 200, body: dump(q.get("messages") === "true") }),
  };

  function clockBody() {
    return { now: svc.clock.iso(), nowMs: svc.clock.now(), offsetMs: svc.clock.offset };
  }

  function suspendParent(id: string, suspended: boolean) {
    return svc.db.tx(() => {
      const row = svc.objects.get<AccountData>("account", id);
      if (!row || row.data.parent_account_id !== null) throw new HttpError(404, "parent account not found");
      const now = svc.clock.iso();
      const p = { ...row.data, status: suspended ? "suspended" : "active", updated_at: now } as AccountData;
      svc.objects.update(id, p);
      for (const s of svc.objects.all<AccountData>("account", id)) {
        const from = suspended ? "active" : "parent-suspended";
        const to = suspended ? "parent-suspended" : "active";
        if (s.data.status === from) svc.objects.update(s.id, { ...s.data, status: to, updated_at: now });
      }
      return { account_id: id, status: p.status };
    });
  }

  function memberKey(accountId: string, userId: string, scopes: string[]) {
    return svc.db.tx(() => {
      if (!svc.objects.get("member", memberRowId(accountId, userId))) throw new HttpError(404, "member not found");
      const secret = newSecretKey();
      const now = svc.clock.iso();
      const key: KeyData = {
        object: "api_key",
        id: uuid(),
        created_at: now,
        updated_at: now,
        last_used_at: null,
        account_id: accountId,
        label: `member ${userId}`,
        public_key: `txm-pk-${randomChars(32)}`,
        scopes,
        ip_allow_list: [],
        user_id: userId,
      };
      svc.objects.insert("api_key", key.id, accountId, key, null, sha256(secret));
      return { id: key.id, secret_key: secret };
    });
  }

  function dump(includeMessages: boolean) {
    const out: Record<string, unknown[]> = {
      accounts: [],
      api_keys: [],
      domains: [],
      routes: [],
      webhooks: [],
      smtp_credentials: [],
      suppressions: [],
      members: [],
      messages: [],
    };
    for (const r of svc.objects.dump(includeMessages)) {
      switch (r.kind) {
        case "account": {
          const a = r.data as AccountData;
          out.accounts!.push(
            a.parent_account_id
              ? {
                  ...subAccountRecord(a, svc.objects.count("domain", a.id), svc.objects.count("member", a.id)),
                  suspend_reason: a.suspend_reason,
                  deleted_at: a.deleted_at,
                  owner_user_id: a.owner_user_id,
                }
              : { object: "account", ...a },
          );
          break;
        }
        case "api_key":
          out.api_keys!.push(r.data as KeyData);
          break;
        case "domain":
          out.domains!.push(domainRecord(r.data as DomainData));
          break;
        case "route":
          out.routes!.push(r.data);
          break;
        case "webhook":
          out.webhooks!.push(r.data);
          break;
        case "credential_smtp":
          out.smtp_credentials!.push(r.data);
          break;
        case "member":
          out.members!.push(r.data);
          break;
        case "suppression":
          out.suppressions!.push(r.data);
          break;
        case "message":
          out.messages!.push(r.data);
          break;
      }
    }
    return {
      parent_account_id: svc.parentAccountId,
      now: svc.clock.iso(),
      ...out,
      idempotency: rt.idemStore.summary(),
    };
  }

  return (method, path, query, raw) => {
    const h = table[`${method} ${path}`];
    if (!h) return { status: 404, body: { message: `no control endpoint ${method} ${path}` } };
    let b: Record<string, unknown> = {};
    if (raw.length > 0) {
      try {
        b = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        return { status: 400, body: { message: "malformed JSON body" } };
      }
    }
    try {
      return h(b ?? {}, query);
    } catch (e) {
      if (e instanceof HttpError) return { status: e.status, body: { message: e.message } };
      if (e instanceof RangeError || e instanceof TypeError) return { status: 400, body: { message: e.message } };
      throw e;
    }
  };
}
