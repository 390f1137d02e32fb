// What the acceptance run works on, from the same environment the provider reads (TXMAIL_API_KEY,
// TXMAIL_ACCOUNT_ID, TXMAIL_BASE_URL), and the explicit confirmation it needs before it creates anything.
import { randomBytes } from "node:crypto";
import { PUBLIC_BASE_URL, Uuid } from "../provider/api";
import { FACES, type Face } from "../sdk/nodejs/internal/face";

export const CONFIRM_VARIABLE = "TXMAIL_ACCEPTANCE";
export const CONFIRM_VALUE = "i-understand-this-creates-objects";
/** Every run's objects start with this; the sweepers remove only what does. */
export const PREFIX = "txacc-";

export interface Settings {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  /** `txacc-<yyyymmdd>-<6 hex>`: this run's objects. */
  runPrefix: string;
  sweepOnly: boolean;
  faces: Face[];
  /** `read` walks create, preview and refresh only (the alternative-shape check); `full` every step. */
  steps: "full" | "read";
  reportDir: string;
}

export const USAGE = `usage: bash scripts/acceptance.sh [--sweep-only] [--face dynamic|native] [--steps full|read] [--report DIR]
  Runs every kind's lifecycle through the real Pulumi engine against the account the environment names:
    TXMAIL_API_KEY, TXMAIL_ACCOUNT_ID, TXMAIL_BASE_URL (default ${PUBLIC_BASE_URL})
  and needs ${CONFIRM_VARIABLE}=${CONFIRM_VALUE}.`;

export class UsageError extends Error {}

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  let sweepOnly = false;
  let faces: Face[] = [...FACES];
  let steps: Settings["steps"] = "full";
  let reportDir = "acceptance-report";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--sweep-only") sweepOnly = true;
    else if (a === "--face") {
      const f = value();
      if (!FACES.includes(f as Face)) throw new UsageError(`--face must be one of ${FACES.join(", ")}, got '${f}'`);
      faces = [f as Face];
    } else if (a === "--steps") {
      const s = value();
      if (s !== "full" && s !== "read") throw new UsageError(`--steps must be full or read, got '${s}'`);
      steps = s;
    } else if (a === "--report") reportDir = value();
    else throw new UsageError(`unknown argument ${a}`);
  }
  const apiKey = env.TXMAIL_API_KEY?.trim();
  const accountId = env.TXMAIL_ACCOUNT_ID?.trim();
  if (!apiKey) throw new UsageError("TXMAIL_API_KEY is not set: the API key of the account to run in");
  if (!accountId || !Uuid.safeParse(accountId).success)
    throw new UsageError("TXMAIL_ACCOUNT_ID must be the account's id (8-4-4-4-12 hexadecimal digits)");
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, "");
  return {
    baseUrl: env.TXMAIL_BASE_URL?.trim() || PUBLIC_BASE_URL,
    accountId,
    apiKey,
    runPrefix: `${PREFIX}${day}-${randomBytes(3).toString("hex")}`,
    sweepOnly,
    faces,
    steps,
    reportDir,
  };
}

/** What the run will do, printed before anything happens. */
export function plan(s: Settings): string {
  if (s.sweepOnly)
    return [
      `txmail acceptance: sweep only, in account ${s.accountId} at ${s.baseUrl}:`,
      `  deletes API keys labelled ${PREFIX}* and sub accounts named ${PREFIX}* (with everything inside them).`,
    ].join("\n");
  return [
    `txmail acceptance run ${s.runPrefix} in account ${s.accountId} at ${s.baseUrl}:`,
    `  1. sweeps what earlier runs left: API keys labelled ${PREFIX}*, sub accounts named ${PREFIX}* and their contents;`,
    `  2. creates the run's sub account ${s.runPrefix}-workspace and a key in it (${s.runPrefix}-runner);`,
    `  3. per face (${s.faces.join(", ")}), through the Pulumi engine: a sub account, a sub-account key and an API key`,
    `     in this account; a domain (mail.${s.runPrefix}-<face>.example.com), a route, a member`,
    `     (${s.runPrefix}-<face>-dev@example.com), a suppression and one object of every other managed kind`,
    `     (as its example declares it, named ${s.runPrefix}-<face>-…) in the run's sub account —`,
    `     ${s.steps === "full" ? "created, read, refreshed, updated, imported, replaced and destroyed" : "created, read, refreshed and destroyed"};`,
    `  4. deletes the run's sub account and writes ${s.reportDir}/contract-report.{md,json}.`,
    `  Nothing without the ${PREFIX} prefix is touched.`,
  ].join("\n");
}
