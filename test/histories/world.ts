// The real side of a history: one emulator (in memory, on loopback, with its control surface), one
// account, one or two stacks each with a Pulumi state, and the engine's operations over them —
// `up`, `up --replace`, `refresh`, `destroy`. `World` is what commands.ts and invariants.ts see: the
// service, the environment's changes and each stack's state as entries; two depths implement its
// engine operations. `FastWorld` (here) drives the providers in process the way the engine drives
// them (test/conformance/core/replacement.test.ts), with a simulated state: each run is a provider
// process of its own (jest.isolateModules: a fresh module graph, so nothing one run learned reaches
// the next). `EngineWorld` (engineWorld.ts) runs the real engine on generated programs.
import { saidOnStderr } from "../../support/stderr";
import { controlClient, type EmulatorControl, type FaultSpec, type StateDump } from "../../emulator/control";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { createClient, type TxmailClient } from "../../provider/client";
import type { AnyDeclaration, Props } from "../../provider/core/declaration";
import type { Provider } from "../../provider/core/factory";
import { isInitFailure } from "../../provider/core/initFailure";
import { z } from "zod";
import { readForImport } from "../../provider/core/importRead";
import { uuidImportId } from "../../provider/core/importId";
import type { Cmd } from "./commands";
import { isOutputRef, KIND_MODELS, KINDS, type PKind, SUB_ACCOUNT_REF, tenantParts, type HKind } from "./kinds";

export interface Entry {
  urn: string;
  kind: HKind;
  id: string;
  inputs: Props;
  outs: Props;
  /**
   * The reasons of the init failure the engine recorded with this object (a create or update that
   * handed back the object with its actual properties): the next `up` updates it even without a diff.
   */
  initErrors?: string[];
}

/**
 * The service objects a state entry names: its id, or for a credential on a rotation schedule
 * (provider/core/rotating) the current and the previous object its outputs name (the resource's id
 * names the first, revoked since). A current found revoked by a refresh is named no more.
 */
export function objectIdsOf(e: Entry): string[] {
  if (typeof e.outs.currentId !== "string") return [e.id];
  const ids = e.outs.currentGone === true ? [] : [e.outs.currentId];
  if (typeof e.outs.previousId === "string") ids.push(e.outs.previousId);
  return ids;
}

/** A resource of a stack's program, as the engine sees it after the SDK class filled it in. */
export interface ProgramResource {
  kind: PKind;
  name: string;
  inputs: Props;
  replaceOnChanges?: string[];
  /** Earlier logical names of the resource (the `aliases` resource option): its state moves to the new URN. */
  aliases?: string[];
  /** The `import` resource option: the id of an existing object the resource adopts, by the kind's import id. */
  importId?: string;
}

/** The letter a stack goes by in reports: A and B, two projects; C, a clone of A's project (same URNs, its own state). */
export const stackLetter = (index: number) => "ABC"[index] ?? String(index);

export interface Stack {
  index: number;
  letter: string;
  project: string;
  salt: string;
  state: Map<string, Entry>;
  /** Objects replaced whose delete failed: the engine deletes them first at the next run. */
  pendingDelete: Entry[];
  /** The last run failed (an error said so) or was killed. */
  lastRunFailed: boolean;
}

/** A create whose outcome a kill lost: the service made it, no state records it. */
export interface LostCreate {
  stack: number;
  urn: string;
  kind: HKind;
  id: string;
  /** The values its idempotency key stands for (the fields that cannot change in place). */
  fixed: string;
  /** The emulator's clock epoch when it was made (advanced past 24 h: another epoch). */
  epoch: number;
  /** Likewise for the 5 minutes the service replays a creation's secret. */
  secretEpoch: number;
  /** The stack's plugin was upgraded since (a known limit on the native face: behaviour.md#the-stack-salt). */
  beforeUpgrade?: boolean;
}

export interface RunOptions {
  fault?: FaultSpec;
  /** `--target <urn>`: only that resource is created, updated or imported; nothing else is touched. */
  target?: string;
  /** The n-th create or update of the run (1-based) commits, but its outcome is lost: the run stops. */
  killAt?: number;
}

export interface RunReport {
  stack: number;
  what: string;
  error?: string;
  killed: boolean;
  /** Every line the providers said (stderr) and every error message, for the secret and leftover checks. */
  text: string;
  creates: string[];
  updates: string[];
  deletes: string[];
  before: StateDump;
  after: StateDump;
}

/** What `pulumi preview` showed: the resources it would change, and whether it failed. */
export interface PreviewReport {
  stack: number;
  /** `<op> <Kind>::<name>` of every step that is not a same (a create, update, replace or delete). */
  changes: string[];
  error?: string;
  text: string;
}

/** An object the environment made out of band: what a program declaring it says, and the id `pulumi import` takes. */
export interface OutOfBandObject {
  kind: HKind;
  inputs: Props;
  importId: string;
}

/** The URN of a dynamic-provider resource (the fast depth's; the engine depth's are native: engineWorld.ts). */
export const dynamicUrnOf = (stack: Stack, kind: PKind, name: string) =>
  `urn:pulumi:dev::${stack.project}::${kind === "Tenant" ? TENANT_TYPE : `pulumi-nodejs:dynamic/txmail:${kind}`}::${name}`;

const TENANT_TYPE = "txmail:index:Tenant";
/** The URN of a Tenant's child on the dynamic face: its type after the component's. */
const dynamicChildUrnOf = (stack: Stack, kind: HKind, name: string) =>
  `urn:pulumi:dev::${stack.project}::${TENANT_TYPE}$pulumi-nodejs:dynamic/txmail:${kind}::${name}`;

/** Whether a state entry is a Tenant's child (its URN's type is nested under the component's). */
export const isTenantChild = (urn: string) => urn.includes(`${TENANT_TYPE}$`);

/** A program resource as the engine registers it: a Tenant is the resources it makes. */
export interface Registered {
  kind: HKind;
  name: string;
  urn: string;
  inputs: Props;
  res: ProgramResource;
  /** Made by a Tenant (no options of its own in the model). */
  child: boolean;
}

class Killed extends Error {}

let declarations: Record<string, AnyDeclaration> | undefined;
function declarationOf(kind: HKind): AnyDeclaration {
  declarations ??= (require("../../provider/resources") as { declarations: Record<string, AnyDeclaration> })
    .declarations;
  return declarations[kind]!;
}

/** The fields whose change replaces an object of `kind` (its diff's replaces; every field of an immutable kind). */
export function replacingFields(kind: HKind): string[] {
  const d = declarationOf(kind);
  return d.immutable ? [...d.apiFields, ...d.replaceOn] : [...d.replaceOn];
}

/** The fields a create's idempotency key stands for (core/operations/createKey.ts), as the program gives them. */
export function fixedOf(kind: HKind, inputs: Props): string {
  const d = declarationOf(kind);
  const replacing = d.immutable ? [...d.apiFields, ...d.replaceOn] : [...d.replaceOn];
  const later = new Set<string>(d.stateFields ?? []);
  const fields = [...new Set(replacing)].filter((f) => !later.has(f)).sort();
  return JSON.stringify(fields.map((f) => [f, inputs[f] ?? null]));
}

// A provider process's modules are loaded afresh for each run, except the ones that hold no
// knowledge of earlier runs and cost the most to load: zod, the API's schemas and the HTTP client
// (which also keeps one connection pool per origin, as one process would).
const sharedModules: Record<string, unknown> = {
  zod: require("zod"),
  "../../provider/api": require("../../provider/api"),
  "../../provider/api/common": require("../../provider/api/common"),
  "../../provider/api/kinds": require("../../provider/api/kinds"),
  "../../provider/api/paths": require("../../provider/api/paths"),
  "../../provider/client/errors": require("../../provider/client/errors"),
  "../../provider/client": require("../../provider/client"),
  // The declarations: plain data over the schemas.
  "../../provider/resources": require("../../provider/resources"),
};
for (const [path, loaded] of Object.entries(sharedModules)) jest.doMock(path, () => loaded);

/** A provider process for one run: every kind's provider from one fresh module graph. */
function providerProcess(): Record<HKind, Provider> {
  let made: Record<HKind, Provider> | undefined;
  jest.isolateModules(() => {
    const factory = require("../../provider/core/factory") as typeof import("../../provider/core/factory");
    const api = require("../../provider/core/clientApi") as typeof import("../../provider/core/clientApi");
    const resources = require("../../provider/resources") as { declarations: Record<string, AnyDeclaration> };
    made = Object.fromEntries(
      KINDS.map((k) => [k, factory.makeProvider(resources.declarations[k]!, api.apiFor)]),
    ) as Record<HKind, Provider>;
  });
  return made!;
}

/** What this process writes to stderr while `run` runs (the providers' progress lines), failed or not. */
async function capture<T>(run: () => Promise<T>): Promise<{ value?: T; error?: unknown; text: string }> {
  let failure: { error: unknown } | undefined;
  const { value, text } = await saidOnStderr(async () => {
    try {
      return await run();
    } catch (error) {
      failure = { error };
      return undefined;
    }
  });
  return failure ? { error: failure.error, text } : { value, text };
}

/** The service, the environment, each stack's state: what the commands and invariants see, at either depth. */
export abstract class World {
  readonly stacks: Stack[];
  /** Objects the environment made (out of band), by `Kind id`; an imported one leaves the set for its state. */
  readonly outOfBand = new Set<string>();
  /** What a program declaring each object made out of band says, by `Kind id`. */
  readonly outOfBandObjects = new Map<string, OutOfBandObject>();
  /** Sub accounts made before the history, which SubAccountApiKeys authenticate as (kinds.ts SUB_ACCOUNT_REF). */
  readonly subAccounts: string[] = [];
  /** Stacks whose configuration pins `txmail:stackSalt` (A's salt, committed, as a clone of A carries it). */
  readonly pinnedSalt = new Set<number>();
  /** Objects the environment deleted out of band, by `Kind id`: a state may still name them. */
  readonly deletedOutOfBand = new Set<string>();
  /** Objects there before the history (the account's owner, its bootstrap key). */
  readonly preexisting = new Set<string>();
  /** Objects a provider reported as likely leftovers, by `Kind id`. */
  readonly reportedLeftovers = new Set<string>();
  /** Every secret of the service seen (creation outputs, the account's key). */
  readonly secrets = new Set<string>();
  readonly lost: LostCreate[] = [];
  /** Objects a failed or killed run made that no state names yet, by `Kind id` → the stack's index. */
  readonly unsettled = new Map<string, number>();
  /** Objects a killed create made that no rerun can find (its resource left the program, or changed what its key stands for, or 24 h passed). */
  readonly abandoned = new Set<string>();
  /** Every line said, per run, for a failure's report. */
  readonly log: string[] = [];
  epoch = 0;
  secretEpoch = 0;
  /** Stacks one of whose objects the environment changed since their last refresh. */
  readonly drifted = new Set<number>();
  /** The commands run so far (for a failure's report). */
  readonly steps: Cmd[] = [];
  /** What the commands did that a step's type does not say (an import made, an alias kept), counted for the run's summary. */
  readonly tally = new Map<string, number>();

  note(event: string): void {
    this.tally.set(event, (this.tally.get(event) ?? 0) + 1);
  }

  protected constructor(
    readonly emu: RunningEmulator,
    readonly control: EmulatorControl,
    readonly client: TxmailClient,
    stackCount: number,
  ) {
    // One stack more than asked: C, a clone of A's project (same project and stack name, so the same
    // URNs; its own backend and state, so its own salt), idle until a history clones A.
    this.stacks = Array.from({ length: stackCount + 1 }, (_, index) => ({
      index,
      letter: stackLetter(index),
      project: `proj${index === stackCount ? "A" : stackLetter(index)}`,
      salt: `salt-of-stack-${stackLetter(index)}`,
      state: new Map(),
      pendingDelete: [],
      lastRunFailed: false,
    }));
  }

  /** A fresh emulator (no rate limit to speak of: a history has no other caller) and its client. */
  protected static async service() {
    const emu = await startEmulator({ port: 0, control: true, rateLimit: { rps: 1_000_000, burst: 1_000_000 } });
    const control = controlClient(emu);
    const client = createClient({
      apiKey: emu.apiKey,
      accountId: emu.accountId,
      baseUrl: emu.baseUrl,
      rateLimit: false,
    });
    return { emu, control, client };
  }

  /** What was there before the history, and the account's key as a secret. */
  protected async begin(): Promise<void> {
    process.env.TXMAIL_CLOCK_OFFSET_SECONDS = "0"; // a fresh emulator's clock: the last history's offset is gone
    this.secrets.add(this.emu.apiKey);
    // Two tenants' sub accounts, there before the history (a program's SubAccountApiKey names one).
    for (const n of [0, 1]) {
      const res = await this.client.post(
        declarationOf("SubAccount").collectionPath(this.conn(), {}),
        { name: `tenant-given-${n}`, website: `given${n}.example.com` },
        z.object({ id: z.string() }).passthrough(),
      );
      this.subAccounts.push(res.data.id);
    }
    for (const o of this.liveObjects(await this.control.dumpState())) this.preexisting.add(o);
  }

  /** The URN the depth's engine gives `stack`'s resource `name` of `kind`. */
  abstract urnOf(stack: Stack, kind: PKind, name: string): string;
  /** The URN the depth's engine gives the child `name` of `kind` of a Tenant. */
  abstract childUrnOf(stack: Stack, kind: HKind, name: string): string;

  /** The resources `program` registers, in order: a Tenant's children in its place (kinds.ts tenantParts). */
  registered(stack: Stack, program: ProgramResource[]): Registered[] {
    return program.flatMap((res): Registered[] =>
      res.kind === "Tenant"
        ? tenantParts(res.name, res.inputs).map((p) => ({
            ...p,
            urn: this.childUrnOf(stack, p.kind, p.name),
            res,
            child: true,
          }))
        : [
            {
              kind: res.kind,
              name: res.name,
              urn: this.urnOf(stack, res.kind, res.name),
              inputs: res.inputs,
              res,
              child: false,
            },
          ],
    );
  }
  /** `pulumi preview` with `program` (with `target`, `--target <urn>`): what an up would do, nothing done. */
  abstract preview(stack: Stack, program: ProgramResource[], target?: string): Promise<PreviewReport>;
  /**
   * Pins `owner`'s salt in `txmail:stackSalt` in its configuration and in `clone`'s (a committed
   * Pulumi.dev.yaml travels with the project): to be ignored (docs/guide/behaviour.md#the-stack-salt).
   */
  abstract pinSalt(owner: Stack, clone: Stack): Promise<void>;
  /**
   * The stack's txmail plugin upgraded between runs: the engine names the default provider after the
   * version, so the next run's provider is a new one. Creates killed before it, rerun after it, may
   * leave a twin with a warning on the native face (docs/guide/behaviour.md#the-stack-salt).
   */
  async upgradePlugin(stack: Stack): Promise<void> {
    for (const l of this.lost) if (l.stack === stack.index) l.beforeUpgrade = true;
  }

  /** A program resource's inputs with the world's references made ids (kinds.ts SUB_ACCOUNT_REF). */
  resolved(inputs: Props): Props {
    const out: Props = { ...inputs };
    for (const [k, v] of Object.entries(out)) {
      const n = this.subAccounts.findIndex((_, i) => v === SUB_ACCOUNT_REF(i));
      if (n >= 0) out[k] = this.subAccounts[n];
    }
    return out;
  }
  /** `pulumi up` with `program`; with `replace`, `--replace <urn>`. */
  abstract up(stack: Stack, program: ProgramResource[], opts?: RunOptions, replace?: string): Promise<RunReport>;
  /** `pulumi refresh`. */
  abstract refresh(stack: Stack, opts?: RunOptions): Promise<RunReport>;
  /** `pulumi destroy`. */
  abstract destroy(stack: Stack, opts?: RunOptions): Promise<RunReport>;

  /** Everything a secret must never appear in: what the runs said (the engine depth adds its state files). */
  said(): string {
    return this.log.join("\n");
  }

  /**
   * A run's bookkeeping, at either depth: whether it failed, the leftovers it reported, what a failed
   * run made that no state names, and its lines for a failure's report.
   */
  protected settle(stack: Stack, what: string, said: string, failed: boolean, killed: boolean, after: StateDump): void {
    stack.lastRunFailed = failed;
    for (const m of said.matchAll(/txmail-likely-leftover (\w+) ([^)\s]+)\)/g))
      this.reportedLeftovers.add(`${m[1]} ${m[2]}`);
    if (failed) {
      // What a failed run made and did not record (a membership re-added keeps its user id: every
      // live object no state names, not only new ids).
      const named = this.named();
      for (const key of this.liveObjects(after)) if (!named.has(key)) this.unsettled.set(key, stack.index);
    }
    this.log.push(`--- ${what}${killed ? " (killed)" : ""}${failed && !killed ? " (failed)" : ""}\n${said.trim()}`);
  }

  /** The providers' connection: the environment of their process. */
  useConnection(): void {
    process.env.TXMAIL_API_KEY = this.emu.apiKey;
    process.env.TXMAIL_ACCOUNT_ID = this.emu.accountId;
    process.env.TXMAIL_BASE_URL = this.emu.baseUrl;
    process.env.TXMAIL_PACE_DIR = "off";
    // A busy account (an in-progress 409, 429s) is waited out for 10 minutes by default: a history
    // has no other caller, so a wait that long is a hang to report, not to sit through.
    process.env.TXMAIL_BUSY_WAIT_SECONDS = "5";
    process.env.TXMAIL_REQUEST_TIMEOUT_SECONDS = "10";
  }

  async close(): Promise<void> {
    await this.emu.close();
  }

  /**
   * The account's records of a dump, by `Kind id`: its own objects, its sub accounts, and the objects
   * in its sub accounts (a Tenant's, and the keys of the two given ones). A sub account's members are
   * left out (the history makes none; the service lists the parent's people in them).
   */
  accountRecords(dump: StateDump): Map<string, { kind: HKind; record: Record<string, unknown> }> {
    const out = new Map<string, { kind: HKind; record: Record<string, unknown> }>();
    const subAccounts = new Set(
      ((dump.accounts ?? []) as Record<string, unknown>[])
        .filter((a) => a.parent_account_id === this.emu.accountId)
        .map((a) => String(a.id)),
    );
    for (const kind of KINDS) {
      const m = KIND_MODELS[kind];
      for (const r of (dump[m.section] ?? []) as Record<string, unknown>[]) {
        const account = String(kind === "SubAccount" ? r.parent_account_id : r.account_id);
        // An API key of a sub account is a SubAccountApiKey; of the account, an ApiKey.
        const mine =
          kind === "SubAccount" || kind === "ApiKey" || kind === "AccountMember"
            ? account === this.emu.accountId
            : kind === "SubAccountApiKey"
              ? subAccounts.has(account)
              : account === this.emu.accountId || subAccounts.has(account);
        if (!mine) continue;
        out.set(`${kind} ${m.idOf(r)}`, { kind, record: r });
      }
    }
    return out;
  }

  /** Sub accounts of the account that are deleted: the objects in them went with them. */
  private deletedSubAccounts(dump: StateDump): Set<string> {
    return new Set(
      ((dump.accounts ?? []) as Record<string, unknown>[])
        .filter((a) => a.parent_account_id === this.emu.accountId && a.status === "deleted")
        .map((a) => String(a.id)),
    );
  }

  /** Live objects of the account in a dump, as `Kind id`. */
  liveObjects(dump: StateDump): Set<string> {
    const live = new Set<string>();
    const gone = this.deletedSubAccounts(dump);
    for (const [key, { kind, record: r }] of this.accountRecords(dump)) {
      const m = KIND_MODELS[kind];
      if (m.live && !m.live(r)) continue;
      if (kind !== "SubAccount" && gone.has(String(r.account_id))) continue;
      if (kind === "Suppression" && Date.parse(String(r.expires_at)) <= Date.parse(dump.now)) continue;
      live.add(key);
    }
    return live;
  }

  /** `Kind id` of every object a state names. */
  named(): Set<string> {
    return new Set(
      this.stacks.flatMap((s) =>
        [...s.state.values(), ...s.pendingDelete].flatMap((e) => objectIdsOf(e).map((id) => `${e.kind} ${id}`)),
      ),
    );
  }

  /** Each live object's record, for the "changed" comparison (times and counters left out). */
  records(dump: StateDump): Map<string, string> {
    const live = this.liveObjects(dump);
    const out = new Map<string, string>();
    for (const [key, { record: r }] of this.accountRecords(dump)) {
      if (!live.has(key)) continue;
      const kept = Object.fromEntries(
        Object.entries(r).filter(([k]) => !/(_at|count|last_|usage|dns|_checked|stats)/.test(k)),
      );
      out.set(key, JSON.stringify(kept));
    }
    return out;
  }

  // ---- the environment -------------------------------------------------------------------------

  protected conn() {
    return { apiKey: this.emu.apiKey, accountId: this.emu.accountId, baseUrl: this.emu.baseUrl };
  }

  /** Deletes or changes a state's object through the API, as a person in the dashboard would. */
  async environment(action: "delete" | "change", e: Entry): Promise<void> {
    const d = declarationOf(e.kind);
    const id = objectIdsOf(e)[0] ?? e.id; // a rotating credential's current object
    // A Tenant's child is in its sub account: reached with the tenant's key, as its provider does.
    const own = e.inputs.connection as { apiKey?: string; accountId?: string } | undefined;
    const conn = { ...this.conn(), ...(own?.apiKey && own.accountId ? own : {}) };
    const client =
      conn.apiKey === this.emu.apiKey
        ? this.client
        : createClient({ apiKey: conn.apiKey, accountId: conn.accountId, baseUrl: conn.baseUrl, rateLimit: false });
    const path = d.itemPath(conn, { ...e.inputs, ...e.outs }, id);
    if (action === "delete") {
      await client.delete(path).catch((err: unknown) => {
        if (!/404|not found/i.test(String((err as Error).message))) throw err;
      });
      this.deletedOutOfBand.add(`${e.kind} ${id}`);
      // A sub account's keys go with it, and every object in it (a Tenant's) is out of reach.
      if (e.kind === "SubAccount")
        for (const x of this.stacks.flatMap((st) => [...st.state.values(), ...st.pendingDelete]))
          if (
            x.inputs.subAccountId === id ||
            (x.inputs.connection as { accountId?: unknown } | undefined)?.accountId === id
          )
            for (const xid of objectIdsOf(x)) this.deletedOutOfBand.add(`${x.kind} ${xid}`);
      return;
    }
    const change: Partial<Record<HKind, Record<string, unknown>>> = {
      Route: { url: "https://oob.example.com/changed" },
      Webhook: { url: "https://oob.example.com/changed" },
      ApiKey: { label: "changed-out-of-band" },
      SubAccountApiKey: { label: "changed-out-of-band" },
      SubAccount: { name: "changed-out-of-band" },
      Domain: { tracking_subdomain: "oob" },
    };
    const body = change[e.kind];
    if (!body) return; // the service has no update for it
    for (const st of this.stacks)
      if ([...st.state.values()].some((x) => x.kind === e.kind && objectIdsOf(x).includes(id)))
        this.drifted.add(st.index);
    await client.put(path, body, z.unknown()).catch((err: unknown) => {
      // Gone already, or already changed so (the service refuses an update that changes nothing).
      if (!/404|not found|changes nothing/i.test(String((err as Error).message))) throw err;
    });
  }

  /** Makes an object through the API that no stack made. */
  async environmentCreate(kind: "Route" | "Domain" | "Suppression", inputs: Props): Promise<void> {
    const d = declarationOf(kind);
    const body =
      kind === "Route"
        ? { name: inputs.name, url: inputs.url, recipient: inputs.recipient ?? "" }
        : kind === "Domain"
          ? { domain: inputs.domain }
          : { email: inputs.email, expires_at: inputs.expiresAt };
    const res = await this.client
      .post(d.collectionPath(this.conn(), inputs), body, z.unknown())
      .catch((err: unknown) => {
        if (/409|already|conflict/i.test(String((err as Error).message))) return undefined;
        throw err;
      });
    if (!res) return;
    const data = res.data as Record<string, unknown> & { data?: Record<string, unknown>[] };
    const record = Array.isArray(data.data) ? data.data[0]! : data;
    const key = `${kind} ${KIND_MODELS[kind].idOf(record)}`;
    this.outOfBand.add(key);
    this.outOfBandObjects.set(key, { kind, inputs, importId: (d.importId ?? uuidImportId).format(record) });
    if (typeof record.secret === "string") this.secrets.add(record.secret);
  }

  /** The service's clock moves on (idempotency records, replayed secrets expire). */
  async advance(ms: number): Promise<void> {
    const { offsetMs } = await this.control.advanceClock(ms);
    // The providers decide rotations by their clock moved this much (provider/core/rotating/clock.ts).
    process.env.TXMAIL_CLOCK_OFFSET_SECONDS = String(offsetMs / 1000);
    if (ms >= 24 * 3600_000) this.epoch++;
    if (ms >= 5 * 60_000) this.secretEpoch++;
  }
}

/** The fast depth: the providers in process, each stack's state simulated. */
export class FastWorld extends World {
  static async start(stackCount = 2): Promise<FastWorld> {
    const { emu, control, client } = await World.service();
    const world = new FastWorld(emu, control, client, stackCount);
    await world.begin();
    return world;
  }

  urnOf(stack: Stack, kind: PKind, name: string): string {
    return dynamicUrnOf(stack, kind, name);
  }

  childUrnOf(stack: Stack, kind: HKind, name: string): string {
    return dynamicChildUrnOf(stack, kind, name);
  }

  /**
   * A registered resource's inputs with its references to its siblings' outputs made values, from
   * the state as this run left it so far (the engine waits for an output before it registers what
   * needs it; the model makes resources in program order); undefined when one is not known yet (a
   * preview: the sibling is still to be made).
   */
  private withOutputs(stack: Stack, inputs: Props): Props | undefined {
    let unknown = false;
    const value = (v: unknown): unknown => {
      if (isOutputRef(v)) {
        const { kind, name, field } = v["@output"];
        const e = stack.state.get(dynamicChildUrnOf(stack, kind, name));
        const got = e && (field === "id" ? e.id : e.outs[field]);
        if (got === undefined) unknown = true;
        return got;
      }
      if (v && typeof v === "object" && !Array.isArray(v))
        return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, value(x)]));
      return v;
    };
    const out = value(inputs) as Props;
    return unknown ? undefined : out;
  }

  /** The inputs the SDK class hands the engine for a registered resource (its URN, the stack's salt, the option). */
  private newsOf(stack: Stack, reg: Registered): Props | undefined {
    const inputs = this.withOutputs(stack, this.resolved(reg.inputs));
    if (!inputs) return undefined;
    return {
      ...inputs,
      __urn: reg.urn,
      __stackSalt: stack.salt,
      ...(!reg.child && reg.res.replaceOnChanges ? { __replaceOnChanges: reg.res.replaceOnChanges } : {}),
    };
  }

  /**
   * `pulumi preview`: the engine calls the provider's check and diff (no create, update, read or
   * delete) for each resource of the program with a state, and reports a create for those without
   * one (an import: a read, as the import step does), a delete for those the program dropped.
   */
  async preview(stack: Stack, program: ProgramResource[], target?: string): Promise<PreviewReport> {
    this.useConnection();
    const r = new Runner(this, stack, providerProcess());
    const changes: string[] = [];
    const { error, text } = await capture(async () => {
      const moved = new Set<string>();
      const registered = this.registered(stack, program);
      for (const reg of registered) {
        const { res, urn } = reg;
        if (target && urn !== target) continue;
        const aliases = reg.child ? [] : (res.aliases ?? []);
        const alias = aliases.map((n) => dynamicUrnOf(stack, reg.kind, n)).find((a) => stack.state.has(a));
        const old = stack.state.get(urn) ?? (alias ? stack.state.get(alias) : undefined);
        if (alias && !stack.state.has(urn)) moved.add(alias);
        const news = this.newsOf(stack, reg);
        if (!old) {
          // A tenant's child whose sibling is still to be made: its inputs are unknown until the up.
          if (news) await r.check(reg.kind, {}, news);
          changes.push(`${!reg.child && res.importId !== undefined ? "import" : "create"} ${reg.kind}::${reg.name}`);
          continue;
        }
        if (!news) {
          changes.push(`update ${reg.kind}::${reg.name}`);
          continue;
        }
        const inputs = await r.check(reg.kind, old.inputs, news);
        const d = await r.diff(old, inputs);
        // An object recorded with init errors is updated even without a diff (as `up` does below).
        if (d.changes || old.initErrors)
          changes.push(`${(d.replaces ?? []).length > 0 ? "replace" : "update"} ${reg.kind}::${reg.name}`);
      }
      const wanted = new Set(registered.map((reg) => reg.urn));
      for (const urn of target ? [] : stack.state.keys())
        if (!wanted.has(urn) && !moved.has(urn))
          changes.push(`delete ${stack.state.get(urn)!.kind}::${urn.split("::").pop()}`);
      for (const e of target ? [] : stack.pendingDelete)
        changes.push(`delete ${e.kind}::${e.urn.split("::").pop()} (replaced)`);
    });
    const message = error ? String((error as Error).message ?? error) : undefined;
    const said = `${text}${message ? `\nerror: ${message}` : ""}`;
    this.log.push(`--- ${stack.letter}: preview${message ? " (failed)" : ""}\n${said.trim()}`);
    return { stack: stack.index, changes, error: message, text: said };
  }

  /** The dynamic face reads a pinned salt only in the SDK class, to warn that it is ignored: nothing here to run. */
  async pinSalt(owner: Stack, clone: Stack): Promise<void> {
    this.pinnedSalt.add(owner.index).add(clone.index);
  }

  // ---- the engine ------------------------------------------------------------------------------

  /** One engine run of `stack`: a provider process, an optional fault on its first matching request, a kill. */
  private async run(
    stack: Stack,
    what: string,
    opts: RunOptions,
    body: (r: Runner) => Promise<void>,
  ): Promise<RunReport> {
    this.useConnection();
    const before = await this.control.dumpState();
    await this.control.clearFaults();
    if (opts.fault) await this.control.injectFault(opts.fault);
    const runner = new Runner(this, stack, providerProcess(), opts.killAt);
    const { error, text } = await capture(() => body(runner));
    await this.control.clearFaults();
    const killed = error instanceof Killed;
    const message = error && !killed ? String((error as Error).message ?? error) : undefined;
    const said = `${text}${message ? `\nerror: ${message}` : ""}`;
    const after = await this.control.dumpState();
    this.settle(stack, what, said, error !== undefined, killed, after);
    return {
      stack: stack.index,
      what,
      error: message,
      killed,
      text: said,
      creates: runner.creates,
      updates: runner.updates,
      deletes: runner.deletes,
      before,
      after,
    };
  }

  /** `pulumi up` with `program`: every resource created, updated, replaced or left; the rest deleted. */
  up(stack: Stack, program: ProgramResource[], opts: RunOptions = {}, replace?: string): Promise<RunReport> {
    const what = `${stack.letter}: up${replace ? ` --replace ${replace}` : ""}${opts.target ? ` --target ${opts.target}` : ""}`;
    return this.run(stack, what, opts, async (r) => {
      for (const old of opts.target ? [] : [...stack.pendingDelete]) {
        await r.delete(old);
        stack.pendingDelete.splice(stack.pendingDelete.indexOf(old), 1);
      }
      const wanted = new Set<string>();
      for (const reg of this.registered(stack, program)) {
        const { urn } = reg;
        const res = {
          ...reg.res,
          kind: reg.kind,
          ...(reg.child ? { aliases: [], importId: undefined, replaceOnChanges: undefined } : {}),
        };
        wanted.add(urn);
        if (opts.target && urn !== opts.target) continue;
        const news = this.newsOf(stack, reg);
        // Made in order: a sibling's output is known by now (its create failed, and the run with it, otherwise).
        if (!news) throw new Error(`${urn}: an output it needs is not known`);
        // An alias: the state of an earlier name moves to this URN (the engine's step generator), then diffs as usual.
        const aliased = (res.aliases ?? [])
          .map((n) => dynamicUrnOf(stack, res.kind, n))
          .find((a) => stack.state.has(a));
        if (!stack.state.has(urn) && aliased) {
          const moved = stack.state.get(aliased)!;
          stack.state.delete(aliased);
          stack.state.set(urn, { ...moved, urn });
        }
        let old = stack.state.get(urn);
        const importedNow = !old && res.importId !== undefined;
        if (!old && res.importId !== undefined) {
          // The `import` option (the engine's ImportStep): read by the import id without prior state,
          // recorded with the inputs the read reports; then checked against the program's inputs and
          // diffed like any resource in state (the engine updates it if they differ; same: as imported).
          const imported = await readForImport(declarationOf(res.kind), r.providers[res.kind], res.importId);
          if (!imported) throw new Error(`importing ${urn}: resource '${res.importId}' does not exist`);
          old = { urn, kind: res.kind, id: imported.id, inputs: imported.inputs, outs: imported.props };
          stack.state.set(urn, old);
        }
        /**
         * A create's outcome into the state, as the engine records it: an init failure too (the
         * object with its actual properties), and then the run fails, after marking the object a
         * create-before-delete replacement replaces for deletion (step.go CreateStep.Apply).
         */
        const created = async (inputs: Props, replacing?: Entry) => {
          const made = await r.create(res.kind, urn, inputs);
          const { initErrors } = made;
          stack.state.set(urn, { urn, kind: res.kind, id: made.id, inputs, outs: made.outs, initErrors });
          if (!initErrors) return;
          if (replacing) stack.pendingDelete.push(replacing);
          throw new Error(initErrors.join("\n"));
        };
        if (!old) {
          await created(await r.check(res.kind, {}, news));
        } else if (replace === urn) {
          // A targeted replacement: checked without old inputs, no diff, create, delete the old.
          await created(await r.check(res.kind, {}, news), old);
          await r.deleteReplaced(old);
        } else {
          const inputs = await r.check(res.kind, old.inputs, news);
          const d = await r.diff(old, inputs);
          // An object recorded with init errors is updated even without a diff, and replaced when
          // `replaceOnChanges` covers every property (step_generator.go, "#initerror").
          const forced = old.initErrors !== undefined && (res.replaceOnChanges ?? []).includes("*");
          if (!d.changes && !old.initErrors) {
            // A same step records the program's checked inputs (an imported object's, read in full, at
            // the next up: the import step itself records what the read reported).
            if (!importedNow) stack.state.set(urn, { ...old, inputs });
            continue;
          }
          if ((d.replaces ?? []).length === 0 && !forced) {
            const { outs, initErrors } = await r.update(old, inputs);
            // A partially failed update keeps the old inputs with the new outputs (engine/update.go).
            stack.state.set(urn, { ...old, inputs: initErrors ? old.inputs : inputs, outs, initErrors });
            if (initErrors) throw new Error(initErrors.join("\n"));
          } else if (d.deleteBeforeReplace) {
            await r.delete(old);
            stack.state.delete(urn);
            await created(inputs);
          } else {
            await created(await r.check(res.kind, {}, news), old);
            await r.deleteReplaced(old);
          }
        }
      }
      // What the program dropped: a Tenant's children last and the last made first (each depends
      // on the sub account and the bootstrap key, so the engine deletes them before those).
      const dropped = [...stack.state].filter(([urn]) => !wanted.has(urn) && !opts.target);
      for (const [urn, e] of [
        ...dropped.filter(([u]) => !isTenantChild(u)),
        ...dropped.filter(([u]) => isTenantChild(u)).reverse(),
      ]) {
        await r.delete(e);
        stack.state.delete(urn);
      }
    });
  }

  /** `pulumi refresh`: each resource read; those the provider says are gone leave the state. */
  refresh(stack: Stack, opts: RunOptions = {}): Promise<RunReport> {
    this.drifted.delete(stack.index);
    return this.run(stack, `${stack.letter}: refresh`, opts, async (r) => {
      for (const [urn, e] of [...stack.state]) {
        const got = await r.providers[e.kind].read(e.id, { ...e.inputs, ...e.outs });
        if (!got.id) stack.state.delete(urn);
        // A read that succeeds clears the init errors (step.go RefreshStep.Apply).
        else stack.state.set(urn, { ...e, id: got.id, outs: got.props ?? e.outs, initErrors: undefined });
      }
    });
  }

  /** `pulumi destroy`: every resource deleted (the last made first). */
  destroy(stack: Stack, opts: RunOptions = {}): Promise<RunReport> {
    return this.run(stack, `${stack.letter}: destroy`, opts, async (r) => {
      for (const old of [...stack.pendingDelete]) {
        await r.delete(old);
        stack.pendingDelete.splice(stack.pendingDelete.indexOf(old), 1);
      }
      for (const [urn, e] of [...stack.state].reverse()) {
        await r.delete(e);
        stack.state.delete(urn);
      }
    });
  }
}

/**
 * A create's or update's init failure as the engine takes it: the object's id and properties, and
 * the reasons it then fails the run with. Any other failure is rethrown.
 */
function initFailed(e: unknown): { id: string; outs: Props; initErrors: string[] } {
  if (!isInitFailure(e)) throw e;
  return { id: e.id, outs: e.properties, initErrors: e.reasons };
}

/** One run's calls into its provider process, counted, with the kill. */
class Runner {
  readonly creates: string[] = [];
  readonly updates: string[] = [];
  readonly deletes: string[] = [];
  private writes = 0;

  constructor(
    private readonly world: FastWorld,
    private readonly stack: Stack,
    readonly providers: Record<HKind, Provider>,
    private readonly killAt?: number,
  ) {}

  async check(kind: HKind, olds: Props, news: Props): Promise<Props> {
    const r = await this.providers[kind].check(olds, news);
    if (!r.inputs) throw new Error(`check failed: ${JSON.stringify(r.failures)}`);
    return r.inputs;
  }

  diff(old: Entry, inputs: Props) {
    return this.providers[old.kind].diff(old.id, { ...old.inputs, ...old.outs }, inputs);
  }

  private noteSecrets(kind: HKind, outs: Props): void {
    for (const f of KIND_MODELS[kind].secrets) {
      const v = outs[f];
      if (typeof v === "string" && v.length >= 8) this.world.secrets.add(v);
    }
  }

  private killed(): boolean {
    this.writes++;
    return this.killAt !== undefined && this.writes === this.killAt;
  }

  /**
   * A create; an init failure (provider/core/initFailure.ts) is its outcome too — the object, its
   * properties and the reasons — which a kill loses like any other.
   */
  async create(kind: HKind, urn: string, inputs: Props): Promise<{ id: string; outs: Props; initErrors?: string[] }> {
    const made = await this.providers[kind].create(inputs).catch(initFailed);
    this.noteSecrets(kind, made.outs);
    this.creates.push(`${kind} ${made.id}`);
    if (this.killed()) {
      this.world.lost.push({
        stack: this.stack.index,
        urn,
        kind,
        id: made.id,
        fixed: fixedOf(kind, inputs),
        epoch: this.world.epoch,
        secretEpoch: this.world.secretEpoch,
      });
      throw new Killed(`killed after the create of ${urn}`);
    }
    return made;
  }

  async update(old: Entry, inputs: Props): Promise<{ outs: Props; initErrors?: string[] }> {
    const r = await this.providers[old.kind].update(old.id, { ...old.inputs, ...old.outs }, inputs).catch(initFailed);
    this.updates.push(`${old.kind} ${old.id}`);
    if (this.killed()) throw new Killed(`killed after the update of ${old.urn}`);
    return r;
  }

  async delete(old: Entry): Promise<void> {
    await this.providers[old.kind].delete(old.id, { ...old.inputs, ...old.outs });
    this.deletes.push(`${old.kind} ${old.id}`);
  }

  /** The delete of a replaced object after its replacement's create; kept pending when it fails. */
  async deleteReplaced(old: Entry): Promise<void> {
    try {
      await this.delete(old);
    } catch (err) {
      this.stack.pendingDelete.push(old);
      throw err;
    }
  }
}
