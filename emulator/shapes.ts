// The public description's alternative response shapes, behind a switch (`--shapes public`,
// EmulatorOptions.shapes). The emulator's default stays the service contract (docs/contract);
// with the switch it answers what the service's public OpenAPI description also allows, so the
// provider's tolerance of both is proven against a real server:
// - an API key's `scopes` as objects `{id, scope, domain_id, created_at, updated_at}`, not strings;
// - "" instead of null for every unset field of a record (a suppression's `domain` for every
//   domain, its `reason` when none was given, a key's `last_used_at` before first use, …).
// Applied where a reply is serialised (http/respond.ts `writeReply`), to service routes only.
import { createHash } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** `contract`: the service contract (default). `public`: the public description's alternatives. */
export type Shapes = "contract" | "public";
export const SHAPES: readonly Shapes[] = ["contract", "public"];

const shaped = new WeakSet<ServerResponse>();

/** With `public`, marks the server's replies to service routes (not the control surface) for the public shapes. */
export function applyShapes(server: Server, shapes: Shapes | undefined): void {
  if (shapes !== "public") return;
  // Before the request pipeline's listener: the mark must be there when the reply is written.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith("/_emulator")) shaped.add(res);
  });
}

/** The body to send on `res`: reshaped when `res` was marked, else `body` itself. */
export function shapeFor(res: ServerResponse, body: unknown): unknown {
  return shaped.has(res) ? publicShape(body) : body;
}

/** A stable id for a key's scope entry (the description gives each an id). */
const scopeId = (keyId: string, scope: string) => {
  const h = createHash("sha256").update(`${keyId} ${scope}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** `value` in the public description's shapes (a new value; the stored records are untouched). */
export function publicShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(publicShape);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = v === null ? "" : publicShape(v);
  if (out.object === "api_key" && Array.isArray(out.scopes)) {
    const at = out.created_at;
    out.scopes = (out.scopes as unknown[]).map((scope) =>
      typeof scope !== "string"
        ? scope
        : { id: scopeId(String(out.id), scope), scope, domain_id: "", created_at: at, updated_at: at },
    );
  }
  return out;
}
