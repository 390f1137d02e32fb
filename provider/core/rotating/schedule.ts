// A credential's rotation schedule, `rotation: { every, overlap }`: how often a new credential is
// made and how long the one it succeeds stays live. Parsed here (its periods' grammar is
// provider/api/duration.ts, shared with the policy pack); the legacy form, a string whose change
// replaces the credential (0.1.x), is told apart from it by `isSchedule`.
import { z } from "zod";
import { DURATION_RULE, durationMs } from "../../api/duration";

export { durationMs };

const Duration = (what: string) =>
  z
    .string()
    .refine((v) => durationMs(v) !== undefined, `must be ${DURATION_RULE}`)
    .describe(what);

export const RotationSchedule = z
  .strictObject({
    every: Duration("How often a new credential is made, e.g. `30d` or `720h`."),
    overlap: Duration(
      "How long the previous credential stays live after a rotation, e.g. `7d`: senders pick up the new " +
        "one meanwhile. Shorter than `every`.",
    ),
  })
  .superRefine((s, ctx) => {
    const every = durationMs(s.every);
    const overlap = durationMs(s.overlap);
    if (every !== undefined && overlap !== undefined && overlap >= every)
      ctx.addIssue({
        code: "custom",
        path: ["overlap"],
        message: `must be shorter than every (${s.every}): at most two credentials are live at once`,
      });
  })
  .describe("A rotation schedule: a new credential every `every`, the previous one revoked `overlap` later.");

export type Schedule = { every: string; overlap: string };

/** The structured form (an object), as opposed to the legacy replace trigger (a string). */
export function isSchedule(value: unknown): value is Schedule {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "every" in value;
}

/** The schedule's periods in milliseconds (its input was checked: both parse). */
export function periods(s: Schedule): { everyMs: number; overlapMs: number } {
  return { everyMs: durationMs(s.every) ?? Infinity, overlapMs: durationMs(s.overlap) ?? 0 };
}
