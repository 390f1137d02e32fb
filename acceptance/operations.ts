// The service's operations as the contract report groups them: method + path template, and the
// provider's own schema for a successful answer — the endpoint table's entries (provider/api/
// endpoints.ts), so the report says whether what the service sent parses with the schemas the
// provider reads it with.
import type { z } from "zod";
import { endpointOf } from "../provider/api";

export interface Operation {
  method: string;
  /** The path template, e.g. `/v2/accounts/{account_id}/routes/{route_id}`. */
  template: string;
  /** The schema of a 2xx body. */
  schema: z.ZodType;
}

/** The operation a request is (path without the query), or undefined for one the table does not know. */
export function operationOf(method: string, path: string): Operation | undefined {
  const endpoint = endpointOf(method, path);
  return endpoint && { method: endpoint.method, template: endpoint.template, schema: endpoint.response };
}
