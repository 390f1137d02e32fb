// Sub-account usage (docs/contract/endpoints/sub-accounts.md#usage-response). The emulator's pooled invoice is
// volume-based: USD 0.001 per reception (an accepted message, one per recipient) in the current
// billing period (the calendar month, UTC, of the emulator clock). Allocation is proportional, so
// each allocated_cost is reception_count × 0.001 and the parts add up to the total.
import type { Ctx } from "../context";
import type { AccountData } from "../records";
import { ok } from "./common";

export const PRICE_PER_RECEPTION = 0.001;
const cost = (n: number) => Math.round(n * PRICE_PER_RECEPTION * 1e6) / 1e6;

export function billingPeriod(now: number): { start: number; end: number } {
  const d = new Date(now);
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

export function usage(ctx: Ctx) {
  const { objects, receptions } = ctx.svc;
  const { start, end } = billingPeriod(ctx.now);
  const count = (id: string) => receptions.count(id, start, end);
  const parentCount = count(ctx.account.id);
  const subs = objects.all<AccountData>("account", ctx.account.id);
  const active = subs
    .filter((s) => s.data.status !== "deleted")
    .map((s) => ({ account_id: s.id, name: s.data.name, reception_count: count(s.id) }));
  const removed = subs
    .filter((s) => s.data.status === "deleted" && (s.data.deleted_ms ?? 0) >= start)
    .reduce((n, s) => n + count(s.id), 0);
  const total = parentCount + active.reduce((n, s) => n + s.reception_count, 0) + removed;
  return ok({
    billing_period: { start: new Date(start).toISOString(), end: new Date(end).toISOString() },
    currency: "usd",
    allocation_method: "proportional",
    allocation_note:
      "allocated_cost is a proportional share (by message volume) of the parent account's pooled invoice for the period, not standalone pricing",
    parent: { account_id: ctx.account.id, reception_count: parentCount, allocated_cost: cost(parentCount) },
    sub_accounts: active.map((s) => ({ ...s, allocated_cost: cost(s.reception_count) })),
    removed_sub_accounts: { reception_count: removed, allocated_cost: cost(removed) },
    total: { reception_count: total, allocated_cost: cost(total) },
  });
}
