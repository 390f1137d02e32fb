// The control surface under /_emulator/ (off unless enabled; X-Emulator-Control token checked by
// the server): faults, clock, counters, request log, domain verification, parent suspension, state
// dump. One small handler per operation, in a table keyed "METHOD /path".
import type { AccountData } from "../records";
import type { Runtime } from "../runtime";
import { type FaultSpec } from "../faults";
import { HttpError, type Reply } from "../http/errors";
import { setVerified, domainRecord, type DomainData } from "./domains";
import { newKeyData, subAccountRecord } from "../records";
import { newSecretKey, sha256 } from "../crypto";
import { memberRowId } from "../members";
import { DUMP_SECTIONS, type ObjectType } from "../store/objects";

type ControlBody = Record<string, unknown>;
type ControlHandler = (rt: Runtime, body: ControlBody, query: URLSearchParams) => Reply;

const CONTROL_HANDLERS: Record<string, ControlHandler> = {
  "GET /_emulator/faults": (rt) => ({ status: 200, body: { faults: rt.faults.all() } }),
  "POST /_emulator/faults": (rt, b) => ({ status: 201, body: rt.faults.add(b as unknown as FaultSpec) }),
  "DELETE /_emulator/faults": clearFaults,
  "GET /_emulator/clock": (rt) => ({ status: 200, body: clockBody(rt) }),
  "POST /_emulator/clock/advance": advanceClock,
  "GET /_emulator/counters": (rt) => ({ status: 200, body: rt.counters.snapshot() }),
  "DELETE /_emulator/counters": resetCounters,
  "GET /_emulator/requests": (rt) => ({ status: 200, body: rt.requests.snapshot() }),
  "DELETE /_emulator/requests": clearRequests,
  "POST /_emulator/domains/verification": setDomainVerification,
  "POST /_emulator/parent/suspension": setParentSuspension,
  "POST /_emulator/members/key": createMemberKey,
  "GET /_emulator/state": (rt, _b, q) => ({ status: 200, body: stateDump(rt, q.get("messages") === "true") }),
};

/** The control surface's answer to one request: its handler's reply, or a 400/404 naming the problem. */
export function controlEndpoints(
  rt: Runtime,
): (method: string, path: string, query: URLSearchParams, raw: Buffer) => Reply {
  return (method, path, query, raw) => {
    const handler = CONTROL_HANDLERS[`${method} ${path}`];
    if (!handler) return { status: 404, body: { message: `no control endpoint ${method} ${path}` } };
    let body: ControlBody = {};
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString("utf8")) as ControlBody;
      } catch {
        return { status: 400, body: { message: "malformed JSON body" } };
      }
    }
    try {
      return handler(rt, body ?? {}, query);
    } catch (e) {
      if (e instanceof HttpError) return { status: e.status, body: { message: e.message } };
      if (e instanceof RangeError || e instanceof TypeError) return { status: 400, body: { message: e.message } };
      throw e;
    }
  };
}

function clearFaults(rt: Runtime): Reply {
  rt.faults.clear();
  return { status: 200, body: { message: "faults cleared" } };
}

function clockBody({ svc }: Runtime) {
  return { now: svc.clock.iso(), nowMs: svc.clock.now(), offsetMs: svc.clock.offset };
}

function advanceClock(rt: Runtime, b: ControlBody): Reply {
  const ms = typeof b.ms === "number" ? b.ms : typeof b.seconds === "number" ? b.seconds * 1000 : NaN;
  rt.svc.db.tx(() => rt.svc.clock.advance(ms));
  return { status: 200, body: clockBody(rt) };
}

function resetCounters(rt: Runtime): Reply {
  rt.counters.reset();
  return { status: 200, body: { message: "counters reset" } };
}

function clearRequests(rt: Runtime): Reply {
  rt.requests.clear();
  return { status: 200, body: { message: "request log cleared" } };
}

function setDomainVerification({ svc }: Runtime, b: ControlBody): Reply {
  if (typeof b.domain !== "string" || typeof b.verified !== "boolean") {
    throw new HttpError(400, "domain (string) and verified (boolean) are required");
  }
  const account = typeof b.accountId === "string" ? b.accountId : svc.parentAccountId;
  return { status: 200, body: setVerified(svc, account, b.domain, b.verified, b.apply !== false) };
}

/** Suspends (or restores) a parent account and, with it, its active sub accounts. */
function setParentSuspension({ svc }: Runtime, b: ControlBody): Reply {
  if (typeof b.suspended !== "boolean") throw new HttpError(400, "suspended (boolean) is required");
  const id = typeof b.accountId === "string" ? b.accountId : svc.parentAccountId;
  const suspended = b.suspended;
  const body = svc.db.tx(() => {
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
  return { status: 200, body };
}

/** An API key of a member (a user's key), which the service API cannot create. */
function createMemberKey({ svc }: Runtime, b: ControlBody): Reply {
  if (typeof b.accountId !== "string" || typeof b.userId !== "string" || !Array.isArray(b.scopes)) {
    throw new HttpError(400, "accountId (string), userId (string) and scopes (array) are required");
  }
  const { accountId, userId } = b;
  const scopes = b.scopes as string[];
  const body = svc.db.tx(() => {
    if (!svc.objects.get("member", memberRowId(accountId, userId))) throw new HttpError(404, "member not found");
    const secret = newSecretKey();
    const now = svc.clock.iso();
    const key = newKeyData(now, {
      account_id: accountId,
      label: `member ${userId}`,
      scopes,
      ip_allow_list: [],
      user_id: userId,
    });
    svc.objects.insert("api_key", key.id, accountId, key, null, sha256(secret));
    return { id: key.id, secret_key: secret };
  });
  return { status: 201, body };
}

/**
 * How a stored record is shown in the state dump where it is not as stored; the section each
 * stored type goes to is in the store's table (DUMP_SECTIONS).
 */
const SHOWN_AS: Partial<Record<ObjectType, (rt: Runtime, data: unknown) => unknown>> = {
  account: (rt, data) => dumpedAccount(rt, data as AccountData),
  domain: (_rt, data) => domainRecord(data as DomainData),
};

/** Every stored object, by section (messages only when asked), with the idempotency store's summary. */
function stateDump(rt: Runtime, includeMessages: boolean) {
  const { svc } = rt;
  const out: Record<string, unknown[]> = {};
  for (const section of Object.values(DUMP_SECTIONS)) if (section) out[section] = [];
  for (const r of svc.objects.dump(includeMessages)) {
    const section = DUMP_SECTIONS[r.type];
    const show = SHOWN_AS[r.type];
    if (section) out[section]!.push(show ? show(rt, r.data) : r.data);
  }
  return {
    parent_account_id: svc.parentAccountId,
    now: svc.clock.iso(),
    ...out,
    idempotency: rt.idemStore.summary(),
  };
}

function dumpedAccount({ svc }: Runtime, a: AccountData): unknown {
  if (!a.parent_account_id) return { object: "account", ...a };
  return {
    ...subAccountRecord(a, svc.objects.count("domain", a.id), svc.objects.count("member", a.id)),
    suspend_reason: a.suspend_reason,
    deleted_at: a.deleted_at,
    owner_user_id: a.owner_user_id,
  };
}
