// How much of the account's rate limit this machine may use, and with whom on it the pace is shared,
// from the provider process's environment.
//
// On one machine every process shares one pace per account by default (provider/client/pace/machinePace.ts),
// so a fleet's shards together stay under the limit. Runners on different machines cannot see each
// other's pace: a CI matrix of N runners gives each `TXMAIL_RATE_SHARE=1/N` (or any fraction that sums
// to at most 1 over the runners), and each machine then paces at that fraction of 97 rps / burst 195.
import { DEFAULT_RATE_LIMIT, type RateLimitOptions, type TxmailClientOptions } from "../client";

/** "0.25", "1/4", "1": a fraction in (0, 1]. */
const FRACTION = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(\d+(?:\.\d+)?)\s*)?$/;

/** The client's pace for this machine's share of the account (undefined = the whole limit). */
export function rateShareFromEnv(env: NodeJS.ProcessEnv): Partial<RateLimitOptions> | undefined {
  const raw = env.TXMAIL_RATE_SHARE;
  if (raw === undefined || raw.trim() === "") return undefined;
  const m = FRACTION.exec(raw);
  const share = m ? Number(m[1]) / (m[2] === undefined ? 1 : Number(m[2])) : NaN;
  if (!(share > 0 && share <= 1)) {
    throw new Error(
      `TXMAIL_RATE_SHARE must be this machine's fraction of the account's rate limit, in (0, 1] ` +
        `(e.g. 1/4 on each of 4 CI runners), got '${raw}'.`,
    );
  }
  if (share === 1) return undefined;
  return {
    ratePerSecond: DEFAULT_RATE_LIMIT.ratePerSecond * share,
    burst: Math.max(1, Math.floor(DEFAULT_RATE_LIMIT.burst * share)),
  };
}

/** TXMAIL_PACE_DIR: where the machine's shared pace lives; `off` paces each process alone. */
export function paceDirFromEnv(env: NodeJS.ProcessEnv): TxmailClientOptions["paceDir"] {
  const raw = env.TXMAIL_PACE_DIR?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (raw === "off") return false;
  return raw;
}
