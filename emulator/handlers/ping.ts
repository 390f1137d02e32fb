import type { EmulatedEndpoints } from "../context";
import { ok } from "./common";

export const ping: EmulatedEndpoints = {
  ping: { handler: () => ok({ message: "pong" }) },
};
