// A kind in five hand-written files (docs/development/adding-a-kind.md), proved on a throwaway one:
// a copy of the tree (its tracked files, node_modules linked) gets a `Tag` kind — a managed object
// with a name and a value — written as exactly the five files the checklist lists, then the
// generators the checklist names, then the copy's type-check, then a test of the new kind written
// into the copy (its contract, its emulator handler and dump section, its create/read/update/delete
// through the generic provider, the policy pack's scopes for it, its SDK class, its place among the
// acceptance run's derived kinds). Nothing else of the tree is edited: what a kind needs besides its
// five files is derived.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";

/** The tracked files the copy needs: sources, generators, configuration (no generated SDKs, docs or benchmarks). */
const NEEDED =
  /^(provider|sdk\/nodejs|native|emulator|policy|fleet|acceptance|support|docs\/codegen|tools\/codegen)\/|^(Pulumi\.yaml|scripts\/setup\.sh|scripts\/gen-kinds\.js|package\.json|tsconfig\.json|jest\.config\.js|test\/tsconfig\.json)$/;

/** The five files of the kind, by path. */
const FIVE: Record<string, string> = {
  "provider/api/tag.ts": `// Tags: a name and a value, kept per account.
import { z } from "zod";
import { ListOf, Name, Timestamp, Uuid } from "./common";
import type { CreateForm } from "./createForm";
import { A, create, read, remove, update } from "./endpoint";
import { defineKind, manage } from "./kind";

export const Tag = z.object({
  object: z.literal("tag"),
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  name: Name,
  value: z.string().max(255),
});
export type Tag = z.infer<typeof Tag>;

export const CreateTag = z.strictObject({ name: Name, value: z.string().max(255) });
export const CreateTagForm = { defaults: {} } satisfies CreateForm<z.infer<typeof CreateTag>>;
export const UpdateTag = z.strictObject({ name: Name.optional(), value: z.string().max(255).optional() });

export const tagEndpoints = {
  listTags: read(\`\${A}/tags\`, ListOf(Tag)),
  createTag: create(\`\${A}/tags\`, CreateTag, Tag),
  getTag: read(\`\${A}/tags/{tag_id}\`, Tag),
  updateTag: update(\`\${A}/tags/{tag_id}\`, UpdateTag, Tag),
  deleteTag: remove(\`\${A}/tags/{tag_id}\`),
} as const;

/** Tags are account settings: no \`{domain}\` scopes. */
export const TagKind = defineKind({
  order: 110,
  managed: true,
  manage: manage({}, () => ["accounts:read", "accounts:write"]),
});
`,
  "emulator/handlers/tags.ts": `// Tags: create, list, get, update, delete.
import { CreateTag, type Tag, UpdateTag } from "../../provider/api";
import type { Ctx, EmulatedEndpoints } from "../context";
import { uuid } from "../crypto";
import { PAGE_QUERY, listPage } from "../pagination";
import { parseBody } from "../validate";
import { DELETED, created, ok, ownedObject } from "./common";

/** What this file stores: a row's type and its section of the state dump. */
export const STORED = { tag: "tags" } as const;

type TagData = Tag & { account_id: string };
const record = ({ account_id: _, ...tag }: TagData): Tag => tag;
const target = (ctx: Ctx) => ownedObject<TagData>(ctx, "tag", "tag_id", "tag");

function add(ctx: Ctx) {
  const b = parseBody(CreateTag, ctx.json());
  const now = ctx.iso();
  const t: TagData = { object: "tag", id: uuid(), created_at: now, updated_at: now, ...b, account_id: ctx.account.id };
  ctx.svc.objects.insert("tag", t.id, ctx.account.id, t);
  return created(record(t));
}

function change(ctx: Ctx) {
  const t = { ...target(ctx), ...parseBody(UpdateTag, ctx.json()), updated_at: ctx.iso() };
  ctx.svc.objects.update(t.id, t);
  return ok(record(t));
}

function remove(ctx: Ctx) {
  ctx.svc.objects.delete(target(ctx).id);
  return ok({ message: DELETED });
}

const read = { fixed: "accounts:read" };
const write = { fixed: "accounts:write" };
export const tags: EmulatedEndpoints = {
  listTags: { scope: read, query: PAGE_QUERY, handler: (ctx) => ok(listPage<TagData, Tag>(ctx.svc.objects, "tag", ctx.account.id, ctx.query, (r) => record(r.data))) },
  createTag: { scope: write, idempotent: "plain", handler: add },
  getTag: { scope: read, handler: (ctx) => ok(record(target(ctx))) },
  updateTag: { scope: write, handler: change },
  deleteTag: { scope: write, handler: remove },
};
`,
  "provider/resources/tag.ts": `// Tags: updated in place.
import { z } from "zod";
import { CreateTag, CreateTagForm, paths, Tag } from "../api";
import type { Declaration } from "../core/declaration";

const inputs = z.object({
  name: CreateTag.shape.name.describe("The tag's name. Updated in place."),
  value: CreateTag.shape.value.describe("The tag's value. Updated in place."),
});

export const tag = {
  kind: "Tag",
  title: (p) => p.name,
  description: "A tag of the account: a name and a value.",
  sdk: { outputs: ["createdAt"] },
  inputs,
  apiFields: ["name", "value"],
  createForm: CreateTagForm,
  replaceOn: [],
  listing: { listed: true },
  record: Tag,
  created: Tag,
  collectionPath: (c) => paths.tags(c.accountId),
  itemPath: (c, _p, id) => paths.tag(c.accountId, id),
  scopes: { read: () => ["accounts:read"], write: () => ["accounts:write"], delete: () => ["accounts:write"] },
} satisfies Declaration<z.infer<typeof inputs>>;
`,
  "docs/examples/Tag/main.pp": `resource team "txmail:index:Tag" {
  name  = "team"
  value = "platform"
}
`,
  // Built, not written out: the citations test would read the path as a page this repository lacks.
  [path.join("docs", "contract", "endpoints", "tags.md")]: `# Tags

## Endpoints

| method and path         | body / query               | success          |
| ----------------------- | -------------------------- | ---------------- |
| \`GET /tags\`             | \`limit\`, \`after\`, \`before\` | 200 list of Tag  |
| \`POST /tags\` (Key)      | CreateTag                  | 201 Tag          |
| \`GET /tags/{tag_id}\`    | —                          | 200 Tag          |
| \`PUT /tags/{tag_id}\`    | UpdateTag                  | 200 Tag          |
| \`DELETE /tags/{tag_id}\` | —                          | 200 \`{message}\`  |
`,
};

/** The copy's test of the new kind (the test, not a file of the kind). */
const TAG_TEST = `import { closeSharedDispatchers } from "../provider/client";
import { apiFor } from "../provider/core/clientApi";
import { makeProvider } from "../provider/core/factory";
import { ENDPOINTS, KINDS, OBJECT_KINDS, paths } from "../provider/api";
import { declarationOf } from "../provider/resources";
import { startEmulator, type RunningEmulator } from "../emulator/server";
import { controlClient, objectsOf } from "../support/control";
import { scopesNeededByKey } from "../policy/lib/managed";
import { dynamicTypeToken } from "../provider/api/typeTokens";
import * as sdk from "../sdk/nodejs";
import * as fields from "../sdk/nodejs/generated/fields";
import { DERIVED_KINDS, RESOURCE_NAMES } from "../acceptance/lifecycle";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
});
afterAll(async () => {
  await closeSharedDispatchers();
  await emu?.close();
});

test("the contract lists the kind, its endpoints and its paths", () => {
  expect(KINDS[KINDS.length - 1]).toBe("Tag");
  expect(OBJECT_KINDS).toContain("Tag");
  expect(ENDPOINTS.createTag.template).toBe("/v2/accounts/{account_id}/tags");
  expect(paths.tag("a", "b")).toBe("/v2/accounts/a/tags/b");
});

test("the generic provider creates, reads, updates and deletes a tag at the emulator", async () => {
  const provider = makeProvider(declarationOf("Tag")!, apiFor);
  const checked = await provider.check({}, { name: "team", value: "platform" });
  expect(checked.failures ?? []).toEqual([]);
  const urn = "urn:pulumi:test::tags::txmail:index:Tag::team";
  const { id, outs } = await provider.create({ ...checked.inputs!, __urn: urn });
  expect(outs).toMatchObject({ name: "team", value: "platform" });
  const dump = () => controlClient(emu).dumpState();
  expect(objectsOf("Tag")(await dump())).toEqual([id]);
  const read = await provider.read!(id, outs);
  expect(read.props).toMatchObject({ name: "team", value: "platform" });
  const news = { ...outs, value: "email" };
  expect((await provider.diff!(id, outs, news)).replaces ?? []).toEqual([]);
  const updated = await provider.update!(id, outs, news);
  expect(updated.outs).toMatchObject({ value: "email" });
  await provider.delete!(id, updated.outs);
  expect(objectsOf("Tag")(await dump())).toEqual([]);
});

test("the policy pack knows the scopes a key needs to manage a tag", () => {
  const resource = { type: dynamicTypeToken("Tag"), props: {}, propertyDependencies: { connection: [{ urn: "key" }] } };
  expect([...(scopesNeededByKey([resource as never]).get("key") as Set<string>)]).toEqual(["accounts:read", "accounts:write"]);
});

// Only the list: deriving the resource reads the example's Pulumi YAML form, which the Go example
// generator writes (\`npm run gen:examples\`, not run in the copy); in the tree the checklist test
// derives every derived kind's resource at each step.
test("the acceptance run walks the kind as a derived one, with no steps written for it", () => {
  expect(DERIVED_KINDS).toContain("Tag");
  expect(Object.keys(RESOURCE_NAMES)).not.toContain("Tag");
});

test("the SDK has its class, registering its inputs and the outputs it exposes", () => {
  expect(typeof (sdk as Record<string, unknown>).Tag).toBe("function");
  expect((fields as Record<string, unknown>).TagRegistration).toEqual({
    inputs: ["name", "value"], writeOnly: [], secretOutputs: [], outputs: ["createdAt"],
  });
});
`;

const run = (cwd: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let copy: string;
beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "throwaway-kind-"));
  const tracked = run(REPO_ROOT, "git", ["ls-files", "-z"])
    .split("\0")
    .filter((f) => NEEDED.test(f));
  for (const file of tracked) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, file), path.join(copy, file));
  }
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(copy, "node_modules"));
});
afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const jestBin = path.join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");

test("a kind written as its five files builds, type-checks and works", () => {
  for (const [file, text] of Object.entries(FIVE)) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.writeFileSync(path.join(copy, file), text);
  }
  // The checklist's generator, `npm run gen:sdk`, step by step (the build without its cache).
  run(copy, process.execPath, ["scripts/gen-kinds.js"]);
  run(copy, process.execPath, [tsc, "-p", "tsconfig.json", "--incremental", "false"]);
  run(copy, process.execPath, ["dist/tools/codegen/generate.js"]);
  // The copy's type-check, with the generated SDK class.
  run(copy, process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit", "--incremental", "false"]);

  fs.mkdirSync(path.join(copy, "test"), { recursive: true });
  fs.writeFileSync(path.join(copy, "test", "tag.test.ts"), TAG_TEST);
  try {
    run(copy, process.execPath, [jestBin, "--ci", "--runInBand", "--rootDir", copy, "test/tag.test.ts"]);
  } catch (e) {
    // Jest reports on stderr: the copy's failures, shown here.
    throw new Error(`the copy's test of the new kind failed:\n${(e as { stderr?: string }).stderr ?? e}`, {
      cause: e,
    });
  }
}, 240_000);
