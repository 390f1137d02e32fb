// pulumi-txmail installed the way a user installs it: `npm install` of the packed package into a
// fresh TypeScript project that already depends on @pulumi/pulumi. The package declares Pulumi's SDK
// as a range (package.json), so npm must leave one copy — the user's — and the README's first
// example must run there. Tried here at the range's floor; the newest release in the range, installed
// by name from a registry, is the release rehearsal's (test/e2e/release/rehearsal.test.ts).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { controlClient, serviceObjects } from "../../support/control";
import { engineEnv, PASSPHRASE, pulumiCommand, REPO_ROOT } from "./harness";
import { readmeExample } from "./readme";
import { startService, type TestService } from "../../support/service";

const run = promisify(execFile);
jest.setTimeout(10 * 60_000);

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** The lowest @pulumi/pulumi the package accepts: the floor of its declared range (`^3.259.0`). */
const floor = /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies["@pulumi/pulumi"]!)?.[1];
/** The version the project itself is developed and fully tested with (package-lock.json). */
const locked = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as {
    version: string;
  }
).version;

/** Every `@pulumi/<name>/package.json` under `dir/node_modules`, at any depth, with its version. */
function copiesOf(dir: string, name: string): Array<{ at: string; version: string }> {
  const found: Array<{ at: string; version: string }> = [];
  const walk = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    const pkg = path.join(modules, "@pulumi", name, "package.json");
    if (fs.existsSync(pkg))
      found.push({
        at: path.relative(dir, path.dirname(pkg)),
        version: JSON.parse(fs.readFileSync(pkg, "utf8")).version,
      });
    for (const entry of fs.readdirSync(modules)) {
      const scoped = entry.startsWith("@")
        ? fs.readdirSync(path.join(modules, entry)).map((e) => `${entry}/${e}`)
        : [entry];
      for (const p of scoped) walk(path.join(modules, p, "node_modules"));
    }
  };
  walk(path.join(dir, "node_modules"));
  return found;
}

const npm = (cwd: string, args: string[]) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline"], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });

let svc: TestService;
let tarball: string;
const dirs: string[] = [];

beforeAll(async () => {
  svc = await startService();
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-pack-"));
  dirs.push(packDir);
  const { stdout } = await npm(REPO_ROOT, ["pack", "--pack-destination", packDir]);
  tarball = path.join(packDir, stdout.trim().split("\n").pop()!);
});

afterAll(async () => {
  await svc?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

it("declares @pulumi/pulumi as a caret range whose floor is below the locked version", () => {
  expect(floor).toBeDefined();
  expect(locked).not.toBe(floor);
  expect(manifest.dependencies["@pulumi/policy"]).toMatch(/^\^\d+\.\d+\.\d+$/);
});

describe.each([["the range's floor", floor!]])("a new TypeScript project on @pulumi/pulumi %s", (_label, version) => {
  let project: string;

  beforeAll(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-user-"));
    dirs.push(project);
    // What `pulumi new typescript` leaves, with the user's own Pulumi SDK pinned.
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "user-project",
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": version },
        devDependencies: {
          "@types/node": manifest.devDependencies["@types/node"],
          typescript: manifest.devDependencies.typescript,
        },
      }),
    );
    fs.copyFileSync(path.join(__dirname, "programs", "one", "tsconfig.json"), path.join(project, "tsconfig.json"));
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: user-project\nruntime: nodejs\n");
    fs.writeFileSync(path.join(project, "index.ts"), readmeExample());
    await npm(project, ["install"]);
    await npm(project, ["install", tarball]);
  });

  it("leaves exactly one copy of @pulumi/pulumi (the user's) and of @pulumi/policy", () => {
    expect(copiesOf(project, "pulumi")).toEqual([{ at: path.join("node_modules", "@pulumi", "pulumi"), version }]);
    expect(copiesOf(project, "policy")).toHaveLength(1);
  });

  it("runs the README example: up, then destroy with nothing left", async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-user-state-"));
    dirs.push(stateDir);
    const envVars = engineEnv(stateDir);
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: project },
      {
        pulumiCommand: await pulumiCommand(),
        envVars,
        secretsProvider: "passphrase",
        pulumiHome: envVars.PULUMI_HOME,
      },
    );
    expect(envVars.PULUMI_CONFIG_PASSPHRASE).toBe(PASSPHRASE);
    await stack.setAllConfig(svc.config());
    const before = serviceObjects(await controlClient(svc).dumpState()).length;

    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect((up.outputs.dnsRecords?.value as unknown[]).length).toBeGreaterThan(0);
    expect(serviceObjects(await controlClient(svc).dumpState()).length).toBeGreaterThan(before);

    await stack.destroy({ color: "never" });
    expect(serviceObjects(await controlClient(svc).dumpState())).toHaveLength(before);
  });
});
