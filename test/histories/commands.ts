// The commands of a history, as plain data (so a shrunk history prints as data a regression test
// can replay), and fast-check's model-based commands over them. The model is each stack's program;
// the real side (world.ts) is the service and each stack's state. Every command checks the
// invariants (invariants.ts) after it runs.
import fc from "fast-check";
import type { FaultSpec } from "../../emulator/control";
import { deepEqual } from "../../provider/core/canonicalJson";
import { afterCleanUp, invariants } from "./invariants";
import { KIND_MODELS, NAMES, type PKind, PROGRAM_KINDS, PROGRAM_MODELS, type HKind } from "./kinds";
import {
  type ProgramResource,
  replacingFields,
  type RunOptions,
  type RunReport,
  stackLetter,
  type World,
} from "./world";

export type FaultMode = "error-before" | "error-after" | "drop-before" | "drop-after" | "rate-limit";
export type FaultMethod = "POST" | "PUT" | "DELETE" | "GET";
export interface FaultData {
  mode: FaultMode;
  method: FaultMethod;
}

export type Cmd =
  | { t: "add"; s: number; kind: PKind; name: string; v: number }
  | { t: "remove"; s: number; pick: number }
  | { t: "rename"; s: number; pick: number; to: string }
  | { t: "renameAlias"; s: number; pick: number; to: string }
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
  | { t: "clock"; past: "24h" | "5min" | "30d" }
  | { t: "preview"; s: number }
  | { t: "import"; s: number; pick: number; name: string }
  | { t: "clone"; pin?: boolean }
  | { t: "upgrade"; s: number };

/** The clone of A's project (world.ts): the stack after the history's `settings.stacks`. */
export const cloneOf = (settings: Settings) => settings.stacks;

export interface Model {
  programs: ProgramResource[][];
  /** A's project was cloned: the clone (stack C) has A's program as it was then. */
  cloned?: boolean;
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

const letter = stackLetter;

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
    case "renameAlias":
      return `${letter(c.s)}: program renames resource #${c.pick} to '${c.to}' with an alias of its old name; pulumi up`;
    case "preview":
      return `${letter(c.s)}: pulumi preview`;
    case "import":
      return `${letter(c.s)}: program imports object #${c.pick} of those made out of band as '${c.name}' (the import option), pulumi up`;
    case "clone":
      return (
        `environment: A's project is cloned as C (same stack name and program, its own backend, same account)` +
        `${c.pin ? ", A's salt pinned in its committed txmail:stackSalt" : ""}; C: pulumi up`
      );
    case "upgrade":
      return `${letter(c.s)}: the txmail plugin is upgraded (the next version; the default provider renamed)`;
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
function baseInputs(settings: Settings, s: number, kind: PKind, name: string, v: number) {
  const owner = PROGRAM_MODELS[kind].naturalKey && !settings.naturalKeys ? `${letter(s).toLowerCase()}${name}` : name;
  return PROGRAM_MODELS[kind].base(owner, v);
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
      const { aliases: _dropped, ...plainResource } = r;
      return replaced(at(c.pick), { ...plainResource, name: c.to });
    }
    case "renameAlias": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      // A Tenant's alias reaches its children by their names (the SDK's inherited child aliases),
      // which the fast depth does not model: its rename is the plain one.
      if (r.kind === "Tenant") return undefined;
      if (program.some((x) => x.kind === r.kind && x.name === c.to)) return undefined;
      const aliases = [...new Set([...(r.aliases ?? []), r.name])].filter((n) => n !== c.to);
      return replaced(at(c.pick), { ...r, name: c.to, aliases });
    }
    case "update":
    case "replaceField": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      const edits = c.t === "update" ? PROGRAM_MODELS[r.kind].updatable : PROGRAM_MODELS[r.kind].replacing;
      if (edits.length === 0) return undefined;
      return replaced(at(c.pick), { ...r, inputs: edits[c.i % edits.length]!.apply(r.inputs) });
    }
    case "optional": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      const opts = PROGRAM_MODELS[r.kind].optional;
      const o = opts[c.i % opts.length]!;
      const inputs = { ...r.inputs };
      if (o.field in inputs) delete inputs[o.field];
      else inputs[o.field] = o.value;
      return replaced(at(c.pick), { ...r, inputs });
    }
    case "replaceOnChanges": {
      if (program.length === 0) return undefined;
      const r = program[at(c.pick)]!;
      if (r.kind === "Tenant") return undefined; // a component's option, not its children's
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

/** Resources an up is to move to their new name by an alias, with the object each must keep (its inputs unchanged). */
function keptByAliases(w: World, s: number, program: ProgramResource[]) {
  const stack = w.stacks[s]!;
  const kept: { urn: string; from: string; kind: HKind; id: string }[] = [];
  for (const r of program) {
    if (r.kind === "Tenant") continue; // never renamed with an alias (edited)
    const urn = w.urnOf(stack, r.kind, r.name);
    if (stack.state.has(urn)) continue;
    const from = (r.aliases ?? []).map((n) => w.urnOf(stack, r.kind, n)).find((a) => stack.state.has(a));
    const e = from && stack.state.get(from);
    if (!e || stack.pendingDelete.some((p) => p.urn === from)) continue;
    // A changed replacing field (or any change, with replaceOnChanges) would replace it, alias or not.
    const inputs = w.resolved(r.inputs);
    const replacing = r.replaceOnChanges ? Object.keys(inputs) : replacingFields(r.kind);
    if (replacing.every((k) => inputs[k] === undefined || deepEqual(e.inputs[k], inputs[k])))
      kept.push({ urn, from, kind: r.kind, id: e.id });
  }
  return kept;
}

/** Runs one command on the world and returns the invariant violations after it. */
export async function runCmd(settings: Settings, model: Model, w: World, c: Cmd): Promise<string[]> {
  const stack = "s" in c ? w.stacks[c.s]! : undefined;
  const reports: RunReport[] = [];
  const problems: string[] = [];
  const opts = (f?: FaultData, kill?: number): RunOptions => ({ fault: f && faultSpec(f), killAt: kill });
  /** After a clean up of `program`: settled, and (without a fault or drift) a preview shows no change and makes none. */
  const afterClean = async (s: number, program: ProgramResource[], r: RunReport, faulted: boolean) => {
    problems.push(...afterCleanUp(w, s, program, w.liveObjects(r.after)));
    // Known (docs/guide/development.md#histories): an update applies the fields the program
    // changed, and drift it then sees in the others is applied by the next up. Strict with
    // HISTORIES_STRICT_DRIFT=1.
    const drift = w.drifted.has(s) && process.env.HISTORIES_STRICT_DRIFT !== "1";
    if (faulted || drift) return;
    // A preview then shows no change, and changes nothing at the service. It stands for the second
    // up this check used to run: the engine's up takes exactly the steps its preview shows (the same
    // check and diff of each resource against the same state), so an up after a preview with no
    // change is all no-ops — at the engine depth an up and a state export fewer per clean up.
    problems.push(...(await previewed(s, program, true)));
  };
  /** A preview: the service the same after it (no write, no record changed); after a clean up, no change shown. */
  const previewed = async (s: number, program: ProgramResource[], clean: boolean): Promise<string[]> => {
    const found: string[] = [];
    const [dumpBefore, countsBefore] = [await w.control.dumpState(), await w.control.counters()];
    const p = await w.preview(w.stacks[s]!, program);
    const [dumpAfter, countsAfter] = [await w.control.dumpState(), await w.control.counters()];
    const [was, now] = [w.records(dumpBefore), w.records(dumpAfter)];
    const changed = [...new Set([...was.keys(), ...now.keys()])].filter((k) => was.get(k) !== now.get(k));
    if (changed.length > 0 || countsAfter.writes !== countsBefore.writes)
      found.push(
        `${stackLetter(s)}'s preview changed the service: ${countsAfter.writes - countsBefore.writes} writes; records [${changed}]`,
      );
    if (!p.error && p.changes.length > 0) w.note("• preview with changes");
    // By design (docs/guide/resources.md, `deferScopeRemoval`): a Tenant's bootstrap key drops the
    // scopes it no longer needs one up later, so after a clean up it may still show that update.
    const retiring = new Set(
      [...w.stacks[s]!.state.values()]
        .filter((e) => Array.isArray(e.outs.retiringScopes) && e.outs.retiringScopes.length > 0)
        .map((e) => `update ${e.kind}::${e.urn.split("::").pop()}`),
    );
    const due = p.changes.filter((ch) => retiring.has(ch));
    if (clean && due.length > 0) w.note("• deferred scope removal due");
    const shown = clean ? p.changes.filter((ch) => !retiring.has(ch)) : p.changes;
    if (clean && (p.error || shown.length > 0))
      found.push(`the preview after a clean up of ${stackLetter(s)} showed changes: ${p.error ?? ""} [${shown}]`);
    for (const secret of w.secrets)
      if (p.text.includes(secret))
        found.push(`a secret of the service (${secret.slice(0, 4)}…) appears in a preview's output`);
    return found;
  };
  switch (c.t) {
    case "up":
    case "renameAlias": {
      // A rename with an alias is the edit and its `pulumi up` (the alias is what the up does with it).
      if (c.t === "renameAlias") model.programs[c.s] = edited(settings, model.programs[c.s]!, c)!;
      const [fault, kill] = c.t === "up" ? [c.fault, c.kill] : [undefined, undefined];
      const program = model.programs[c.s]!;
      const kept = keptByAliases(w, c.s, program);
      const r = await w.up(stack!, program, opts(fault, kill));
      reports.push(r);
      if (!r.error && !r.killed) {
        // Renamed with an alias: the object is kept (same id), neither created nor deleted.
        for (const k of kept) {
          const now = stack!.state.get(k.urn);
          if (now?.id !== k.id || r.deletes.includes(`${k.kind} ${k.id}`))
            problems.push(
              `${k.urn.split("::").pop()} (${k.kind}), renamed with an alias from ${k.from.split("::").pop()}, was not kept: ` +
                `${k.id} → ${now?.id ?? "no state"}; deletes [${r.deletes}]`,
            );
        }
        if (kept.length > 0) w.note("• alias kept an object");
        await afterClean(c.s, program, r, Boolean(fault));
      }
      break;
    }
    case "preview":
      problems.push(...(await previewed(c.s, model.programs[c.s]!, false)));
      break;
    case "import": {
      // Only an object the environment made can be imported: live, and named by no state.
      const live = w.liveObjects(await w.control.dumpState());
      const named = w.named();
      const candidates = [...w.outOfBand].filter((k) => live.has(k) && !named.has(k) && w.outOfBandObjects.has(k));
      const key = candidates[c.pick % Math.max(1, candidates.length)];
      const program = model.programs[c.s]!;
      const o = key === undefined ? undefined : w.outOfBandObjects.get(key)!;
      if (!o || program.some((x) => x.kind === o.kind && x.name === c.name)) return invariants(w, live);
      const declared: ProgramResource = { kind: o.kind, name: c.name, inputs: o.inputs };
      const urn = w.urnOf(stack!, o.kind, c.name);
      // `up --target` the resource with the import option: the import alone, whatever else the program holds.
      const r = await w.up(stack!, [...program, { ...declared, importId: o.importId }], { target: urn });
      reports.push(r);
      if (r.error || r.killed) {
        problems.push(`importing ${key} (made out of band) as ${c.name} failed: ${r.error ?? "killed"}`);
        break;
      }
      // The option has done its work: the program declares the object from now on.
      const next = [...program, declared];
      model.programs[c.s] = next;
      const namers = w.stacks.flatMap((s) =>
        [...s.state.values()]
          .filter((e) => `${e.kind} ${e.id}` === key)
          .map((e) => `${s.letter}:${e.urn.split("::").pop()}`),
      );
      if (stack!.state.get(urn)?.id !== key!.slice(o.kind.length + 1) || namers.length !== 1)
        problems.push(
          `after importing ${key} as ${stack!.letter}:${c.name}, it is named by [${namers}], not by exactly that state`,
        );
      // Invariant 4 with the import's run: the object made out of band was not changed by it.
      problems.push(...invariants(w, w.liveObjects(r.after), r));
      w.outOfBand.delete(key!); // the stack's own object now
      w.note("• import made");
      // The program as imported: a preview of it shows no change (targeted, as the import: the rest of
      // the program may be mid-edit, even invalid).
      const p = await w.preview(stack!, next, urn);
      const mine = p.changes.filter((ch) => ch.split(" ")[1] === `${o.kind}::${c.name}`);
      if (p.error || mine.length > 0)
        problems.push(`the preview after importing ${key} as ${c.name} showed [${mine}] ${p.error ?? ""}`);
      break;
    }
    case "clone": {
      // The clone's configuration is A's, committed: with the pin, A's salt (to be ignored).
      const clone = cloneOf(settings);
      if (c.pin) await w.pinSalt(w.stacks[0]!, w.stacks[clone]!);
      model.cloned = true;
      const program = (model.programs[clone] = [...model.programs[0]!]);
      const r = await w.up(w.stacks[clone]!, program);
      reports.push(r);
      if (!r.error && !r.killed) {
        w.note(c.pin ? "• clone up, salt pinned" : "• clone up");
        await afterClean(clone, program, r, false);
      }
      break;
    }
    case "upgrade":
      await w.upgradePlugin(stack!);
      break;
    case "upReplace": {
      const program = model.programs[c.s]!;
      const r = picked(program, c.pick);
      if (!r) return [];
      // HISTORIES_NATURAL_KEYS=0 leaves natural-key kinds out of targeted replacements.
      if (PROGRAM_MODELS[r.kind].naturalKey && !settings.naturalKeys) return [];
      // `--replace` of a component replaces nothing (its children are not named by it).
      if (r.kind === "Tenant") return [];
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
    if ("s" in this.c && this.c.s > this.settings.stacks) return false;
    // The clone (stack C) runs A's program as it was when cloned: it only runs up, preview and destroy, once cloned.
    if ("s" in this.c && this.c.s === cloneOf(this.settings))
      return Boolean(m.cloned) && ["up", "preview", "destroy"].includes(this.c.t) && !("kill" in this.c && this.c.kill);
    switch (this.c.t) {
      case "add":
      case "remove":
      case "rename":
      case "renameAlias":
      case "update":
      case "replaceField":
      case "optional":
      case "replaceOnChanges":
        return edited(this.settings, m.programs[this.c.s]!, this.c) !== undefined;
      case "upReplace":
        return m.programs[this.c.s]!.length > 0;
      case "clone":
        return m.programs[0]!.length > 0;
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

/** A command's label for weights and HISTORIES_WITHOUT: its type, or `cloneRun` for the clone's runs. */
export type CmdLabel = Cmd["t"] | "cloneRun";

/** Every command, as data, with its label (HISTORIES_WITHOUT leaves labels out). */
export function cmdArbitraries(settings: Settings): [CmdLabel, fc.Arbitrary<Cmd>][] {
  const clone = cloneOf(settings);
  const s = stackArb(settings);
  const name = fc.constantFrom(...NAMES);
  const v = fc.nat({ max: 2 });
  return [
    ["add", fc.record({ t: fc.constant("add" as const), s, kind: fc.constantFrom(...PROGRAM_KINDS), name, v })],
    ["add", fc.record({ t: fc.constant("add" as const), s, kind: fc.constantFrom(...PROGRAM_KINDS), name, v })],
    ["remove", fc.record({ t: fc.constant("remove" as const), s, pick })],
    ["rename", fc.record({ t: fc.constant("rename" as const), s, pick, to: name })],
    ["renameAlias", fc.record({ t: fc.constant("renameAlias" as const), s, pick, to: name })],
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
    ["preview", fc.record({ t: fc.constant("preview" as const), s })],
    ["import", fc.record({ t: fc.constant("import" as const), s, pick, name })],
    ["clone", fc.record({ t: fc.constant("clone" as const), pin: fc.boolean() })],
    [
      "cloneRun",
      fc.oneof(
        fc.constant({ t: "up" as const, s: clone }),
        fc.constant({ t: "preview" as const, s: clone }),
        fc.constant({ t: "destroy" as const, s: clone }),
      ),
    ],
    ["upgrade", fc.record({ t: fc.constant("upgrade" as const), s })],
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
const WEIGHTS: Record<CmdLabel, number> = {
  add: 4,
  remove: 1,
  rename: 1,
  renameAlias: 2,
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
  preview: 1,
  import: 1,
  clone: 1,
  cloneRun: 1,
  upgrade: 1,
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
