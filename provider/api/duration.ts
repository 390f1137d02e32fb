// A period as a rotation schedule writes it (`every`, `overlap`): a whole number of days or hours,
// `30d` or `720h`. One grammar for the provider, which refuses anything else when it checks the
// inputs, and for the policy pack, which reads the same inputs before the provider does: the pack
// never passes a period the provider then refuses, nor flags one it accepts.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const DURATION = /^([1-9]\d{0,5})([dh])$/;

/** What a period must be, for error messages. */
export const DURATION_RULE = "a whole number of days or hours, such as 30d or 12h";

/** Milliseconds of a period `<n>d` or `<n>h`; undefined when the value is none. */
export function durationMs(value: unknown): number | undefined {
  const m = typeof value === "string" ? DURATION.exec(value) : null;
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === "d" ? DAY_MS : HOUR_MS);
}
