import type { Endpoint } from "../context";
import { ok } from "./common";

export const ping: Record<string, Endpoint> = {
  "GET /v2/ping": { handler: () => ok({ message: "pong" }) },
};
