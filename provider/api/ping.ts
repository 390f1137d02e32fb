// The service's health check: no kind, one endpoint.
import { MessageResponse } from "./common";
import { read } from "./endpoint";

export const pingEndpoints = {
  ping: read("/v2/ping", MessageResponse),
} as const;
