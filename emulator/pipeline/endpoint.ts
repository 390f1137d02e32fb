// The routing stage: which endpoint a request is for (or its 404/405), counted per path template.
import { ENDPOINTS, type EndpointName } from "../../provider/api/endpoints";
import type { EmulatedEndpoints, Endpoint } from "../context";
import type { Counters } from "../counters";
import { EndpointTable, type Match } from "../http/endpointTable";
import type { Reply } from "../http/errors";

/** The routing table of the emulated endpoints (handlers/index.ts), at their table entries' method and template. */
export function endpointTable(endpoints: EmulatedEndpoints): EndpointTable<Endpoint> {
  const table = new EndpointTable<Endpoint>();
  for (const [name, endpoint] of Object.entries(endpoints) as [EndpointName, Endpoint][]) {
    const { method, template } = ENDPOINTS[name];
    table.add(method, template, endpoint);
  }
  return table;
}

export function findEndpoint(
  table: EndpointTable<Endpoint>,
  counters: Counters,
  method: string,
  path: string,
): Match<Endpoint> | { reply: Reply } {
  const m = table.match(method, path);
  if ("status" in m) {
    counters.count(method, "(unmatched)");
    if (m.status === 405) {
      return {
        reply: {
          status: 405,
          body: { message: `method ${method} not allowed` },
          headers: { allow: m.allow.join(", ") },
        },
      };
    }
    return { reply: { status: 404, body: { message: "not found" } } };
  }
  counters.count(method, m.template);
  return m;
}
