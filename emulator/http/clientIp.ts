// The caller's address, as the IP allow list sees it.
import type { IncomingMessage } from "node:http";
import { normalizeIp } from "../allowList";

/** The socket's peer, or (when told to trust a proxy in front) the first X-Forwarded-For entry. */
export function clientIp(req: IncomingMessage, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const xff = req.headers["x-forwarded-for"];
    const first = (Array.isArray(xff) ? xff[0] : xff)?.split(",")[0]?.trim();
    if (first) return normalizeIp(first);
  }
  return normalizeIp(req.socket.remoteAddress ?? "");
}
