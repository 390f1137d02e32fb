// The commands of a history, as plain data (so a shrunk history prints as data a regression test
// can replay), and fast-check's model-based commands over them. The model is each stack's program;
// the real side (world.ts) is the service and each stack's state. Every command checks the
// invariants (invariants.ts) after it runs.
import fc from "fast-check";
import type { FaultSpec } from "../../emulator/control";
import { afterCleanUp, invariants } from "./invariants";
import { KIND_MODELS, KINDS, NAMES, type HKind } from "./kinds";
import type { ProgramResource, RunOptions, RunReport, World } from "./world";

export type FaultMode = "error-before" | "error-after" | "drop-before" | "drop-after" | "rate-limit";
export type FaultMethod = "POST" | "PUT" | "DELETE" | "GET";
export interface FaultData {
  mode: FaultMode;
  method: FaultMethod;
}

export type Cmd =
  | { t: "add"; s: number; kind: HKind; name: string; v: number }
  | { t: "remove"; s: number; pick: number }
  | { t: "rename"; s: number; pick: number; to: string }
  | { t: "update"; s: number; pick: number; i: number }
  | { t: "replaceField"; s: number; pick: number; i: number }
  | { t: "optional"; s: number; pick: number; i: number }
  | { t: "replaceOnChanges"; s: number; pick: number }
  | { t: "up"; s: number; fault?: FaultData; kill?: number }
  | { t: "upReplace"; s: number; pick: number }
  | { t: "refresh"; s: number; fault?: FaultData }
  | { t: "destroy"; s: number; fault?: FaultData }
  | { t: "oobDelete"; pick: number }
  | { t: "oobCreate"; kind: "Route" | "Domain" | "Suppression"; name: string; v: number }
  | { t: "oobChange"; pick: number }
  | { t: "clock"; past: "24h" | "5min" | "30d" };

export interface Model {
  programs: ProgramResource[][];
}

export interface Settings {
  /** Let both stacks (and the environment) use the same natural keys (Domain, Suppression, AccountMember). */
  naturalKeys: boolean;
  stacks: number;
  /** Command types left out (to look past a known defect for the next one). */
  without: string[];
}

export const settingsFromEnv = (env = process.env): Settings => ({
  naturalKeys: env.HISTORIES_NATURAL_KEYS !== "0",
  stacks: 2,
  without: (env.HISTORIES_WITHOUT ?? "").split(",").filter(Boolean),
});

const letter = (s: number) => "AB"[s]!;

/** The resource `pick` names in a program (any index: modulo its length). */
const picked = (program: ProgramResource[], pick: number) => program[pick % program.length];

/** A readable step. */
export function describe(c: Cmd): string {
  const fault = (f?: FaultData) => (f ? ` [fault: ${f.mode} on the first ${f.method}]` : "");
  switch (c.t) {
    case "add":
      return `${letter(c.s)}: program adds ${c.kind} '${c.name}' (values #${c.v})`;
    case "remove":
      return `${letter(c.s)}: program removes resource #${c.pick}`;
    case "rename":
      return `${letter(c.s)}: program renames resource #${c.pick} to '${c.to}' (new URN, no alias)`;
    case "update":
      return `${letter(c.s)}: program changes an updatable field of resource #${c.pick} (#${c.i})`;
    case "replaceField":
      return `${letter(c.s)}: program changes a replacing field of resource #${c.pick} (#${c.i})`;
    case "optional":
      return `${letter(c.s)}: program adds or drops an optional field of resource #${c.pick} (#${c.i})`;
    case "replaceOnChanges":
      return `${letter(c.s)}: program toggles replaceOnChanges: ["*"] on resource #${c.pick}`;
    case "up":
      return `${letter(c.s)}: pulumi up${fault(c.fault)}${c.kill ? ` [killed after write #${c.kill}]` : ""}`;
    case "upReplace":
      return `${letter(c.s)}: pulumi up --replace <resource #${c.pick}>`;
    case "refresh":
      return `${letter(c.s)}: pulumi refresh${fault(c.fault)}`;
    case "destroy":
      return `${letter(c.s)}: pulumi destroy${fault(c.fault)}`;
    case "oobDelete":
      return `environment: deletes object #${c.pick} of the states out of band`;
    case "oobCreate":
      return `environment: creates ${c.kind} '${c.name}' (values #${c.v}) out of band`;
    case "oobChange":
      return `environment: changes object #${c.pick} of the states out of band`;
    case "clock":
      return `environment: the clock moves past ${c.past}`;
  }
}

/** A resource's program inputs, with each stack's own natural keys unless they are to meet. */
function baseInputs(settings: Settings, s: number, kind: HKind, name: string, v: number) {
  const owner = KIND_MODELS[kind].naturalKey && !settings.naturalKeys ? `${letter(s).toLowerCase()}${name}` : name;
  return KIND_MODELS[kind].base(owner, v);
}

/** The program after an edit, or undefined when the edit does not apply to it. */
export function edited(settings: Settings, program: ProgramResource[], c: Cmd): ProgramResource[] | undefined {
  const at = (pick: number) => program.indexOf(picked(program, pick)!);
  const replaced = (i: number, r: ProgramResource) => program.map((x, j) => (j === i ? r : x));
  switch (c.t) {
    case "add":
      if (program.some((r) => r.kind === c.kind && r.name === c.name)) return undefined;
      return [...program, { kind: c.kind, name: c.name, inputs: baseInputs(settings, c.s, c.kind, c.name, c.v) }];
    case "remove":
      if (program.length === 0) return undefined;
      return program.filter((_, j) => j !== at(c.pick));
    case "rename": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      if (program.some((x) => x.kind === r.kind && x.name === c.to)) return undefined;
      return replaced(at(c.pick), { ...r, name: c.to });
    }
    case "update":
    case "replaceField": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      const edits = c.t === "update" ? KIND_MODELS[r.kind].updatable : KIND_MODELS[r.kind].replacing;
      if (edits.length === 0) return undefined;
      return replaced(at(c.pick), { ...r, inputs: edits[c.i % edits.length]!.apply(r.inputs) });
    }
    case "optional": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      const opts = KIND_MODELS[r.kind].optional;
      const o = opts[c.i % opts.length]!;
      const inputs = { ...r.inputs };
      if (o.field in inputs) delete inputs[o.field];
      else inputs[o.field] = o.value;
      return replaced(at(c.pick), { ...r, inputs });
    }
    case "replaceOnChanges": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      return replaced(at(c.pick), { ...r, replaceOnChanges: r.replaceOnChanges ? undefined : ["*"] });
    }
    default:
      return program;
  }
}

const faultSpec = (f: FaultData): FaultSpec => ({
  method: f.method,
  path: "/v2/*",
  kind: f.mode,
  count: 1,
  ...(f.mode === "rate-limit" ? { retryAfter: 0 } : {}),
});

/** Runs one command on the world and returns the invariant violations after it. */
export async function runCmd(settings: Settings, model: Model, w: World, c: Cmd): Promise<string[]> {
  const stack = "s" in c ? w.stacks[c.s]! : undefined;
  const reports: RunReport[] = [];
  const problems: string[] = [];
  const opts = (f?: FaultData, kill?: number): RunOptions => ({ fault: f && faultSpec(f), killAt: kill });
  switch (c.t) {
    case "up": {
      const program = model.programs[c.s]!;
      const r = await w.up(stack!, program, opts(c.fault, c.kill));
      reports.push(r);
      if (!r.error && !r.killed) {
        problems.push(...afterCleanUp(w, c.s, program, w.liveObjects(r.after)));
        // Known (docs/guide/development.md#histories): an update applies the fields the program
        // changed, and drift it then sees in the others is applied by the next up. Strict with
        // HISTORIES_STRICT_DRIFT=1.
        const drift = w.drifted.has(c.s) && process.env.HISTORIES_STRICT_DRIFT !== "1";
        if (!c.fault && !drift) {
          // After a clean up, a second up is all no-ops.
          const again = await w.up(stack!, program);
          reports.push(again);
          const acted = [...again.creates, ...again.updates, ...again.deletes];
          if (again.error || acted.length > 0)
            problems.push(
              `the up after a clean up was not all no-ops: ${again.error ?? ""} creates [${again.creates}] updates [${again.updates}] deletes [${again.deletes}]`,
            );
        }
      }
      break;
    }
    case "upReplace": {
      const program = model.programs[c.s]!;
      const r = picked(program, c.pick);
      if (!r) return [];
      // HISTORIES_NATURAL_KEYS=0 leaves natural-key kinds out of targeted replacements.
      if (KIND_MODELS[r.kind].naturalKey && !settings.naturalKeys) return [];
      reports.push(await w.up(stack!, program, {}, w.urnOf(stack!, r.kind, r.name)));
      break;
    }
    case "refresh":
      reports.push(await w.refresh(stack!, opts(c.fault)));
      break;
    case "destroy":
      reports.push(await w.destroy(stack!, opts(c.fault)));
      break;
    case "oobDelete":
    case "oobChange": {
      // With HISTORIES_NATURAL_KEYS=0, objects addressed by a natural key are not deleted out of
      // band (a delete by name, address or user then meets whatever holds it now).
      const entries = w.stacks
        .flatMap((s) => [...s.state.values()])
        .filter((e) => settings.naturalKeys || c.t !== "oobDelete" || !KIND_MODELS[e.kind].naturalKey);
      const e = entries[c.pick % Math.max(1, entries.length)];
      if (!e) return invariants(w, w.liveObjects(await w.control.dumpState()));
      await w.environment(c.t === "oobDelete" ? "delete" : "change", e);
      break;
    }
    case "oobCreate": {
      if (c.kind !== "Route" && !settings.naturalKeys) return [];
      await w.environmentCreate(c.kind, KIND_MODELS[c.kind].base(c.name, c.v));
      break;
    }
    case "clock":
      // 30 days: a rotation schedule's rotation falls due (and any overlap ends).
      await w.advance(
        c.past === "30d" ? 30 * 24 * 3600_000 + 60_000 : c.past === "24h" ? 24 * 3600_000 + 60_000 : 5 * 60_000 + 1_000,
      );
      break;
    default: {
      const next = edited(settings, model.programs[c.s]!, c);
      if (next) model.programs[c.s] = next;
      return [];
    }
  }
  const live = w.liveObjects(await w.control.dumpState());
  for (const r of reports) problems.push(...invariants(w, live, r));
  if (reports.length === 0) problems.push(...invariants(w, live));
  return [...new Set(problems)];
}

/** A failed invariant: the message carries the step and what broke. */
export class Violation extends Error {}

class HistoryCommand implements fc.AsyncCommand<Model, World> {
  constructor(
    readonly c: Cmd,
    private readonly settings: Settings,
  ) {}
  check(m: Readonly<Model>): boolean {
    if ("s" in this.c && this.c.s >= this.settings.stacks) return false;
    switch (this.c.t) {
      case "add":
      case "remove":
      case "rename":
      case "update":
      case "replaceField":
      case "optional":
      case "replaceOnChanges":
        return edited(this.settings, m.programs[this.c.s]!, this.c) !== undefined;
      case "upReplace":
        return m.programs[this.c.s]!.length > 0;
      default:
        return true;
    }
  }
  async run(m: Model, w: World): Promise<void> {
    w.steps.push(this.c);
    if (process.env.HISTORIES_TRACE) process.stdout.write(`${new Date().toISOString()} ${describe(this.c)}\n`);
    const problems = await runCmd(this.settings, m, w, this.c);
    if (problems.length > 0) throw new Violation(`after "${describe(this.c)}":\n  - ${problems.join("\n  - ")}`);
  }
  toString(): string {
    return JSON.stringify(this.c);
  }
}

const stackArb = (settings: Settings) => fc.integer({ min: 0, max: settings.stacks - 1 });
const pick = fc.nat({ max: 7 });
const faultArb: fc.Arbitrary<FaultData> = fc.record({
  mode: fc.constantFrom<FaultMode>("error-before", "error-after", "drop-before", "drop-after", "rate-limit"),
  method: fc.constantFrom<FaultMethod>("POST", "PUT", "DELETE", "GET"),
});

/** Every command, as data, with its type (HISTORIES_WITHOUT leaves types out). */
export function cmdArbitraries(settings: Settings): [Cmd["t"], fc.Arbitrary<Cmd>][] {
  const s = stackArb(settings);
  const name = fc.constantFrom(...NAMES);
  const v = fc.nat({ max: 2 });
  return [
    ["add", fc.record({ t: fc.constant("add" as const), s, kind: fc.constantFrom(...KINDS), name, v })],
    ["add", fc.record({ t: fc.constant("add" as const), s, kind: fc.constantFrom(...KINDS), name, v })],
    ["remove", fc.record({ t: fc.constant("remove" as const), s, pick })],
    ["rename", fc.record({ t: fc.constant("rename" as const), s, pick, to: name })],
    ["update", fc.record({ t: fc.constant("update" as const), s, pick, i: fc.nat({ max: 3 }) })],
    ["replaceField", fc.record({ t: fc.constant("replaceField" as const), s, pick, i: fc.nat({ max: 3 }) })],
    ["optional", fc.record({ t: fc.constant("optional" as const), s, pick, i: fc.nat({ max: 3 }) })],
    ["replaceOnChanges", fc.record({ t: fc.constant("replaceOnChanges" as const), s, pick })],
    ["up", fc.record({ t: fc.constant("up" as const), s })],
    ["up", fc.record({ t: fc.constant("up" as const), s })],
    ["up", fc.record({ t: fc.constant("up" as const), s, fault: faultArb })],
    ["up", fc.record({ t: fc.constant("up" as const), s, kill: fc.integer({ min: 1, max: 3 }) })],
    ["upReplace", fc.record({ t: fc.constant("upReplace" as const), s, pick })],
    ["refresh", fc.record({ t: fc.constant("refresh" as const), s }, { requiredKeys: ["t", "s"] })],
    ["destroy", fc.record({ t: fc.constant("destroy" as const), s })],
    ["destroy", fc.record({ t: fc.constant("destroy" as const), s, fault: faultArb })],
    ["oobDelete", fc.record({ t: fc.constant("oobDelete" as const), pick })],
    [
      "oobCreate",
      fc.record({
        t: fc.constant("oobCreate" as const),
        kind: fc.constantFrom("Route" as const, "Domain" as const, "Suppression" as const),
        name,
        v,
      }),
    ],
    ["oobChange", fc.record({ t: fc.constant("oobChange" as const), pick })],
    [
      "clock",
      fc.record({
        t: fc.constant("clock" as const),
        past: fc.constantFrom("24h" as const, "5min" as const, "30d" as const),
      }),
    ],
  ];
}

/** How often each type is drawn, relative to the others: histories need programs and runs most. */
const WEIGHTS: Record<Cmd["t"], number> = {
  add: 4,
  remove: 1,
  rename: 1,
  update: 2,
  replaceField: 1,
  optional: 2,
  replaceOnChanges: 1,
  up: 2,
  upReplace: 1,
  refresh: 1,
  destroy: 1,
  oobDelete: 1,
  oobCreate: 1,
  oobChange: 1,
  clock: 1,
};

/** fast-check's commands over the data. */
export function historyCommands(settings: Settings, maxCommands = 20) {
  const arbs = cmdArbitraries(settings).filter(([t]) => !settings.without.includes(t));
  const weighted = fc.oneof(
    ...arbs.map(([t, a]) => ({ arbitrary: a.map((c) => new HistoryCommand(c, settings)), weight: WEIGHTS[t] })),
  );
  return fc.commands([weighted], { maxCommands, size: "medium" });
}

export const commandOf = (settings: Settings, c: Cmd) => new HistoryCommand(c, settings);
