// Where a rotation's "now" comes from: this machine's clock, moved by TXMAIL_CLOCK_OFFSET_SECONDS.
//
// Why the local clock: diff decides whether a rotation is due at preview, and a preview must not
// cost a request per credential (a fleet of 1 000 tenants would pay 1 000 GETs for a no-op); every
// other time the provider reads (suppression expiry, domain verification waits) is the local clock
// too. The schedule is counted in hours and days, so skew between this machine and the service is
// immaterial; the instants it starts from (`rotatedAt`) are the service's own `created_at`.
// The offset is for a schedule looked at ahead of time ("what would rotate in 30 days":
// `TXMAIL_CLOCK_OFFSET_SECONDS=2592000 pulumi preview`) and for the emulator, whose clock tests
// advance through its control surface: they give the provider the same offset.
import { DURATION_RULE, durationMs } from "../../api/duration";

/** The instant rotations are decided at, in milliseconds since the epoch. */
export function rotationNow(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TXMAIL_CLOCK_OFFSET_SECONDS;
  if (raw === undefined || raw.trim() === "") return Date.now();
  const seconds = Number(raw);
  if (!Number.isFinite(seconds))
    throw new Error(`TXMAIL_CLOCK_OFFSET_SECONDS must be a number of seconds, got '${raw}'.`);
  return Date.now() + seconds * 1000;
}

/**
 * An early rotation: a credential on a schedule whose current key is at least this old is rotated
 * by this run, even if its schedule is not due (after an incident). `txmail-fleet rotate
 * --older-than <period>` sets it for the provider processes of its own runs only, and removes it
 * from every other fleet run's environment, so a fleet `up` never rotates early. A plain `pulumi up`
 * reads it too: setting it there is asking for the same early rotation.
 */
export const ROTATE_OLDER_THAN_ENV = "TXMAIL_ROTATE_OLDER_THAN";

/** The early-rotation period in milliseconds, or undefined when none is asked (the schedule's grammar). */
export function rotateOlderThanMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[ROTATE_OLDER_THAN_ENV];
  if (raw === undefined || raw.trim() === "") return undefined;
  const ms = durationMs(raw.trim());
  if (ms === undefined) throw new Error(`${ROTATE_OLDER_THAN_ENV} must be ${DURATION_RULE}, got '${raw}'.`);
  return ms;
}
