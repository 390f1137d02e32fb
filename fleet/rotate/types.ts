// What `txmail-fleet rotate` knows of each credential on a schedule: read from its shard's state
// before the run (plan.ts), told by the shard's worker after it (a RotationOutcome), shown as the
// table and the JSON report (report.ts). Times, counts and names only: never a secret, never an id.
import type { Cause, Work } from "../../provider/core/rotating/due";

/** One credential on a schedule, as its shard's state holds it before the run. */
export interface PlannedCredential {
  tenant: string;
  /** The shard stack (`shard-001`). */
  shard: string;
  /** The resource's name in the stack (`acme-bootstrap`). */
  resource: string;
  urn: string;
  /** The last part of its type token (`SubAccountApiKey`). */
  kind: string;
  /** What its next up does, if anything, and why. */
  due?: { work: Work; cause?: Cause };
  rotations: number;
  hasPrevious: boolean;
  rotatedAt?: string;
  nextRotationAt?: string;
  previousRevokeAt?: string;
}

/** A targeted credential's state after its shard's run (from the engine's events, in the worker). */
export interface RotationOutcome {
  urn: string;
  rotations: number;
  hasPrevious: boolean;
  rotatedAt?: string;
  nextRotationAt?: string;
  previousRevokeAt?: string;
}

/**
 * What the run did to a credential: a new key made (an older previous revoked with it), the previous
 * revoked, nothing (not due), or the work due left undone: its shard failed, or was not run
 * (interrupted).
 */
export type RotationAction = "rotated" | "previous revoked" | "not due" | "failed" | "not run";

/** One row of the report (`--json`'s `credentials`). */
export interface RotatedCredential {
  tenant: string;
  shard: string;
  resource: string;
  kind: string;
  action: RotationAction;
  /** Why it was rotated: its schedule, `--older-than`, or its current key gone (absent otherwise). */
  cause: "schedule" | "older than" | "gone" | null;
  rotatedAt: string | null;
  nextRotationAt: string | null;
  previousRevokeAt: string | null;
}

/** `txmail-fleet rotate --json`: the whole report (docs/guide/fleets.md#rotating-credentials). */
export interface RotateReport {
  command: "rotate";
  /** The instant the run decided at (the local clock, moved by TXMAIL_CLOCK_OFFSET_SECONDS). */
  now: string;
  olderThan: string | null;
  /** The selected shards that hold credentials on a schedule; those that ran (something was due); those that failed. */
  shards: { read: number; ran: string[]; failed: Array<{ shard: string; error: string }>; notRun: string[] };
  counts: Record<"rotated" | "previousRevoked" | "notDue" | "failed" | "notRun", number>;
  credentials: RotatedCredential[];
  /** 0: everything due was done; 1: a shard failed or was not run. */
  exitCode: number;
}
