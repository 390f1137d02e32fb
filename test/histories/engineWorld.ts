// The engine depth of the history tester: the same commands run through the real Pulumi engine
// (the project's CLI, a file backend and a Pulumi home per stack in a temporary directory, the
// passphrase secrets provider), each step's program generated from the model's program as Pulumi
// YAML on the native plugin `txmail` — the cheapest real face: no TypeScript to compile, one plugin
// process per run. Faults go through the emulator's control, a kill is a SIGKILL of the CLI and
// every process of the stack's Pulumi home once the emulator has committed the run's n-th write
// (held by a delay-after fault, so the kill lands at that point and no other), and each stack's
// state is read back after every run with `pulumi stack export` into the entries the invariants
// read. The environment's changes and the clock are the fast depth's (world.ts).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { engineEnv } from "../../support/engineEnv";
import { runKilledAtWrite, killQuietly } from "../../support/killAtWrite";
import { processesOfHome, spawnBounded, type BoundedRun } from "../../support/processes";
import { PLUGIN_FILES, PLUGIN_VERSION } from "../../support/plugin";
import { TOOLS_DIR } from "../../support/root";
import type { StateDump } from "../../emulator/control";
import type { Props } from "../../provider/core/declaration";
import { KIND_MODELS, KINDS, type HKind, type PKind } from "./kinds";
import {
  type Entry,
  fixedOf,
  type PreviewReport,
  type ProgramResource,
  type RunOptions,
  type RunReport,
  type Stack,
  World,
} from "./world";

const TYPE_PREFIX = "txmail:index:";
/** A CLI run that takes longer than this is a hang to report (a history's runs take seconds). */
const RUN_TIMEOUT_MS = 5 * 60_000;

/** What the engine depth knows of a stack besides its state: its directories and environment. */
interface Place {
  program: string;
  stateDir: string;
  home: string;
  env: Record<string, string>;
  stateFile: string;
}

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  delete?: boolean;
  /** `<provider URN>::<provider id>`. */
  provider?: string;
  inputs?: Props;
  outputs?: Props;
}

interface Exported {
  deployment?: {
    resources?: ExportedResource[];
    pending_operations?: Array<{ type: string; resource: ExportedResource }>;
  };
}

/** The engine's JSON events (`--json`) this depth reads. */
interface EngineEvent {
  diagnosticEvent?: { message: string; severity: string; urn?: string };
  resOutputsEvent?: {
    metadata: { op: string; type: string; urn: string; new?: { id?: string }; old?: { id?: string } };
  };
  summaryEvent?: { result?: string };
}

/** A secret as `pulumi stack export --show-secrets` prints it, made plain; anything else as it is. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("4dabf18193072939515e22adb298388d" in o) {
      return typeof o.plaintext === "string" ? (JSON.parse(o.plaintext) as unknown) : o.value;
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

/**
 * The stack's program as Pulumi YAML: one resource per program resource, keyed `<Kind>-<name>` (YAML
 * keys are unique across kinds) with the logical name given, so its URN ends `txmail:index:<Kind>::<name>`.
 * Strings are double-quoted: a plain `2099-01-01T00:00:00.000Z` would be a YAML timestamp.
 */
export function programYaml(
  project: string,
  program: ProgramResource[],
  resolved: (inputs: Props) => Props = (i) => i,
  /** The plugin version every resource asks for (the `version` option), once the stack's plugin was upgraded. */
  version?: string,
): string {
  const resources: Record<string, unknown> = {};
  for (const r of program) {
    const options = {
      ...(r.replaceOnChanges ? { replaceOnChanges: r.replaceOnChanges } : {}),
      // Earlier names, as URNs (the YAML host passes alias strings as URNs).
      ...(r.aliases?.length ? { aliases: r.aliases.map((n) => urnIn(project, r.kind, n)) } : {}),
      ...(r.importId !== undefined ? { import: r.importId } : {}),
      ...(version !== undefined ? { version } : {}),
    };
    resources[`${r.kind}-${r.name}`] = {
      type: `${TYPE_PREFIX}${r.kind}`,
      name: r.name,
      properties: resolved(r.inputs),
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
  }
  return YAML.stringify(
    { name: project, runtime: "yaml", resources },
    { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" },
  );
}

/** The URN of `kind` `name` in a stack `dev` of `project` (the YAML program's resources). */
const urnIn = (project: string, kind: PKind, name: string) =>
  `urn:pulumi:dev::${project}::${TYPE_PREFIX}${kind}::${name}`;

export class EngineWorld extends World {
  private root = "";
  /** Each stack's directories; the clone's (C) made when a history first uses it. */
  private readonly places: (Place | undefined)[] = [];
  /** Each stack's plugin version once upgraded (the program's resources ask for it). */
  private readonly pluginVersions: (string | undefined)[] = [];
  /** Each stack's native provider's salt (its inputs in state), as last read back. */
  private readonly providerSalts: (string | undefined)[] = [];
  /** Each stack's pending creates after its last run (URN and inputs). */
  private readonly pendingCreates: Set<string>[] = [];
  /** Each stack's program as last written. */
  private readonly programs: ProgramResource[][] = [];

  static async start(stackCount = 2): Promise<EngineWorld> {
    const { emu, control, client } = await World.service();
    const world = new EngineWorld(emu, control, client, stackCount);
    try {
      await world.begin();
      await world.init();
    } catch (err) {
      await world.close();
      throw err;
    }
    return world;
  }

  urnOf(stack: Stack, kind: PKind, name: string): string {
    return urnIn(stack.project, kind, name);
  }

  childUrnOf(stack: Stack, kind: HKind, name: string): string {
    return `urn:pulumi:dev::${stack.project}::${TYPE_PREFIX}Tenant$${TYPE_PREFIX}${kind}::${name}`;
  }

  private async init(): Promise<void> {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-histories-"));
    // The clone (the last stack) when it is first used: most histories never clone.
    for (const s of this.stacks.slice(0, -1)) await this.placeOf(s);
  }

  /** The stack's program and state directories, its Pulumi home and environment, and its stack, made once. */
  private async placeOf(s: Stack): Promise<Place> {
    const made = this.places[s.index];
    if (made) return made;
    {
      const dir = path.join(this.root, s.letter);
      const program = path.join(dir, "program");
      const stateDir = path.join(dir, "state");
      fs.mkdirSync(program, { recursive: true });
      fs.mkdirSync(stateDir, { recursive: true });
      const env = engineEnv(stateDir, {
        // The plugin reads its connection from the environment the engine passes on: no
        // configuration to set, and the key is never in the stack's files.
        TXMAIL_API_KEY: this.emu.apiKey,
        TXMAIL_ACCOUNT_ID: this.emu.accountId,
        TXMAIL_BASE_URL: this.emu.baseUrl,
        TXMAIL_PACE_DIR: "off",
        // As the fast depth: a busy account waited out for 10 minutes would be a hang, not a run.
        TXMAIL_BUSY_WAIT_SECONDS: "5",
        TXMAIL_REQUEST_TIMEOUT_SECONDS: "10",
      });
      const place: Place = {
        program,
        stateDir,
        home: env.PULUMI_HOME!,
        env,
        stateFile: path.join(stateDir, ".pulumi", "stacks", s.project, "dev.json"),
      };
      this.places[s.index] = place;
      fs.writeFileSync(path.join(program, "Pulumi.yaml"), programYaml(s.project, []));
      const init = await this.cli(s, ["stack", "init", "dev"]);
      if (init.run.code !== 0) throw new Error(`pulumi stack init failed: ${init.run.stderr}`);
      return place;
    }
  }

  override async close(): Promise<void> {
    for (const p of this.places) for (const pid of p ? processesOfHome(p.home) : []) killQuietly(pid);
    if (this.root) fs.rmSync(this.root, { recursive: true, force: true });
    await super.close();
  }

  override said(): string {
    const states = this.places.map((p) =>
      p && fs.existsSync(p.stateFile) ? fs.readFileSync(p.stateFile, "utf8") : "",
    );
    return [super.said(), ...states].join("\n");
  }

  /**
   * The CLI on `stack`'s program, bounded. With `killAt`, a delay-after fault holds the run's n-th
   * write (POST, PUT or PATCH) once the service has committed it; when it fires, the CLI and every
   * process of the stack's Pulumi home (the engine starts each plugin in a process group of its
   * own) are SIGKILLed (support/killAtWrite.ts), and the lock the file backend keeps is released
   * with `pulumi cancel`.
   */
  private async cli(stack: Stack, args: string[], killAt?: number): Promise<{ run: BoundedRun; killed: boolean }> {
    const place = this.places[stack.index]!;
    const start = () =>
      spawnBounded(path.join(TOOLS_DIR, "bin", "pulumi"), [...args, "--color", "never"], {
        cwd: place.program,
        env: { ...process.env, ...place.env },
        what: `pulumi ${args.join(" ")} (stack ${stack.letter})`,
        timeoutMs: RUN_TIMEOUT_MS,
      });
    if (killAt === undefined) return { run: await start().done, killed: false };
    const { run, killed } = await runKilledAtWrite(
      this.control,
      { method: "POST,PUT,PATCH", path: "/v2/*", nth: killAt },
      place.home,
      start,
    );
    if (killed) {
      let cancel = await this.cli(stack, ["cancel", "--yes"]);
      if (cancel.run.code !== 0 && /failed to load checkpoint/.test(cancel.run.stderr)) {
        // Seen once in 50 histories (seed 5903, #2): the engine killed while it saved left a
        // checkpoint it cannot read. The previous one is in the `.bak` the file backend keeps; a
        // user would import it (`pulumi stack import`). Restored so, the history goes on, with this
        // said in its report: to the invariants it is one more lost write.
        this.log.push(
          `--- ${stack.letter}: the kill tore the checkpoint (${cancel.run.stderr.trim()});\n` +
            `state files: ${stateFiles(place.stateDir).join(", ")}; restored from its .bak`,
        );
        process.stdout.write(`histories: a kill tore ${stack.letter}'s checkpoint; restored from its .bak\n`);
        fs.copyFileSync(`${place.stateFile}.bak`, place.stateFile);
        // The file backend keeps each file's attributes beside it (`.attrs`); seen torn alone too
        // (seed 7303 #28: `dev.json` whole, `dev.json.attrs` 0 B, the load still EOF): the .bak's go with it.
        if (fs.existsSync(`${place.stateFile}.bak.attrs`))
          fs.copyFileSync(`${place.stateFile}.bak.attrs`, `${place.stateFile}.attrs`);
        cancel = await this.cli(stack, ["cancel", "--yes"]);
      }
      if (cancel.run.code !== 0) throw new Error(`pulumi cancel after a kill failed: ${cancel.run.stderr}`);
    }
    return { run, killed };
  }

  /** One engine run: the program written, an optional fault, the CLI, the state read back. */
  private async run(stack: Stack, what: string, args: string[], opts: RunOptions): Promise<RunReport> {
    await this.placeOf(stack);
    const before = await this.control.dumpState();
    await this.control.clearFaults();
    if (opts.fault) await this.control.injectFault(opts.fault);
    const { run, killed } = await this.cli(stack, [...args, "--yes", "--skip-preview", "--json"], opts.killAt);
    await this.control.clearFaults();
    const events = parseEvents(run.stdout);
    const creates: string[] = [];
    const updates: string[] = [];
    const deletes: string[] = [];
    const lines: string[] = [];
    for (const e of events) {
      const d = e.diagnosticEvent;
      if (d && d.severity !== "debug") lines.push(`${d.severity}: ${d.message.trim()}`);
      const m = e.resOutputsEvent?.metadata;
      if (!m || !m.type.startsWith(TYPE_PREFIX)) continue;
      const kind = m.type.slice(TYPE_PREFIX.length);
      if (m.op === "create" || m.op === "create-replacement") creates.push(`${kind} ${m.new?.id ?? m.urn}`);
      else if (m.op === "update") updates.push(`${kind} ${m.new?.id ?? m.urn}`);
      else if (m.op === "delete" || m.op === "delete-replaced") deletes.push(`${kind} ${m.old?.id ?? m.urn}`);
    }
    const failed = killed || run.code !== 0;
    const said = [...lines, run.stderr.trim()].filter(Boolean).join("\n");
    const pending = await this.readState(stack);
    const after = await this.control.dumpState();
    if (killed) this.noteLost(stack, before, after, pending);
    this.pendingCreates[stack.index] = new Set(pending.map(pendingKey));
    this.settle(stack, what, said, failed, killed, after);
    return {
      stack: stack.index,
      what,
      error: failed && !killed ? lines.filter((l) => l.startsWith("error")).join("\n") || run.stderr : undefined,
      killed,
      text: said,
      creates,
      updates,
      deletes,
      before,
      after,
    };
  }

  /**
   * The create a kill lost, as the fast depth records it: the engine's pending create names its URN
   * and inputs, the service the object it made (live, named by no state, new since the run began).
   */
  private noteLost(stack: Stack, before: StateDump, after: StateDump, pending: ExportedResource[]): void {
    // The engine keeps a killed run's pending creates until a refresh clears them: the new one.
    const earlier = this.pendingCreates[stack.index] ?? new Set<string>();
    const creating = pending.find((r) => r.type.startsWith(TYPE_PREFIX) && !earlier.has(pendingKey(r)));
    if (!creating) return;
    const kind = creating.type.slice(TYPE_PREFIX.length) as HKind;
    const existed = this.liveObjects(before);
    const named = this.named();
    const made = [...this.liveObjects(after)].filter(
      (k) => k.startsWith(`${kind} `) && !existed.has(k) && !named.has(k),
    );
    if (made.length !== 1) return;
    this.lost.push({
      stack: stack.index,
      urn: creating.urn,
      kind,
      id: made[0]!.slice(kind.length + 1),
      fixed: fixedOf(kind, creating.inputs ?? {}),
      epoch: this.epoch,
      secretEpoch: this.secretEpoch,
    });
  }

  /** `pulumi stack export --show-secrets` into the stack's entries; returns the creates left pending. */
  private async readState(stack: Stack): Promise<ExportedResource[]> {
    const { run } = await this.cli(stack, ["stack", "export", "--show-secrets"]);
    if (run.code !== 0) throw new Error(`pulumi stack export failed: ${run.stderr}`);
    const exported = JSON.parse(run.stdout) as Exported;
    // In the order the fast depth keeps (commands pick "object #n of the states" by it): resources
    // still there where they were, new ones after them.
    const fresh = new Map<string, Entry>();
    stack.pendingDelete.length = 0;
    for (const r of exported.deployment?.resources ?? []) {
      if (r.custom === false || !r.type.startsWith(TYPE_PREFIX)) continue;
      const kind = r.type.slice(TYPE_PREFIX.length) as HKind;
      if (!(KINDS as readonly string[]).includes(kind)) continue;
      const entry: Entry = {
        urn: r.urn,
        kind,
        id: r.id ?? "",
        inputs: plain(r.inputs ?? {}) as Props,
        outs: plain(r.outputs ?? {}) as Props,
      };
      for (const f of KIND_MODELS[kind].secrets) {
        const v = entry.outs[f];
        if (typeof v === "string" && v.length >= 8) this.secrets.add(v);
      }
      if (r.delete) stack.pendingDelete.push(entry);
      else fresh.set(r.urn, entry);
    }
    // The salt of the provider the stack's resources use now (an upgrade leaves the old one until the run ends).
    const resources = exported.deployment?.resources ?? [];
    const inUse = new Set(resources.map((r) => r.provider?.split("::").slice(0, -1).join("::")).filter(Boolean));
    const provider = resources.find((r) => r.type === "pulumi:providers:txmail" && !r.delete && inUse.has(r.urn));
    const salt = provider && (plain(provider.inputs ?? {}) as Props).__stackSalt;
    if (typeof salt === "string") this.providerSalts[stack.index] = salt;
    const kept = [...stack.state.keys()].filter((urn) => fresh.has(urn));
    // New ones in program order, as the fast depth creates them (the engine's order is its own:
    // resources that do not depend on each other are created in parallel).
    const inProgram = (this.programs[stack.index] ?? []).map((r) => this.urnOf(stack, r.kind, r.name));
    const rank = (urn: string) => (inProgram.includes(urn) ? inProgram.indexOf(urn) : inProgram.length);
    const added = [...fresh.keys()].filter((urn) => !stack.state.has(urn)).sort((a, b) => rank(a) - rank(b));
    stack.state.clear();
    for (const urn of [...kept, ...added]) stack.state.set(urn, fresh.get(urn)!);
    return (exported.deployment?.pending_operations ?? [])
      .filter((o) => o.type === "creating")
      .map((o) => ({ ...o.resource, inputs: plain(o.resource.inputs ?? {}) as Props }));
  }

  private writeProgram(stack: Stack, program: ProgramResource[]): void {
    this.programs[stack.index] = program;
    fs.writeFileSync(
      path.join(this.places[stack.index]!.program, "Pulumi.yaml"),
      programYaml(stack.project, program, (i) => this.resolved(i), this.pluginVersions[stack.index]),
    );
  }

  /**
   * The next plugin version installed in the stack's Pulumi home (the same build under a new
   * version, as \`pulumi plugin install\` would leave an upgrade) and asked for by every resource of
   * the program from its next run: the engine's default provider then gets a new name.
   */
  override async upgradePlugin(stack: Stack): Promise<void> {
    await super.upgradePlugin(stack);
    const place = await this.placeOf(stack);
    const [major, minor, patch] = (this.pluginVersions[stack.index] ?? PLUGIN_VERSION).split(".").map(Number);
    const next = `${major}.${minor}.${patch! + 1}`;
    const dir = path.join(place.home, "plugins", `resource-txmail-v${next}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(PLUGIN_FILES.script, path.join(dir, "pulumi-resource-txmail"));
    this.pluginVersions[stack.index] = next;
  }

  /**
   * `pulumi preview --json`: one JSON document whose steps name each resource's operation; the
   * plugin's check and diff run, nothing is written (the service's counters say so to the caller).
   */
  async preview(stack: Stack, program: ProgramResource[], target?: string): Promise<PreviewReport> {
    await this.placeOf(stack);
    this.writeProgram(stack, program);
    const { run } = await this.cli(stack, ["preview", "--json", ...(target ? ["--target", target] : [])]);
    let doc: { steps?: { op: string; urn: string }[]; diagnostics?: { message: string; severity: string }[] } = {};
    try {
      doc = JSON.parse(run.stdout) as typeof doc;
    } catch {
      // not a preview's document: the error below says why
    }
    const changes = (doc.steps ?? [])
      .filter((st) => st.op !== "same" && st.urn.includes(`::${TYPE_PREFIX}`))
      .map((st) => `${st.op} ${st.urn.split("::").slice(-2).join("::").slice(TYPE_PREFIX.length)}`);
    const lines = (doc.diagnostics ?? [])
      .filter((d) => d.severity !== "debug")
      .map((d) => `${d.severity}: ${d.message.trim()}`);
    const said = [...lines, run.stderr.trim()].filter(Boolean).join("\n");
    const error =
      run.code !== 0 ? lines.filter((l) => l.startsWith("error")).join("\n") || run.stderr || "failed" : undefined;
    this.log.push(`--- ${stack.letter}: preview${error ? " (failed)" : ""}\n${said}`);
    return { stack: stack.index, changes, error, text: said };
  }

  /**
   * `txmail:stackSalt: <owner's provider salt>` in the owner's and the clone's `Pulumi.dev.yaml`, as
   * `pulumi config set` writes it and git carries it to the clone (written directly: two CLI runs fewer).
   */
  async pinSalt(owner: Stack, clone: Stack): Promise<void> {
    // Before the owner's first up there is no salt in its state: a pin of some earlier value, as likely.
    const salt = this.providerSalts[owner.index] ?? "0123456789abcdef0123456789abcdef";
    for (const s of [owner, clone]) {
      const place = await this.placeOf(s);
      fs.writeFileSync(
        path.join(place.program, "Pulumi.dev.yaml"),
        YAML.stringify({ config: { "txmail:stackSalt": salt } }),
      );
      this.pinnedSalt.add(s.index);
    }
  }

  async up(stack: Stack, program: ProgramResource[], opts: RunOptions = {}, replace?: string): Promise<RunReport> {
    await this.placeOf(stack); // the clone's, on its first run
    this.writeProgram(stack, program);
    const what = `${stack.letter}: up${replace ? ` --replace ${replace}` : ""}${opts.target ? ` --target ${opts.target}` : ""}`;
    const args = ["up", ...(replace ? ["--replace", replace] : []), ...(opts.target ? ["--target", opts.target] : [])];
    return this.run(stack, what, args, opts);
  }

  refresh(stack: Stack, opts: RunOptions = {}): Promise<RunReport> {
    this.drifted.delete(stack.index);
    // A killed run's pending creates are dropped, as the fast depth's state never records them: the
    // next up's create meets the killed one's idempotency key.
    return this.run(stack, `${stack.letter}: refresh`, ["refresh", "--clear-pending-creates"], opts);
  }

  destroy(stack: Stack, opts: RunOptions = {}): Promise<RunReport> {
    return this.run(stack, `${stack.letter}: destroy`, ["destroy"], opts);
  }
}

/** The state directory's files (not the Pulumi home) with their sizes, for a report. */
function stateFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== ".pulumi-home") walk(p);
      } else out.push(`${path.relative(dir, p)} (${fs.statSync(p).size} B)`);
    }
  };
  walk(dir);
  return out;
}

const pendingKey = (r: ExportedResource) => `${r.urn} ${JSON.stringify(r.inputs ?? {})}`;

function parseEvents(stdout: string): EngineEvent[] {
  const out: EngineEvent[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      out.push(JSON.parse(line) as EngineEvent);
    } catch {
      // not an event line
    }
  }
  return out;
}
