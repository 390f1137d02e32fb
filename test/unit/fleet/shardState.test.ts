// Tenants moved between shard states (fleet/shardState.ts): ids, inputs, outputs and secrets kept,
// URNs renamed, providers mapped to the destination's, idempotent after an interrupted move.
import { type ExportedState, faceIn, moveTenants, tenantsIn, type StateResource } from "../../../fleet/shardState";

const P = "txmail-fleet";
const SIG = "4dabf18193072939515e22adb298388d";
const secret = (v: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(v) });
const u = (stack: string, type: string, name: string) => `urn:pulumi:${stack}::${P}::${type}::${name}`;

function shard(stack: string, tenants: string[], salt: string): ExportedState {
  const root = u(stack, "pulumi:pulumi:Stack", `${P}-${stack}`);
  const prov = u(stack, "pulumi:providers:txmail", "default_0_1_0");
  const provId = `${stack}-prov-id`;
  const resources: StateResource[] = [
    {
      urn: root,
      type: "pulumi:pulumi:Stack",
      custom: false,
      outputs: {
        summary: Object.fromEntries(tenants.map((t) => [t, { subAccountId: `sa-${t}` }])),
        credentials: secret(Object.fromEntries(tenants.map((t) => [t, { bootstrapKey: `key-secret-${t}` }]))),
      },
    },
    { urn: prov, type: "pulumi:providers:txmail", custom: true, id: provId, inputs: { __stackSalt: salt } },
  ];
  for (const t of tenants) {
    const comp = u(stack, "txmail:index:Tenant", t);
    const sub = u(stack, "txmail:index:Tenant$txmail:index:SubAccount", `${t}-sub`);
    resources.push(
      { urn: comp, type: "txmail:index:Tenant", custom: false, parent: root },
      {
        urn: sub,
        type: "txmail:index:SubAccount",
        custom: true,
        id: `sa-${t}`,
        parent: comp,
        provider: `${prov}::${provId}`,
        outputs: { id: `sa-${t}` },
      },
      {
        urn: u(stack, "txmail:index:Tenant$txmail:index:SubAccountApiKey", `${t}-bootstrap`),
        type: "txmail:index:SubAccountApiKey",
        custom: true,
        id: `key-${t}`,
        parent: comp,
        provider: `${prov}::${provId}`,
        dependencies: [sub],
        propertyDependencies: { subAccountId: [sub] },
        outputs: { secretKey: secret(`key-secret-${t}`) },
      },
    );
  }
  return {
    version: 3,
    deployment: { manifest: {}, secrets_providers: { type: "passphrase", state: { salt: stack } }, resources },
  };
}

const where = { source: "shard-001", dest: "shard-002", project: P };

describe("shard state", () => {
  it("lists a stack's tenants and face", () => {
    expect(tenantsIn(shard("shard-001", ["b", "a"], "s1"))).toEqual(["a", "b"]);
    expect(faceIn(shard("shard-001", ["a"], "s1"))).toBe("native");
    expect(faceIn(shard("shard-001", [], "s1"))).toBeUndefined();
  });

  it("moves a tenant's component and resources with their ids, outputs and secrets; only URNs change", () => {
    const src = shard("shard-001", ["a", "b"], "salt-1");
    const dst = shard("shard-002", ["c"], "salt-2");
    const { source, dest, moved } = moveTenants(src, dst, ["a"], where);
    expect(moved).toBe(3);
    expect(tenantsIn(source)).toEqual(["b"]);
    expect(tenantsIn(dest)).toEqual(["a", "c"]);
    const key = dest.deployment.resources!.find((r) => r.id === "key-a")!;
    expect(key.urn).toBe(u("shard-002", "txmail:index:Tenant$txmail:index:SubAccountApiKey", "a-bootstrap"));
    expect(key.parent).toBe(u("shard-002", "txmail:index:Tenant", "a"));
    expect(key.outputs).toEqual({ secretKey: secret("key-secret-a") });
    expect(key.dependencies).toEqual([u("shard-002", "txmail:index:Tenant$txmail:index:SubAccount", "a-sub")]);
    expect(key.propertyDependencies).toEqual({ subAccountId: key.dependencies });
    // The destination's own provider (its salt), not a copy of the source's.
    expect(key.provider).toBe(`${u("shard-002", "pulumi:providers:txmail", "default_0_1_0")}::shard-002-prov-id`);
    expect(dest.deployment.resources!.filter((r) => r.type === "pulumi:providers:txmail")).toHaveLength(1);
    // The component hangs under the destination's root stack.
    expect(dest.deployment.resources!.find((r) => r.urn.endsWith("Tenant::a"))!.parent).toBe(
      u("shard-002", "pulumi:pulumi:Stack", `${P}-shard-002`),
    );
    // Every URN in the destination names the destination stack.
    expect(JSON.stringify(dest)).not.toContain("urn:pulumi:shard-001::");
    // The per-tenant outputs follow, still secret.
    const rootOf = (s: ExportedState) => s.deployment.resources![0]!;
    expect(rootOf(dest).outputs!.summary).toEqual({ c: { subAccountId: "sa-c" }, a: { subAccountId: "sa-a" } });
    expect(rootOf(dest).outputs!.credentials).toEqual(
      secret({ c: { bootstrapKey: "key-secret-c" }, a: { bootstrapKey: "key-secret-a" } }),
    );
    expect(rootOf(source).outputs!.credentials).toEqual(secret({ b: { bootstrapKey: "key-secret-b" } }));
    // The inputs were not touched.
    expect(src.deployment.resources).toHaveLength(8);
  });

  it("into an empty new stack: a root stack made, the provider copied under the new stack's URN", () => {
    const empty: ExportedState = { version: 3, deployment: { manifest: {} } };
    const { dest } = moveTenants(shard("shard-001", ["a"], "s1"), empty, ["a"], where);
    const types = dest.deployment.resources!.map((r) => r.type);
    expect(types.slice(0, 2)).toEqual(["pulumi:pulumi:Stack", "pulumi:providers:txmail"]);
    const prov = dest.deployment.resources![1]!;
    expect(prov.urn).toBe(u("shard-002", "pulumi:providers:txmail", "default_0_1_0"));
    expect(dest.deployment.resources!.find((r) => r.id === "sa-a")!.provider).toBe(`${prov.urn}::shard-001-prov-id`);
    // The source's secrets provider, so the import can read the shown secrets.
    expect(dest.deployment.secrets_providers).toEqual({ type: "passphrase", state: { salt: "shard-001" } });
  });

  it("finishing an interrupted move only takes the tenant out of the source", () => {
    const first = moveTenants(shard("shard-001", ["a", "b"], "s1"), shard("shard-002", [], "s2"), ["a"], where);
    // The source import never happened: the source still holds a.
    const again = moveTenants(shard("shard-001", ["a", "b"], "s1"), first.dest, ["a"], where);
    expect(again.dest.deployment.resources).toEqual(first.dest.deployment.resources);
    expect(tenantsIn(again.source)).toEqual(["b"]);
  });

  it("refuses a source with pending operations (a killed run), naming what to run", () => {
    const src = shard("shard-001", ["a"], "s1");
    src.deployment.pending_operations = [{ type: "creating" }];
    expect(() => moveTenants(src, shard("shard-002", [], "s2"), ["a"], where)).toThrow(
      /shard-001 has pending operations .*txmail-fleet up --tenant a/,
    );
  });
});
