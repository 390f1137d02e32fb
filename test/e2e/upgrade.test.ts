// Upgrade safety, as Pulumi's provider upgrade tests do it: the committed state of stacks made by
// the release before this one (test/fixtures/upgrade/<face>/, written by
// scripts/gen-upgrade-fixtures.sh with that release) is imported into a fresh stack and previewed
// with this build, without a refresh. A user who upgrades must see no replacement and no diff, except
// exactly the steps announced.json lists, each of which CHANGELOG.md's Unreleased section mentions.
// A schema or state-shape change that would replace or update a user's resources fails here.
// On one face the stack then changes its keys' 0.1.x `rotation` string: it still replaces the key,
// and a schedule in its place makes none (the deprecation's stated path).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment, EngineEvent, OpType } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { ApiKey, ApiKeyWithSecret, Route, paths } from "../../provider/api";
import { closeSharedDispatchers, createClient } from "../../provider/client";
import { createKey, programBody } from "../../provider/core/operations/createKey";
import { route as routeDeclaration } from "../../provider/resources/route";
import { NATIVE_DEFAULT_PROVIDER } from "../../support/plugin";
import { createTestStack, type Face, REPO_ROOT, type TestStack } from "./harness";

// Two imports and previews at once, two targeted ups on one of them, and an up: on 2 cores under the suite's load this is minutes;
// the bound only keeps a hang from holding the suite.
jest.setTimeout(10 * 60_000);

const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "upgrade");

interface Fixtures {
  /** The fixture-only passphrase the state and the stack config are encrypted with. */
  passphrase: string;
  stack: string;
  faces: Face[];
}
const fixtures = JSON.parse(fs.readFileSync(path.join(FIXTURES, "fixtures.json"), "utf8")) as Fixtures;

/** A step a user of the release before sees on upgrading, announced in CHANGELOG.md's Unreleased section. */
interface Announced {
  face: Face;
  /** The step's operation ("create", "delete", "update"); a replacement is never acceptable. */
  op: OpType;
  /**
   * The resource's type token and name (`<type>::<name>`, the URN's last two parts);
   * `{nativeDefaultProvider}` stands for the name the engine gives this build's default provider,
   * which changes with every version (support/plugin.ts).
   */
  resource: string;
  /** Words CHANGELOG.md's Unreleased section must contain: where the user reads about this step. */
  changelog: string;
  /** An update's changed inputs, exactly as the engine reports them (its step's `diffs`); none for a create or delete. */
  fields?: string[];
}
const announced = (JSON.parse(fs.readFileSync(path.join(FIXTURES, "announced.json"), "utf8")) as Announced[]).map(
  (a) => ({ ...a, resource: a.resource.replace("{nativeDefaultProvider}", NATIVE_DEFAULT_PROVIDER) }),
);

/** Operations that replace an object at the service. */
const REPLACING: OpType[] = ["replace", "create-replacement", "delete-replaced", "discard-replaced"];

/** The step's resource as announced.json names it: the URN's last two parts. */
const resourceOf = (urn: string) => urn.split("::").slice(-2).join("::");

/** `<kind>::<name>` of a URN, alike on both faces (`…dynamic/txmail:ApiKey`, `txmail:index:ApiKey`). */
function kindAndName(urn: string): string {
  const [type = "", name] = urn.split("::").slice(-2);
  return `${type.split(":").pop()}::${name}`;
}

/** Text with every run of whitespace one space (a mention may wrap across lines). */
const words = (text: string) => text.replace(/\s+/g, " ");

/** The `## [Unreleased]` section of CHANGELOG.md (Keep a Changelog). */
function unreleased(): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
  const start = /^## \[?Unreleased\]?$/m.exec(text)?.index;
  if (start === undefined) throw new Error("CHANGELOG.md has no '## [Unreleased]' section");
  const end = text.indexOf("\n## ", start);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The secret marker of a Pulumi state value (`{"4dabf18193072939515e22adb298388d": "1b47…", …}`). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Paths of values under a secret-named key that are not ciphertext (none in a committed fixture). */
function plaintextSecrets(value: unknown, at = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  if (SECRET_SIG in value) return "ciphertext" in value ? [] : [at];
  return Object.entries(value).flatMap(([key, v]) =>
    /^(apiKey|secretKey|password|secret)$/.test(key) && v !== null && v !== undefined && typeof v !== "object"
      ? [`${at}.${key}`]
      : plaintextSecrets(v, `${at}.${key}`),
  );
}

/** The fixture program's keys that carry 0.1.x's legacy trigger, a `rotation` string. */
const LEGACY_KEYS = ["ApiKey::key", "SubAccountApiKey::sub-key"];

/** The face whose stack, after its preview, also changes the legacy trigger (one face: each is engine runs). */
const LEGACY_FACE: Face = "dynamic";

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}
const resourcesOf = (state: Deployment) => (state.deployment as { resources: StateResource[] }).resources;

interface LegacyKey {
  /** The fixture's state, its account key's id that of a key live at the emulator. */
  state: Deployment;
  urn: string;
  /** The live key the state names. */
  id: string;
  list: () => Promise<string[]>;
}

/**
 * The fixture's account key made live: the emulator is a fresh one, so a key of the same inputs is
 * created there and the state names it (its id alone changes; the rest is 0.1.0's), so that the
 * replacement's delete is seen to happen at the service.
 */
async function liveLegacyKey(
  fixtureState: Deployment,
  at: { accountId: string; apiKey: string; emulator: RunningEmulator },
): Promise<LegacyKey> {
  const key = resourcesOf(fixtureState).find((r) => kindAndName(r.urn) === "ApiKey::key")!;
  const inputs = key.inputs as { label: string; scopes: string[]; ipAllowList: string[] };
  const client = createClient({
    accountId: at.accountId,
    apiKey: at.apiKey,
    baseUrl: at.emulator.baseUrl,
    rateLimit: false,
  });
  const collection = paths.apiKeys(at.accountId);
  const made = (
    await client.post(
      collection,
      { label: inputs.label, scopes: inputs.scopes, ip_allow_list: inputs.ipAllowList },
      ApiKeyWithSecret,
    )
  ).data;
  const resources = resourcesOf(fixtureState).map((r) => (r === key ? { ...r, id: made.id } : r));
  const list = async () => {
    const ids: string[] = [];
    for await (const k of client.list(collection, ApiKey)) if (k.label === inputs.label) ids.push(k.id);
    return ids.sort();
  };
  return {
    state: { ...fixtureState, deployment: { ...fixtureState.deployment, resources } },
    urn: key.urn,
    id: made.id,
    list,
  };
}

/**
 * 0.1.x's trigger keeps its meaning on a 0.1.0 stack, and the documented way off it
 * (docs/guide/rotating-credentials.md#the-legacy-trigger) makes no key: a changed string replaces
 * the key, the new one created before the old one is deleted, in the same run; a schedule in its
 * place is an update that makes none. Targeted ups: the key's steps alone.
 */
async function legacyTriggerThenSchedule(t: TestStack, key: LegacyKey): Promise<void> {
  const stack = t.stack;
  const up = async (rotation: unknown) => {
    await stack.setConfig("upgrade:keyRotation", { value: JSON.stringify(rotation) });
    const steps: OpType[] = [];
    const result = await stack.up({
      color: "never",
      target: [key.urn],
      onOutput: () => undefined,
      onEvent: (e: EngineEvent) => {
        const m = e.resourcePreEvent?.metadata;
        if (m?.urn === key.urn && m.op !== "same") steps.push(m.op);
      },
    });
    expect(result.summary.result).toBe("succeeded");
    // As `pulumi stack export` writes it (the Automation API's exportStack shows secrets).
    const state = resourcesOf(JSON.parse(await t.exportText()) as Deployment).find((r) => r.urn === key.urn)!;
    expect(plaintextSecrets(state)).toEqual([]);
    return { steps, id: state.id!, outputs: state.outputs ?? {} };
  };

  const replaced = await up("2026-02");
  // Create before delete, in one run: the old key is gone, the new one live.
  expect(replaced.steps).toEqual(["create-replacement", "replace", "delete-replaced"]);
  expect(replaced.id).not.toBe(key.id);
  expect(await key.list()).toEqual([replaced.id]);

  const scheduled = await up({ every: "30d", overlap: "7d" });
  // The current key becomes the schedule's first.
  expect(scheduled).toMatchObject({ steps: ["update"], id: replaced.id, outputs: { currentId: replaced.id } });
  expect(scheduled.outputs.nextRotationAt).toEqual(expect.any(String));
  expect(await key.list()).toEqual([replaced.id]);
}

describe("the committed upgrade fixtures", () => {
  it("keep every secret ciphertext, and each announced step is in CHANGELOG.md's Unreleased section", () => {
    for (const face of fixtures.faces) {
      const state = JSON.parse(fs.readFileSync(path.join(FIXTURES, face, "state.json"), "utf8")) as {
        deployment: { resources: unknown[] };
      };
      expect(plaintextSecrets(state.deployment.resources, face)).toEqual([]);
      // Made with 0.1.x's legacy trigger on the keys: what the preview below proves unchanged.
      const legacy = (state.deployment.resources as StateResource[])
        .filter((r) => LEGACY_KEYS.includes(kindAndName(r.urn)))
        .map((r) => r.inputs?.rotation);
      expect({ face, legacy }).toEqual({ face, legacy: ["2026-01", "2026-01"] });
      const config = fs.readFileSync(path.join(FIXTURES, face, `Pulumi.${fixtures.stack}.yaml`), "utf8");
      expect(config).toMatch(/^encryptionsalt: v1:/m);
      expect(config).toMatch(/txmail:apiKey:\n\s+secure: v1:/);
    }
    const section = words(unreleased());
    for (const a of announced)
      expect({ ...a, inUnreleased: section.includes(words(a.changelog)) }).toMatchObject({ inUnreleased: true });
  });
});

// The faces at once: each is an import and a preview, mostly waiting on processes.
describe("stacks of the release before", () => {
  it.concurrent.each(fixtures.faces)(
    "%s face: previews with no replacement and exactly the announced steps (dynamic: then the legacy trigger)",
    async (face) => {
      const fixtureDir = path.join(FIXTURES, face);
      const fixtureState = JSON.parse(fs.readFileSync(path.join(fixtureDir, "state.json"), "utf8")) as Deployment;
      const fixtureResources = (fixtureState.deployment as { resources: { urn: string; type: string }[] }).resources;
      const t = await createTestStack({
        programDir: path.join(FIXTURES, "program"),
        stackName: fixtures.stack,
        // As `npm install pulumi-txmail` leaves it, as the fixture's stacks were made.
        packageLayout: "installed",
        face,
        env: { PULUMI_CONFIG_PASSPHRASE: fixtures.passphrase },
      });
      let emulator: RunningEmulator | undefined;
      let legacy: LegacyKey | undefined;
      try {
        // The fixture's own stack config: its salt encrypts the API key kept there.
        const configFile = fs.readFileSync(path.join(fixtureDir, `Pulumi.${fixtures.stack}.yaml`), "utf8");
        fs.writeFileSync(path.join(t.stack.workspace.workDir, `Pulumi.${fixtures.stack}.yaml`), configFile);
        // The stack's config is the fixture's; an emulator of that account answers if a step asks it
        // (a preview without refresh reads nothing, so it needs none of the fixture's objects). Its
        // URL reaches the engine as the fixture's stacks had theirs: TXMAIL_BASE_URL, not in state.
        const accountId = /txmail:accountId: (\S+)/.exec(configFile)![1]!;
        const apiKey = (await t.stack.getConfig("txmail:apiKey")).value;
        emulator = await startEmulator({ port: 0, accountId, apiKey });
        t.stack.workspace.envVars.TXMAIL_BASE_URL = emulator.baseUrl;
        if (face === LEGACY_FACE) legacy = await liveLegacyKey(fixtureState, { accountId, apiKey, emulator });
        await t.stack.importStack(legacy?.state ?? fixtureState);

        // Every step as the engine reports it, default providers' too (the CLI's display hides those).
        const steps: { op: OpType; resource: string; diffs?: string[]; keys?: string[] }[] = [];
        await t.stack.preview({
          color: "never",
          onOutput: () => undefined,
          onEvent: (e: EngineEvent) => {
            const m = e.resourcePreEvent?.metadata;
            if (m) steps.push({ op: m.op, resource: resourceOf(m.urn), diffs: m.diffs, keys: m.keys });
          },
        });
        const changed = steps.filter((s) => s.op !== "same");
        // Replacements first: announced or not, an upgrade never replaces a user's objects.
        expect(changed.filter((s) => REPLACING.includes(s.op))).toEqual([]);
        // Each announced step with its changed fields: an update must change exactly the fields it announces.
        const expected = announced
          .filter((a) => a.face === face)
          .map(({ op, resource, fields }) => ({ op, resource, fields: [...(fields ?? [])].sort() }));
        const seen = changed.map(({ op, resource, diffs }) => ({ op, resource, fields: [...(diffs ?? [])].sort() }));
        expect(seen).toEqual(expect.arrayContaining(expected));
        expect(changed).toHaveLength(expected.length);
        // Every resource of the fixture was previewed and found the same (providers aside: above).
        const resources = fixtureResources.filter((r) => !r.type.startsWith("pulumi:providers:"));
        const same = steps.filter((s) => s.op === "same" && !s.resource.startsWith("pulumi:providers:"));
        expect(same.map((s) => s.resource).sort()).toEqual(resources.map((r) => resourceOf(r.urn)).sort());

        if (legacy) await legacyTriggerThenSchedule(t, legacy);
      } finally {
        if (legacy) await closeSharedDispatchers();
        await emulator?.close();
        await t.dispose();
      }
    },
  );
});

// A create the release before committed at the service and never recorded (its run was killed),
// then this build, on the native face, whose default provider the engine renames with the version.
// The salt lives in the stack's state alone — never in configuration, which travels through git to
// every clone (provider/core/pinnedSalt.ts) — and the renamed provider keeps a salt of its own: the
// rerun's key is not the killed create's. The limit (docs/guide/behaviour.md#the-stack-salt): the
// provider says so, refuses nothing it could not prove, and leaves the earlier object untouched.
describe("a create killed on the release before, rerun with this build", () => {
  it("native face: the new default provider says its salt is new; the earlier object is left untouched", async () => {
    const fixtureDir = path.join(FIXTURES, "native");
    const fixtureState = JSON.parse(fs.readFileSync(path.join(fixtureDir, "state.json"), "utf8")) as Deployment;
    const resources = (fixtureState.deployment as { resources: Array<Record<string, unknown>> }).resources;
    const routeUrn = resources.map((r) => String(r.urn)).find((urn) => urn.endsWith("::txmail:index:Route::route"))!;
    const killed = resources.find((r) => r.urn === routeUrn)!;
    const oldSalt = resources.find((r) => String(r.urn).endsWith("::pulumi:providers:txmail::default"))!.inputs as {
      __stackSalt: string;
    };
    const t = await createTestStack({
      programDir: path.join(FIXTURES, "program"),
      stackName: fixtures.stack,
      packageLayout: "installed",
      face: "native",
      env: { PULUMI_CONFIG_PASSPHRASE: fixtures.passphrase, PULUMI_SKIP_CHECKPOINTS: "true" },
    });
    let emulator: RunningEmulator | undefined;
    try {
      const configFile = fs.readFileSync(path.join(fixtureDir, `Pulumi.${fixtures.stack}.yaml`), "utf8");
      fs.writeFileSync(path.join(t.stack.workspace.workDir, `Pulumi.${fixtures.stack}.yaml`), configFile);
      // The state as the killed run left it: without the route, whose create was never recorded.
      const deployment = { ...fixtureState.deployment, resources: resources.filter((r) => r !== killed) };
      await t.stack.importStack({ ...fixtureState, deployment });
      const accountId = /txmail:accountId: (\S+)/.exec(configFile)![1]!;
      const apiKey = (await t.stack.getConfig("txmail:apiKey")).value;
      emulator = await startEmulator({ port: 0, accountId, apiKey });
      t.stack.workspace.envVars.TXMAIL_BASE_URL = emulator.baseUrl;

      // What the killed run's create sent: its key (the old provider's salt) and its body (the
      // release before sent the program's fields as given; this build sends the canonical form,
      // so the rerun is proven through the key rather than replayed: operations/proof.ts).
      const inputs = { ...(killed.inputs as Record<string, unknown>), __stackSalt: oldSalt.__stackSalt };
      const body = programBody(routeDeclaration, inputs);
      const conn = { accountId, apiKey, baseUrl: emulator.baseUrl };
      const collection = routeDeclaration.collectionPath(conn);
      const key = createKey(routeDeclaration, inputs, { urn: routeUrn, accountId, path: collection }, 0);
      const client = createClient({ ...conn, rateLimit: false });
      const made = (await client.post(collection, body, Route, { idempotencyKey: key })).data;

      // State written once per run: the new provider's salt is saved when the run ends, so its
      // creates are refused (nothing sent) and the next run makes them.
      let said = "";
      const first = t.stack.up({ color: "never", onOutput: (text) => (said += text) });
      await expect(first).rejects.toThrow(/txmail-salt-not-saved/);
      expect(said).toContain("this stack's txmail provider changed");
      const up = await t.stack.up({ color: "never", onOutput: () => undefined });
      expect(up.summary.result).toBe("succeeded");
      const after = (await t.stack.exportStack()).deployment as { resources: Array<Record<string, unknown>> };
      const recorded = after.resources.find((r) => r.urn === routeUrn)?.id;
      // The renamed default provider keeps a salt of its own, born in the state.
      const provider = after.resources.find((r) => String(r.urn).endsWith(`::${NATIVE_DEFAULT_PROVIDER}`));
      expect((provider?.inputs as { __stackSalt?: string })?.__stackSalt).not.toBe(oldSalt.__stackSalt);
      // Not recognised, so not touched: the killed create's object is as it was, beside the new one.
      expect(recorded).not.toBe(made.id);
      expect(await client.get(`${collection}/${made.id}`, Route)).toEqual(made);
      const routes = [];
      for await (const r of client.list(collection, Route)) if (r.name === made.name) routes.push(r.id);
      expect(routes.sort()).toEqual([made.id, recorded].sort());
    } finally {
      await closeSharedDispatchers();
      await emulator?.close();
      await t.dispose();
    }
  });
});
