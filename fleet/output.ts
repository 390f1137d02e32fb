// `txmail-fleet output --tenant NAME`: one tenant's outputs from its shard stack — its summary and
// its credentials (keys, SMTP passwords, signing secrets: what a platform team hands the tenant) —
// as one JSON object on stdout, for people and for `jq`. The credentials stay "[secret]" unless
// --show-secrets, exactly as `pulumi stack output` masks them: the fleet never decrypts what it does
// not print.
import { execFile } from "node:child_process";

export class OutputError extends Error {
  override readonly name = "OutputError";
}

export interface TenantOutputs {
  tenant: string;
  shard: string;
  summary: unknown;
  /** The tenant's credentials, "[secret]" while masked; null for a shard last run before they were recorded. */
  credentials: unknown;
}

export async function tenantOutputs(o: {
  tenant: string;
  stackName: string;
  workDir: string;
  showSecrets: boolean;
}): Promise<TenantOutputs> {
  const args = ["stack", "output", "--stack", o.stackName, "--json", ...(o.showSecrets ? ["--show-secrets"] : [])];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile("pulumi", args, { cwd: o.workDir, maxBuffer: 512 * 1024 * 1024 }, (err, out, stderr) => {
      if (!err) return resolve(out);
      const reason = stderr.split("\n").find((l) => l.trim()) ?? err.message;
      reject(new OutputError(`${o.stackName}: ${reason.trim()}`));
    }),
  );
  const outputs = JSON.parse(stdout) as Record<string, unknown>;
  const summary = own(outputs.summary, o.tenant);
  if (summary === undefined) {
    throw new OutputError(
      `'${o.tenant}' has no outputs in ${o.stackName} yet: run 'txmail-fleet up --tenant ${o.tenant}' first`,
    );
  }
  // Masked, the whole credentials map is one "[secret]"; shown, it is keyed by tenant.
  const credentials =
    typeof outputs.credentials === "string" ? outputs.credentials : own(outputs.credentials, o.tenant);
  return { tenant: o.tenant, shard: o.stackName, summary, credentials: credentials ?? null };
}

/** A tenant's entry of an output map; own keys only (a tenant may be called `constructor`). */
function own(map: unknown, key: string): unknown {
  return typeof map === "object" && map !== null && Object.hasOwn(map, key)
    ? (map as Record<string, unknown>)[key]
    : undefined;
}
