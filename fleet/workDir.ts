// The fleet's work directory (default `.txmail-fleet` beside the tenants file): Pulumi.yaml of the
// shard stacks' project, each shard stack's settings file (the Automation API writes
// Pulumi.<stack>.yaml there, e.g. a passphrase provider's salt: keep the directory with the tenants
// file) and the engine's log of each shard's last run. Pulumi.yaml is written before any worker
// starts, so parallel workers only read it.
import * as fs from "node:fs";
import * as path from "node:path";
import { type FleetOptions, UsageError } from "./options";

/** The work dir of a run: --work-dir, else `.txmail-fleet` beside the tenants file. */
export function workDirOf(opts: Pick<FleetOptions, "workDir">, tenantsFile: string): string {
  return opts.workDir ?? path.join(path.dirname(tenantsFile), ".txmail-fleet");
}

export function prepareWorkDir(dir: string, project: string): { logsDir: string } {
  fs.mkdirSync(path.join(dir, "logs"), { recursive: true });
  // The directory is meant to be committed with the tenants file; the logs are not.
  const ignore = path.join(dir, ".gitignore");
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, "logs/\n");
  const projectFile = path.join(dir, "Pulumi.yaml");
  if (fs.existsSync(projectFile)) {
    const name = /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(projectFile, "utf8"))?.[1];
    if (name !== project) {
      throw new UsageError(
        `--project: ${projectFile} belongs to project '${name ?? "?"}', not '${project}' (pass --project ${name ?? "…"} or another --work-dir)`,
      );
    }
  } else {
    fs.writeFileSync(
      projectFile,
      `name: ${project}\nruntime: nodejs\ndescription: Shard stacks of a txmail fleet (written by txmail-fleet)\n`,
    );
  }
  return { logsDir: path.join(dir, "logs") };
}

/**
 * The node_modules folder that holds pulumi-txmail, for the provider processes: they load the
 * implementation by package name (provider/kinds/lazyProvider.ts) and resolve it from their working
 * directory, the work dir, which need not lie under the project that installed the package.
 */
export function packageModulesDir(packageRoot: string): string | undefined {
  const parent = path.dirname(packageRoot);
  if (path.basename(parent) === "node_modules") return parent;
  const own = path.join(packageRoot, "node_modules");
  return fs.existsSync(path.join(own, "pulumi-txmail")) ? own : undefined;
}
