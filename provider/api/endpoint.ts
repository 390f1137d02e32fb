// The building blocks of the endpoint table (endpoints.ts): an endpoint's spec and the builders
// each contract file (provider/api/<kind>.ts) declares its endpoints with, in a file of its own so
// that the contract files can import them while the table imports the contract files.
import type { z } from "zod";
import { MessageResponse } from "./common";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * How a client may retry the call (docs/contract/retries.md):
 * - "safe": GET, PUT, DELETE — idempotent by definition, retried;
 * - "keyed-create": a POST create declaring Idempotency-Key — retried only when it carries one;
 * - "one-shot": a POST action the API does not declare retry-safe — exactly one attempt.
 */
export type RetryClass = "safe" | "keyed-create" | "one-shot";

export interface EndpointSpec {
  method: HttpMethod;
  /** The path template, e.g. `/v2/accounts/{account_id}/routes/{route_id}`. */
  template: string;
  /** The request body's schema; absent for an endpoint that takes none. */
  request?: z.ZodType;
  /** The schema of a 2xx body. */
  response: z.ZodType;
  retry: RetryClass;
}

/** The prefix of every account's paths. */
export const A = "/v2/accounts/{account_id}";

// Each builder keeps its template's literal type, so paths.ts can type a path's parameters by it.
export const read = <T extends string>(template: T, response: z.ZodType) =>
  ({
    method: "GET",
    template,
    response,
    retry: "safe",
  }) satisfies EndpointSpec;
export const create = <T extends string>(template: T, request: z.ZodType, response: z.ZodType) =>
  ({
    method: "POST",
    template,
    request,
    response,
    retry: "keyed-create",
  }) satisfies EndpointSpec;
export const update = <T extends string>(template: T, request: z.ZodType, response: z.ZodType) =>
  ({
    method: "PUT",
    template,
    request,
    response,
    retry: "safe",
  }) satisfies EndpointSpec;
export const remove = <T extends string>(template: T) =>
  ({
    method: "DELETE",
    template,
    response: MessageResponse,
    retry: "safe",
  }) satisfies EndpointSpec;
export const action = <T extends string>(template: T, response: z.ZodType, request?: z.ZodType) =>
  ({
    method: "POST",
    template,
    ...(request && { request }),
    response,
    retry: "one-shot",
  }) satisfies EndpointSpec;
