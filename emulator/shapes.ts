// The service's public description of its responses, behind a switch (`--shapes public`,
// EmulatorOptions.shapes). The emulator's default stays the service contract (docs/contract); with
// the switch it answers what a client written from the public description expects, exactly
// (docs/contract/shapes.md, held by provider/api/publicShapes.ts's strict schema):
// - an API key's `scopes` as objects `{id, created_at, updated_at, api_key_id, scope, domain_id}`,
//   `domain_id` the domain's id for a `{domain}` scope and null for one over every domain;
// - `null` for an unset nullable field, as in the contract (a generated client parses `""` as a
//   date-time or an integer and fails);
// - "" for the unset fields the public description types as plain strings (a suppression's `domain`
//   and `reason`: PUBLIC_BLANK_WHEN_UNSET), which the contract gives as null.
// Applied where a reply is serialised (http/respond.ts `writeReply`), to service routes only.
import { createHash } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { PUBLIC_BLANK_WHEN_UNSET, type PublicScope } from "../provider/api/publicShapes";
import { parseScope } from "../provider/api/scopes";

/** `contract`: the service contract (default). `public`: the public description's shapes. */
export type Shapes = "contract" | "public";
export const SHAPES: readonly Shapes[] = ["contract", "public"];

/** The id of an account's domain by name, when it has one (a `{domain}` scope names a domain). */
export type DomainIdOf = (accountId: string, domain: string) => string | undefined;

const shaped = new WeakMap<ServerResponse, DomainIdOf>();

/** With `public`, marks the server's replies to service routes (not the control surface) for the public shapes. */
export function applyShapes(server: Server, shapes: Shapes | undefined, domainIdOf: DomainIdOf): void {
  if (shapes !== "public") return;
  // Before the request pipeline's listener: the mark must be there when the reply is written.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith("/_emulator")) shaped.set(res, domainIdOf);
  });
}

/** The body to send on `res`: reshaped when `res` was marked, else `body` itself. */
export function shapeFor(res: ServerResponse, body: unknown): unknown {
  const domainIdOf = shaped.get(res);
  return domainIdOf ? publicShape(body, domainIdOf) : body;
}

/** A stable id for a key's scope entry (the description gives each an id). */
const scopeId = (keyId: string, scope: string) => {
  const h = createHash("sha256").update(`${keyId} ${scope}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** `value` in the public description's shapes (a new value; the stored records are untouched). */
export function publicShape(value: unknown, domainIdOf: DomainIdOf): unknown {
  if (Array.isArray(value)) return value.map((item) => publicShape(item, domainIdOf));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = publicShape(v, domainIdOf);
  const blankWhenUnset = typeof out.object === "string" ? PUBLIC_BLANK_WHEN_UNSET[out.object] : undefined;
  for (const field of blankWhenUnset ?? []) if (out[field] === null) out[field] = "";
  if (out.object === "api_key" && Array.isArray(out.scopes)) {
    // A scope entry is made with its key (a changed list replaces the entries): the key's creation time.
    const [keyId, accountId, at] = [String(out.id), String(out.account_id), String(out.created_at)];
    out.scopes = (out.scopes as unknown[]).map((scope): unknown => {
      if (typeof scope !== "string") return scope;
      const domain = parseScope(scope)?.domain;
      const entry: PublicScope = {
        id: scopeId(keyId, scope),
        created_at: at,
        updated_at: at,
        api_key_id: keyId,
        scope,
        domain_id: (domain && domainIdOf(accountId, domain)) ?? null,
      };
      return entry;
    });
  }
  return out;
}
