// A Tenant's bootstrap key on the real engine against the strict emulator (which answers 403 for a
// missing scope): it holds what the tenant's objects need, widens in place before new objects are
// created, and narrows one run after objects are removed (Pulumi deletes them after updating the
// key, with the key's old scopes still in place), never replaced.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ApiKey, paths } from "../../provider/api";
import { controlClient } from "../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(15 * 60_000);

let svc: TestService;
let t: TestStack;
let tenantsFile: string;

const tenant = (extra: string) => `tenants:
  - name: scoped
    website: scoped.example.com
    domain: mail.scoped.example.com
    bootstrapKey:
      ipAllowList: [127.0.0.1]
${extra}`;
const ROUTE = `    routes:
      support:
        url: https://scoped.example.com/in
        recipient: support@mail.scoped.example.com
`;

async function bootstrapKey(): Promise<ApiKey> {
  const up = await t.stack.outputs();
  const sub = (up.summary.value as Record<string, { subAccountId: string }>).scoped.subAccountId;
  const keys: ApiKey[] = [];
  for await (const k of svc.client.list(paths.subAccountApiKeys(svc.accountId, sub), ApiKey)) keys.push(k);
  return keys.find((k) => k.label === "scoped bootstrap")!;
}
const scopesOf = (k: ApiKey) => (k.scopes as unknown[]).map(String).sort();

beforeAll(async () => {
  svc = await startService();
  tenantsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "txmail-scopes-")), "tenants.yaml");
  fs.writeFileSync(tenantsFile, tenant(""));
  t = await createTestStack({
    programDir: path.join(REPO_ROOT, "examples", "tenants-from-yaml"),
    name: "scopes",
    config: { ...svc.config(), tenantsFile: { value: tenantsFile } },
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

describe("a tenant's bootstrap key follows its declaration", () => {
  let keyId: string;
  const DOMAIN = ["domains:delete:mail.scoped.example.com", "domains:read", "domains:write"];
  const ROUTE_SCOPES = ["read", "write", "delete"].map((v) => `routes:${v}:mail.scoped.example.com`).sort();

  it("holds only what a domain needs", async () => {
    expect((await t.up()).summary.result).toBe("succeeded");
    const key = await bootstrapKey();
    keyId = key.id;
    expect(scopesOf(key)).toEqual(DOMAIN);
  });

  it("widens in place before a new route is created with it", async () => {
    fs.writeFileSync(tenantsFile, tenant(ROUTE));
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1, update: 1 });
    const key = await bootstrapKey();
    expect(key.id).toBe(keyId);
    expect(scopesOf(key)).toEqual([...DOMAIN, ...ROUTE_SCOPES].sort());
    expect((await controlRoutes()).length).toBe(1);
  });

  it("removing the route deletes it with the key's old scopes, and the next up narrows the key", async () => {
    fs.writeFileSync(tenantsFile, tenant(""));
    const removed = await t.up();
    expect(removed.summary.resourceChanges).toMatchObject({ delete: 1 });
    expect(await controlRoutes()).toEqual([]);
    const narrowed = await t.up();
    expect(narrowed.summary.resourceChanges).toMatchObject({ update: 1 });
    const key = await bootstrapKey();
    expect(key.id).toBe(keyId);
    expect(scopesOf(key)).toEqual(DOMAIN);
    // That nothing changes after the narrowing is the key's diff alone:
    // test/unit/resources/subAccountApiKey.test.ts ("narrows one update later, ... then nothing changes").
  });
});

async function controlRoutes(): Promise<unknown[]> {
  return (await controlClient(svc).dumpState()).routes;
}
