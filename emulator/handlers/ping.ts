import type { RouteSpec } from "../context";
import { ok } from "./common";

export const ping: Record<string, RouteSpec> = {
  "GET /v2/ping": { handler: () => ok({ message: "pong" }) },
};
