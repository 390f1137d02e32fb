// Input fields shared by several resources, with the rules the service enforces, so `pulumi
// preview` fails with the field and the rule instead of `pulumi up` failing half-way.
import { z } from "zod";
import { keysToCamel } from "../core/casing";
import { canonicalizeAllowList } from "../api/cidr";
import { scopeProblem } from "../api/scopes";

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

/** Any value; changing it replaces the resource (create-before-delete). */
export const Rotation = z
  .string()
  .optional()
  .describe("Change this value (e.g. a date) to rotate the key: a new key is created before the old one is deleted.");

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
