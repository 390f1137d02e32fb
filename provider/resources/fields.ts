// Input fields shared by several resources, with the rules the service enforces, so `pulumi
// preview` fails with the field and the rule instead of `pulumi up` failing half-way.
import { z } from "zod";
import { keysToCamel } from "../core/casing";
import { canonicalizeAllowList } from "../api/cidr";
import { scopeProblem } from "../api/scopes";
import { RotationSchedule } from "../core/rotating/schedule";

export const KeyLabel = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .describe("Label shown in the service's console, 1–255 characters. Updated in place.");

/** Scopes: each known or a well-formed `{domain}` template; sorted and de-duplicated (order carries no meaning). */
export const Scopes = z
  .array(z.string())
  .min(1, "at least one scope is required")
  .superRefine((scopes, ctx) => {
    scopes.forEach((scope, i) => {
      const problem = scopeProblem(scope);
      if (problem) ctx.addIssue({ code: "custom", path: [i], message: problem });
    });
  })
  .transform((scopes) => [...new Set(scopes)].sort())
  .describe("Scopes such as `messages:send:all` or `routes:write:{domain}`. Updated in place.");

/**
 * IP allow list, canonicalised and de-duplicated here so state and diffs show the service's form
 * and a re-spelled equal list is not a change. Every bad entry is reported, with its index.
 */
export const AllowList = z
  .array(z.string())
  .default([])
  .transform((entries, ctx) => {
    const result = canonicalizeAllowList(entries);
    for (const p of result.problems) {
      ctx.addIssue({ code: "custom", path: p.index === undefined ? [] : [p.index], message: p.message });
    }
    return result.canonical;
  })
  .describe(
    "CIDR blocks or bare addresses allowed to use the key (empty = no restriction). Canonicalised and " +
      "de-duplicated; allow-all prefixes (`0.0.0.0/0`, `::/0` in any spelling) and > 100 entries are rejected.",
  );

/**
 * A rotation schedule `{ every, overlap }` (core/rotating), or the legacy trigger: any string, whose
 * change replaces the key (create-before-delete), as 0.1.x stacks use it.
 */
export const Rotation = z
  .union([z.string(), RotationSchedule])
  .optional()
  .describe(
    'Rotate the key on a schedule: `{ every: "30d", overlap: "7d" }` — a `pulumi up` after `every` makes a ' +
      "new key and keeps the previous one live for `overlap` (outputs `previousSecretKey`, `nextRotationAt`, " +
      "`previousRevokeAt`), the first `pulumi up` after that revokes it. A change of the schedule makes no key. " +
      "Deprecated form: a string (e.g. a date) whose change replaces the key at once, the old one deleted in the same run.",
  );

/** Key records → outputs, with scopes in the same canonical order as the inputs. */
export function keyOutputs(record: Record<string, unknown>): Record<string, unknown> {
  const out = keysToCamel(record);
  if (Array.isArray(out.scopes)) out.scopes = [...new Set(out.scopes as string[])].sort();
  return out;
}

/**
 * Webhooks and SMTP credentials: `scoped` needs at least one domain; `global` takes none (the
 * service would ignore them and every refresh would show a difference).
 */
export function scopedDomains(p: Record<string, unknown>): { property: string; reason: string }[] {
  const domains = Array.isArray(p.domains) ? p.domains : [];
  if (p.scope === "scoped" && domains.length === 0) {
    return [{ property: "domains", reason: "domains: must list at least one domain when scope is 'scoped'" }];
  }
  if (p.scope === "global" && domains.length > 0) {
    return [
      {
        property: "domains",
        reason: "domains: must be empty when scope is 'global' (set scope: 'scoped' to restrict to domains)",
      },
    ];
  }
  return [];
}
