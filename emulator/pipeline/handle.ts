// One request pipeline for every v2 endpoint, as named stages:
//   parse → [control surface] → find endpoint (404/405, counted) → faults before → authenticate +
//   IP allow list (401/403) → account in path → parent-only → suspension → rate limit (429) →
//   query + scope + body checks → Idempotency-Key (400/409/422/replay) → [delay fault] → prepare
//   (an endpoint's asynchronous work, e.g. check-dns's lookups) → execute (handler + stored
//   response in one transaction) → [error-after fault] → end the claim →
//   [drop-after / delay-after faults] → respond.
// An HttpError thrown by any stage before execution becomes the reply; those are never stored.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Ctx, type Endpoint, type Services } from "../context";
import { clientIp } from "../http/clientIp";
import type { EndpointTable } from "../http/endpointTable";
import { HttpError, type Reply, errorReply } from "../http/errors";
import { parseRequest } from "../http/request";
import { deliver, writeReply } from "../http/respond";
import type { Runtime } from "../runtime";
import { authenticateCaller, rateLimit, type Limiters } from "./admit";
import { checkRequest } from "./checks";
import { claimKey } from "./claim";
import { answerControl, isControlPath, type ControlSurface } from "./control";
import { answerAfter, delayBefore, errorAfter, faultBefore } from "./faults";
import { findEndpoint } from "./endpoint";
import { prepareAndExecute } from "./prepare";

export interface Pipeline {
  svc: Services;
  rt: Runtime;
  endpoints: EndpointTable<Endpoint>;
  limiters: Limiters;
  control: ControlSurface | undefined;
  trustForwardedFor: boolean;
}

/** The server's request listener: the pipeline, and a last answer for what it throws. */
export function requestListener(p: Pipeline): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(p, req, res).catch((e: unknown) => answerFailure(res, e));
  };
}

async function handle(p: Pipeline, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { svc, rt } = p;
  const request = await parseRequest(req);
  if (isControlPath(request.path)) return writeReply(res, answerControl(p.control, request));

  const logged = rt.requests.begin(request.method, request.path, svc.clock.iso());
  // Set when the whole answer was handed to the socket; a dropped connection stays null.
  res.once("finish", () => (logged.status = res.statusCode));
  const found = findEndpoint(p.endpoints, rt.counters, request.method, request.path);
  if ("reply" in found) return writeReply(res, found.reply);
  logged.template = found.template;
  const { endpoint } = found;
  const fault = rt.faults.take(request.method, request.path, found.template);
  const early = faultBefore(fault);
  if (early !== undefined) return deliver(req, res, early);

  const ctx = new Ctx(
    svc,
    request.method,
    request.path,
    found.template,
    found.params,
    request.query,
    request.raw,
    request.headers["content-type"],
    clientIp(req, p.trustForwardedFor),
    svc.clock.now(),
  );
  if (!endpoint.public) {
    authenticateCaller(ctx, endpoint, request.headers.authorization);
    rateLimit(ctx, p.limiters, rt.counters);
  }
  checkRequest(ctx, endpoint);
  const claimed = claimKey(rt.idem, ctx, endpoint, request.headers["idempotency-key"]);
  if ("reply" in claimed) return writeReply(res, claimed.reply);

  const { claim } = claimed;
  let reply: Reply;
  try {
    ctx.now = (await delayBefore(fault, svc.clock)) ?? ctx.now;
    reply = await prepareAndExecute(svc.db, rt.idem, ctx, endpoint, claim);
    reply = errorAfter(fault, reply, claim, svc.db, rt.idem);
  } finally {
    // Committed and stored (or released): from here a retry with the same key sees the replay, not
    // "in progress" — also while a delay-after fault holds this answer back.
    if (claim) rt.idem.done(claim);
  }
  deliver(req, res, await answerAfter(fault, reply));
}

/** What escaped the pipeline: an HttpError (a 413 body, a malformed path) is its reply; anything else a 500. */
function answerFailure(res: ServerResponse, e: unknown): void {
  if (e instanceof HttpError) {
    if (!res.headersSent) writeReply(res, errorReply(e));
    return;
  }
  process.stderr.write(`emulator: ${String((e as Error)?.stack ?? e)}\n`);
  if (!res.headersSent) writeReply(res, { status: 500, body: { message: "internal server error" } });
  else res.destroy();
}
