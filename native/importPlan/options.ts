// Command line and environment of txmail-import-plan. The API key comes only from the environment
// (TXMAIL_API_KEY): a key on the command line would be visible to every user of the machine (`ps`)
// and kept in shell histories.
import { connectionFieldProblem } from "../../provider/core/connection";
import { PUBLIC_BASE_URL } from "../../provider/api/paths";
import type { ProviderRef } from "./plan";

export const USAGE = `usage: TXMAIL_API_KEY=<key> txmail-import-plan [--account <id>] [--base-url <url>] [--provider <name>=<urn>] > import.json
  --account   the (sub) account whose objects to list (default: TXMAIL_ACCOUNT_ID)
  --base-url  the service (default: TXMAIL_BASE_URL, else ${PUBLIC_BASE_URL})
  --provider  an explicit txmail provider in the stack for that account, e.g. the one holding a sub
              account's key: acme=urn:pulumi:dev::tenants::pulumi:providers:txmail::acme
Then: pulumi import --file import.json`;

export interface PlanOptions {
  apiKey: string;
  accountId: string;
  baseUrl: string;
  provider?: ProviderRef;
}

/** Options, or a message naming the flag (or variable) and its rule. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): PlanOptions | { problem: string } {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--help" || flag === "-h") return { problem: "help" };
    if (!["--account", "--base-url", "--provider"].includes(flag)) return { problem: `unknown argument '${flag}'` };
    const value = argv[++i];
    if (value === undefined || value === "") return { problem: `${flag} needs a value` };
    flags[flag] = value;
  }
  const apiKey = env.TXMAIL_API_KEY ?? "";
  if (apiKey === "") return { problem: "TXMAIL_API_KEY: not set; export the API key of the account to list" };
  const accountId = flags["--account"] ?? env.TXMAIL_ACCOUNT_ID ?? "";
  const accountFrom = flags["--account"] !== undefined ? "--account" : "TXMAIL_ACCOUNT_ID";
  if (accountId === "") return { problem: "--account: not set (nor TXMAIL_ACCOUNT_ID)" };
  const baseUrl = flags["--base-url"] ?? (env.TXMAIL_BASE_URL || PUBLIC_BASE_URL);
  const baseUrlFrom = flags["--base-url"] !== undefined ? "--base-url" : "TXMAIL_BASE_URL";
  for (const [where, field, value] of [
    ["TXMAIL_API_KEY", "apiKey", apiKey],
    [accountFrom, "accountId", accountId],
    [baseUrlFrom, "baseUrl", baseUrl],
  ] as const) {
    const problem = connectionFieldProblem(field, value);
    if (problem) return { problem: `${where}: ${problem}` };
  }
  let provider: ProviderRef | undefined;
  if (flags["--provider"] !== undefined) {
    const text = flags["--provider"];
    const eq = text.indexOf("=");
    const name = text.slice(0, Math.max(eq, 0));
    const urn = text.slice(eq + 1);
    if (eq < 1 || !/^urn:pulumi:[^:]+::[^:]+::(.+\$)?pulumi:providers:txmail::.+$/.test(urn)) {
      return {
        problem:
          `--provider: must be <name>=<urn of a txmail provider> (its URN ends in ::pulumi:providers:txmail::<name>; ` +
          `\`pulumi stack --show-urns\` lists it), got '${text}'`,
      };
    }
    provider = { name, urn };
  }
  return { apiKey, accountId, baseUrl: baseUrl.replace(/\/+$/, ""), provider };
}
