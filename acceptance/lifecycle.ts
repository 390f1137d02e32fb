// Every kind's lifecycle through the real engine, on one face: create; refresh with nothing to change
// (every object read back as state holds it); update in place where the kind allows; forget and import
// every object by the id a user types, then preview with nothing to change; replace; destroy. The
// runner sets each step's values as stack config; both programs (programs/typescript, programs/yaml)
// only read them, so the two faces walk the same steps. Kinds with steps of their own are written
// out below and in both programs; every other managed kind is derived from its example and its
// declaration (derived.ts), and the runner adds its resource to both programs.
import { stripVTControlCharacters } from "node:util";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap, OpMap } from "@pulumi/pulumi/automation";
import * as YAML from "yaml";
import { REPO_ROOT } from "../support/root";
import { type RunStack, createStack } from "./engine";
import type { Check } from "./report";
import type { ObjectKind } from "../provider/api/kinds";
import type { Face } from "../sdk/nodejs/internal/face";
import { type DerivedChange, type DerivedResource, derivedKinds, derivedResource, resourceNameOf } from "./derived";

/**
 * The kinds with hand-written steps, by their resource's name in both programs (programs/typescript,
 * programs/yaml): the kinds of the parent account (the sweep finds their objects by name), and
 * those whose steps say more than a derivation can (a key's rotation, a route whose recipient follows
 * the domain, a member's role) or that are imported by another id than theirs. Every other managed
 * kind is walked from its example (derived.ts, DERIVED_KINDS), so a new one needs no line here; the
 * checklist test (test/unit/kinds/checklist.test.ts) fails while an object kind is in neither list,
 * or a program lacks a resource named here.
 */
export const RESOURCE_NAMES = {
  SubAccount: "tenant",
  SubAccountApiKey: "bootstrap",
  ApiKey: "ci",
  Domain: "domain",
  Route: "route",
  AccountMember: "member",
  Suppression: "suppression",
} as const satisfies Partial<Record<ObjectKind, string>>;
/** The kinds walked from their example (derived.ts): every managed kind without steps above. */
export const DERIVED_KINDS = derivedKinds(Object.keys(RESOURCE_NAMES));
type ResourceName = (typeof RESOURCE_NAMES)[keyof typeof RESOURCE_NAMES];
/** The programs' resources of the kinds, by name. */
const RESOURCES = Object.values(RESOURCE_NAMES) as ResourceName[];
/**
 * Of the hand-written kinds, step 2 updates these in place; step 3 replaces these (and updates the
 * route, whose recipient follows the domain). A derived kind says which it is (derived.ts).
 */
const UPDATED: ResourceName[] = ["tenant", "bootstrap", "ci", "domain", "route"];
const REPLACED: ResourceName[] = ["bootstrap", "ci", "domain", "member", "suppression"];
/** Values a program leaves unset when they are "": [resource, property, value key]. */
const OPTIONAL: Array<[ResourceName, string, string]> = [
  ["bootstrap", "rotation", "rotation"],
  ["ci", "rotation", "rotation"],
  ["suppression", "reason", "suppressionReason"],
];

export interface FaceRun {
  face: Face;
  /** Names every object of this face: `<run prefix>-ts` or `<run prefix>-yaml`. */
  prefix: string;
  /** Provider settings for the account the environment names (through the recording proxy). */
  baseUrl: string;
  accountId: string;
  apiKey: string;
  /** The run's own sub account and its key. */
  workspace: { accountId: string; apiKey: string };
  expiresAt: string;
}

const programOf = (face: Face) =>
  path.join(REPO_ROOT, "acceptance", "programs", face === "dynamic" ? "typescript" : "yaml");

/** The derived kinds' resources at a step (1 create, 2 update in place, 3 replace). */
export const derivedAt = (step: 1 | 2 | 3, run: FaceRun): DerivedResource[] =>
  DERIVED_KINDS.map((kind) => derivedResource(kind, run.prefix, step));

/** The hand-written kinds' values at a step (1 create, 2 update in place, 3 replace). */
export function valuesAt(step: 1 | 2 | 3, run: FaceRun): Record<string, string> {
  const p = run.prefix;
  const updated = step >= 2;
  const replaced = step >= 3;
  return {
    tenantName: updated ? `${p}-tenant-renamed` : `${p}-tenant`,
    bootstrapLabel: updated ? `${p}-bootstrap-2` : `${p}-bootstrap`,
    ciLabel: updated ? `${p}-ci-2` : `${p}-ci`,
    rotation: replaced ? "2" : "",
    domainName: replaced ? `mail2.${p}.example.com` : `mail.${p}.example.com`,
    tracking: updated ? "track2" : "track",
    routeName: updated ? `${p}-helpdesk` : `${p}-inbound`,
    memberEmail: `${p}-dev@example.com`,
    memberRole: replaced ? "Analyst" : "Developer",
    suppressionEmail: `${p}-gone@example.com`,
    // Unset at first: a suppression without a reason (what the service may send as "").
    suppressionReason: replaced ? "complaint" : "",
    expiresAt: run.expiresAt,
  };
}

/** The changes of an operation other than `same`, as `create 9, update 1`. */
const changed = (ops: OpMap | undefined) =>
  Object.entries(ops ?? {})
    .filter(([op, n]) => op !== "same" && (n ?? 0) > 0)
    .map(([op, n]) => `${op} ${n}`)
    .join(", ");
const counts = (ops: OpMap | undefined) =>
  Object.fromEntries(Object.entries(ops ?? {}).filter(([op]) => op !== "same"));

/**
 * Whether the non-`same` changes are exactly `want`; `create` at least, as a first up also creates
 * the stack, the `workspace` provider and (dynamic face) the SDK's stack salt.
 */
const exactly = (ops: OpMap | undefined, want: Record<string, number>) => {
  const got = counts(ops) as Record<string, number>;
  const keys = new Set([...Object.keys(got), ...Object.keys(want)]);
  return [...keys].every((k) =>
    k === "create" && want.create ? (got[k] ?? 0) >= want.create : (got[k] ?? 0) === (want[k] ?? 0),
  );
};

/** The engine's error lines (the CLI's progress output around them says nothing). */
function engineError(e: unknown): string {
  const text = stripVTControlCharacters(String((e as Error)?.message ?? e));
  const lines = text.split("\n").filter((l) => /error|failed/i.test(l) && !/^\s*$/.test(l));
  return [...new Set(lines.map((l) => l.trim()))].slice(0, 6).join(" · ") || text.slice(-600);
}

export class Lifecycle {
  readonly checks: Check[] = [];
  private t?: RunStack;
  private outputs: Record<string, string> = {};
  /** The derived kinds' ids, by resource name (the programs' `derivedIds` output). */
  private derivedIds: Record<string, string> = {};

  constructor(private readonly run: FaceRun) {}

  private check(step: string, ok: boolean, detail: string): boolean {
    this.checks.push({ face: this.run.face, step, ok, detail });
    return ok;
  }

  private async setValues(step: 1 | 2 | 3): Promise<void> {
    const values = valuesAt(step, this.run);
    const derived = derivedAt(step, this.run);
    const config: ConfigMap = {};
    for (const [k, v] of Object.entries(values)) {
      if (this.run.face === "dynamic" || !OPTIONAL.some(([, , key]) => key === k)) config[k] = { value: v };
    }
    // The TypeScript program makes the derived kinds' resources from this list.
    if (this.run.face === "dynamic") config.derived = { value: JSON.stringify(derived) };
    await this.t!.stack.setAllConfig(config);
    if (this.run.face === "native") {
      this.editProgram((program) => {
        for (const [resource, property, key] of OPTIONAL) {
          const at = ["resources", resource, "properties", property];
          if (values[key]) program.setIn(at, values[key]);
          else program.deleteIn(at);
        }
        // The derived kinds' resources, written in as literals: Pulumi YAML cannot loop over a list.
        // Only their type, properties and provider: an `import` option set meanwhile stays.
        for (const r of derived) {
          program.setIn(["resources", r.name, "type"], `txmail:${r.kind}`);
          program.setIn(["resources", r.name, "properties"], program.createNode(r.properties));
          program.setIn(["resources", r.name, "options", "provider"], "${workspace}");
          program.setIn(["outputs", "derivedIds", r.name], `\${${r.name}.id}`);
        }
      });
    }
  }

  /** Edits the stack's copy of the YAML program (Pulumi YAML has no unset value and no computed `import`). */
  private editProgram(edit: (program: YAML.Document) => void): void {
    const file = path.join(this.t!.stack.workspace.workDir, "Pulumi.yaml");
    const program = YAML.parseDocument(fs.readFileSync(file, "utf8"));
    edit(program);
    fs.writeFileSync(file, program.toString());
  }

  private async setImportIds(ids: Record<string, string>): Promise<void> {
    if (this.run.face === "dynamic") {
      await this.t!.stack.setConfig("importIds", { value: JSON.stringify(ids) });
      return;
    }
    this.editProgram((program) => {
      for (const name of this.names()) {
        if (ids[name]) program.setIn(["resources", name, "options", "import"], ids[name]);
        else program.deleteIn(["resources", name, "options", "import"]);
      }
    });
  }

  /**
   * The id a user types to import each object: `pulumi import` syntax on the native face, `adoptId`
   * on the dynamic face (a key and a member by their own id there).
   */
  private importIds(values: Record<string, string>): Record<string, string> {
    const o = this.outputs;
    const native = this.run.face === "native";
    return {
      // A derived kind is imported by its uuid (derived.ts refuses a kind that is not).
      ...Object.fromEntries(
        DERIVED_KINDS.map((kind) => [resourceNameOf(kind), this.derivedIds[resourceNameOf(kind)]!]),
      ),
      tenant: o.tenantId!,
      bootstrap: native ? `${o.tenantId}/${o.bootstrapId}` : o.bootstrapId!,
      ci: o.ciId!,
      domain: values.domainName!,
      route: o.routeId!,
      member: native ? `${values.memberEmail}/${o.memberId}` : o.memberId!,
      suppression: o.suppressionId!,
    };
  }

  private async up(step: string, want: Record<string, number>): Promise<boolean> {
    const up = await this.t!.stack.up({ color: "never" });
    const { derivedIds, ...outputs } = up.outputs;
    this.outputs = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, String(v.value)]));
    this.derivedIds = (derivedIds?.value ?? {}) as Record<string, string>;
    const ops = up.summary.resourceChanges;
    const expected = want.create ? `create ≥ ${want.create}` : changed(want as OpMap);
    return this.check(step, exactly(ops, want), `${changed(ops) || "no changes"} (expected ${expected})`);
  }

  /** Nothing to change: what the service answers reads as what state holds (refresh), and as the program says (preview). */
  async unchanged(step: string, how: "preview" | "refresh"): Promise<boolean> {
    if (how === "preview") {
      const preview = await this.t!.stack.preview({ color: "never", diff: true });
      const ops = preview.changeSummary;
      return this.check(`${step}: preview`, exactly(ops, {}), changed(ops) || "0 diffs, 0 replacements");
    }
    const refresh = await this.t!.stack.refresh({ color: "never" });
    const ops = refresh.summary.resourceChanges;
    return this.check(`${step}: refresh`, exactly(ops, {}), changed(ops) || "0 diffs, 0 replacements");
  }

  /** Removes the kinds' resources from state (not from the service), as before adopting them. */
  private async forget(): Promise<void> {
    const deployment = await this.t!.stack.exportStack();
    const names = new Set<string>(this.names());
    const state = deployment.deployment as { resources: Array<{ urn: string; type: string }> };
    state.resources = state.resources.filter(
      (r) => r.type.startsWith("pulumi:") || !names.has(r.urn.split("::").pop()!),
    );
    await this.t!.stack.importStack(deployment);
  }

  private async start(): Promise<void> {
    const r = this.run;
    const config: ConfigMap = {
      "txmail:apiKey": { value: r.apiKey, secret: true },
      "txmail:accountId": { value: r.accountId },
      "txmail:baseUrl": { value: r.baseUrl },
      workspaceKey: { value: r.workspace.apiKey, secret: true },
      workspaceAccountId: { value: r.workspace.accountId },
      workspaceBaseUrl: { value: r.baseUrl },
      ...(r.face === "native" ? { "txmail:face": { value: "native" } } : {}),
    };
    this.t = await createStack(programOf(r.face), r.prefix, config);
  }

  /** Every resource of the kinds, hand-written and derived, by name. */
  private names(): string[] {
    return [...RESOURCES, ...DERIVED_KINDS.map(resourceNameOf)];
  }

  /** Walks every step; a failed step ends the walk, and the stack is destroyed in any case. */
  async walk(options: { steps: "full" | "read" } = { steps: "full" }): Promise<void> {
    const n = this.names().length;
    const derivedChanges = (change: DerivedChange) => derivedAt(1, this.run).filter((r) => r.change === change).length;
    await this.start();
    try {
      await this.setValues(1);
      if (!(await this.up("create", { create: n }))) return;
      if (!(await this.unchanged("read", "refresh"))) return;
      if (options.steps === "read") {
        await this.unchanged("read", "preview");
        return;
      }
      await this.setValues(2);
      if (!(await this.up("update in place", { update: UPDATED.length + derivedChanges("update") }))) return;
      await this.forget();
      await this.setImportIds(this.importIds(valuesAt(2, this.run)));
      // The native face imports (`import` option); the dynamic face adopts (a create that reads).
      const adopted: Record<string, number> = this.run.face === "native" ? { import: n } : { create: n };
      if (!(await this.up("import", adopted))) return;
      if (!(await this.unchanged("after import", "preview"))) return;
      await this.setImportIds({});
      await this.setValues(3);
      await this.up("replace", { replace: REPLACED.length + derivedChanges("replace"), update: 1 });
    } catch (e) {
      this.check("engine", false, engineError(e));
    } finally {
      try {
        const destroyed = await this.t!.stack.destroy({ color: "never" });
        this.check("destroy", true, changed(destroyed.summary.resourceChanges) || "nothing to delete");
      } catch (e) {
        this.check("destroy", false, engineError(e));
      }
      await this.t!.dispose();
    }
  }
}
