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

/** The instant rotations are decided at, in milliseconds since the epoch. */
export function rotationNow(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TXMAIL_CLOCK_OFFSET_SECONDS;
  if (raw === undefined || raw.trim() === "") return Date.now();
  const seconds = Number(raw);
  if (!Number.isFinite(seconds))
    throw new Error(`TXMAIL_CLOCK_OFFSET_SECONDS must be a number of seconds, got '${raw}'.`);
  return Date.now() + seconds * 1000;
}
