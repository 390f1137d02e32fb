// One "shard" process for machinePace.emulator.test.ts: at START_AT (ms since the epoch) it sends
// REQUESTS pings through the provider's client, built as the provider builds it (TXMAIL_RATE_SHARE,
// TXMAIL_PACE_DIR from the environment), CONCURRENCY at a time, and prints one JSON line with how long
// that took, how long each of its lanes waited on the client's pace, and how many 429s it met. The API key comes from the environment and is never printed.
import { createClient, type TxmailApiError } from "../../../provider/client";
import { systemClock } from "../../../provider/client/clock";
import { clientTuningFromEnv } from "../../../provider/core/clientApi";

async function main(): Promise<void> {
  const env = process.env;
  const requests = Number(env.REQUESTS);
  const concurrency = Number(env.CONCURRENCY);
  // The time the client chose to wait (its pace, and any 429's back-off), apart from the time a
  // loaded machine takes to run it: what each sleep of the system clock asked for, summed. Wrapped
  // in place, since only the system clock's pace is shared through the pace file.
  let sleptMs = 0;
  const sleep = systemClock.sleep.bind(systemClock);
  systemClock.sleep = (ms, signal) => {
    sleptMs += Math.max(0, ms);
    return sleep(ms, signal);
  };
  const client = createClient({
    apiKey: env.TXMAIL_API_KEY!,
    accountId: env.TXMAIL_ACCOUNT_ID,
    baseUrl: env.TXMAIL_BASE_URL,
    ...clientTuningFromEnv(env),
    logger: (e) => {
      if (e.status === 429) rateLimited++;
    },
  });
  let rateLimited = 0;
  let errors = 0;
  await new Promise((r) => setTimeout(r, Math.max(0, Number(env.START_AT) - Date.now())));
  const t0 = Date.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests) {
      next++;
      await client.ping().catch((e: TxmailApiError) => {
        errors++;
        process.stderr.write(`${e.message}\n`);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const pace = client.pace;
  process.stdout.write(
    JSON.stringify({
      ms: Date.now() - t0,
      waitedPerLaneMs: sleptMs / concurrency,
      rateLimited,
      errors,
      sharedBy: pace?.sharedBy,
      ceiling: pace?.ceilingPerSecond,
    }) + "\n",
  );
  process.exit(0);
}

void main();
