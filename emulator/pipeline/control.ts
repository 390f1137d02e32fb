// The control surface gate: /_emulator/… answers only when the surface is on and the request
// carries its token (compared in constant time); otherwise it does not exist (404) or refuses (401).
import { timingSafeEqual } from "node:crypto";
import type { Reply } from "../http/errors";
import type { ParsedRequest } from "../http/request";

export interface ControlSurface {
  token: string;
  answer(method: string, path: string, query: URLSearchParams, raw: Buffer): Reply;
}

export const isControlPath = (path: string): boolean => path === "/_emulator" || path.startsWith("/_emulator/");

export function answerControl(surface: ControlSurface | undefined, request: ParsedRequest): Reply {
  if (!surface) return { status: 404, body: { message: "not found" } };
  const given = request.headers["x-emulator-control"];
  const a = Buffer.from(typeof given === "string" ? given : "");
  const b = Buffer.from(surface.token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    return { status: 401, body: { message: "missing or wrong X-Emulator-Control token" } };
  }
  return surface.answer(request.method, request.path, request.query, request.raw);
}
