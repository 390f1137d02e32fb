// The request's shape against its endpoint: known query parameters, the key's scope, no body where
// none is taken. Like admission, these 400/403s come before idempotency and are not stored.
import { checkNeed } from "../authz";
import type { Ctx, Endpoint } from "../context";
import { badRequest } from "../http/errors";
import { checkQuery } from "../pagination";

export function checkRequest(ctx: Ctx, endpoint: Endpoint): void {
  checkQuery(ctx.query, endpoint.query ?? []);
  if (endpoint.scope) checkNeed(ctx.key, endpoint.scope);
  if (endpoint.body === "none" && ctx.raw.length > 0) throw badRequest("this operation takes no request body");
}
