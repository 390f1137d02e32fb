// Request validation with the shared strict zod schemas: every problem becomes a 400 `{ message }`
// naming the field and the rule ("ip_allow_list[2]: …").
import type { z } from "zod";
import { badRequest } from "./http/errors";

export function fieldPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) {
    if (typeof p === "number") s += `[${p}]`;
    else s += s ? `.${String(p)}` : String(p);
  }
  return s;
}

export function issuesMessage(issues: readonly z.core.$ZodIssue[]): string {
  const parts: string[] = [];
  for (const i of issues.slice(0, 20)) {
    if (i.code === "unrecognized_keys") {
      for (const k of i.keys) parts.push(`${fieldPath([...i.path, k])}: unrecognized field`);
    } else {
      parts.push(`${fieldPath(i.path) || "body"}: ${i.message}`);
    }
  }
  return parts.join("; ");
}

export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("body: must be a JSON object");
  }
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(issuesMessage(r.error.issues));
  return r.data;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function uuidParam(name: string, v: string): string {
  if (!UUID_RE.test(v)) throw badRequest(`${name} must be a uuid`);
  return v;
}
