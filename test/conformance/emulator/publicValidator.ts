// A validating wrapper around an emulator's requests: every answer is held against the strict schema
// of the service's public shapes (provider/api/publicShapes.ts) — the 2xx body of its endpoint, or
// the error body — and every departure is recorded, by endpoint and field, instead of thrown, so a
// run counts them all (docs/contract/shapes.md).
import { publicResponseFor } from "../../../provider/api/publicShapes";
import { endpointKey, endpointOf } from "../../../provider/api";
import type { Emu, ReqOpts, Res } from "./helpers";

export interface Violation {
  /** `METHOD /template` of the endpoint (or the raw path when no endpoint matches). */
  endpoint: string;
  status: number;
  /** The field's path in the body with list positions as `[]`, e.g. `data[].scopes[].api_key_id`. */
  field: string;
  message: string;
}

export interface ValidatingEmu {
  req<T = any>(method: string, path: string, opts?: ReqOpts): Promise<Res<T>>;
  readonly violations: Violation[];
  /** Requests made through the wrapper, by endpoint (`METHOD /template`). */
  readonly requests: Map<string, number>;
}

const fieldPath = (path: PropertyKey[]) =>
  path
    .map((p) => (typeof p === "number" ? "[]" : `.${String(p)}`))
    .join("")
    .replace(/^\./, "") || "(body)";

export function validating(emu: Emu): ValidatingEmu {
  const violations: Violation[] = [];
  const requests = new Map<string, number>();
  return {
    violations,
    requests,
    async req<T>(method: string, path: string, opts?: ReqOpts): Promise<Res<T>> {
      const res = await emu.req<T>(method, path, opts);
      const endpoint = endpointOf(method, path);
      const name = endpoint ? endpointKey(endpoint) : `${method} ${path}`;
      requests.set(name, (requests.get(name) ?? 0) + 1);
      const schema = publicResponseFor(method, path, res.status);
      if (!schema) {
        violations.push({ endpoint: name, status: res.status, field: "(body)", message: "no endpoint has this path" });
        return res;
      }
      const parsed = schema.safeParse(res.body);
      if (!parsed.success) {
        const seen = new Set<string>(); // one violation per field of an answer, however many rules it breaks
        for (const issue of parsed.error.issues) {
          // An unknown property is reported on the object; name it, so it counts as its own field.
          const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
          for (const key of keys) {
            const at = key === undefined ? issue.path : [...issue.path, key];
            const where = at.join("/");
            if (seen.has(where)) continue;
            seen.add(where);
            violations.push({ endpoint: name, status: res.status, field: fieldPath(at), message: issue.message });
          }
        }
      }
      return res;
    },
  };
}

/** Violations counted by field (the last name of its path, `scopes[].api_key_id` kept whole), most first. */
export function byField(violations: Violation[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const v of violations) {
    const field = v.field.replace(/^data\[\]\./, "");
    counts.set(field, (counts.get(field) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
