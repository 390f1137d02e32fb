// The policy pack on the real engine: `pulumi preview --policy-pack policy`. No service is
// needed: preview only runs the providers' check, which does not call the API.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseViolations } from "../../policy/tools/previewComment";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";

jest.setTimeout(10 * 60_000);

const pack = path.join(REPO_ROOT, "policy");
let t: TestStack;
/** Preview never calls the service; the provider only needs to know where it would be. */
const OFFLINE = {
  "txmail:apiKey": { value: "txmail-sk-preview-only", secret: true },
  "txmail:accountId": { value: "11111111-1111-4111-8111-111111111111" },
  "txmail:baseUrl": { value: "http://127.0.0.1:9" },
};

async function previewKey(
  args: Record<string, unknown>,
  opts: { policyPackConfigs?: string[]; unknown?: boolean } = {},
) {
  await t.stack.setConfig("kind", { value: "ApiKey" });
  await t.stack.setConfig("args", { value: JSON.stringify(args) });
  await t.stack.setConfig("unknownAllowList", { value: String(opts.unknown ?? false) });
  return t.preview({ policyPacks: [pack], policyPackConfigs: opts.policyPackConfigs });
}

beforeAll(async () => {
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "one"),
    name: "policy",
    config: OFFLINE,
  });
});

afterAll(() => t?.dispose());

/** A `--policy-pack-config` file holding `config`. */
function writePolicyConfig(config: Record<string, unknown>): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "txmail-policy-")), "policy-config.json");
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

/** `s` as a literal inside a RegExp. */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const clean = { label: "ci", scopes: ["messages:send:mail.example.com"], ipAllowList: ["203.0.113.0/24"] };

describe("policy pack on pulumi preview", () => {
  // A key whose entries together allow every address: the provider's check (like the service)
  // accepts it — the native test below previews it without the pack, and the check is the same
  // code below both faces — so the pack's mandatory rule is what stops it.
  it("fails a key whose entries together allow every address, which only the pack blocks", async () => {
    const union = { ...clean, ipAllowList: ["0.0.0.0/1", "128.0.0.0/1"] };
    await expect(previewKey(union)).rejects.toThrow(
      /\[mandatory\][^\n]*ip-allow-list-no-allow-all[\s\S]*ApiKey 'it': ipAllowList: together the entries cover every IPv4 address/,
    );
  });

  // The pack matches both faces' type tokens (provider/api/typeTokens.ts): the same unsafe key,
  // registered through the native provider as `txmail:index:ApiKey`, is blocked the same way.
  it("fails the same key registered through the native provider (txmail:index:ApiKey)", async () => {
    const union = { ...clean, ipAllowList: ["0.0.0.0/1", "128.0.0.0/1"] };
    const native = await createTestStack({
      programDir: path.join(__dirname, "programs", "one"),
      name: "policy-native",
      face: "native",
      config: { ...OFFLINE, kind: { value: "ApiKey" }, args: { value: JSON.stringify(union) } },
    });
    try {
      // Without the pack the native provider's check lets it through, as the dynamic one does…
      const unguarded = await native.preview({ diff: true });
      expect(unguarded.stdout).toMatch(/\+ txmail:index:ApiKey: \(create\)/);
      expect(unguarded.stdout).not.toMatch(/pulumi-nodejs:dynamic\/txmail:ApiKey/);
      // …and with it, the pack's mandatory rule stops the preview.
      await expect(native.preview({ policyPacks: [pack] })).rejects.toThrow(
        /\[mandatory\][^\n]*ip-allow-list-no-allow-all[\s\S]*ApiKey 'it': ipAllowList: together the entries cover every IPv4 address/,
      );
    } finally {
      await native.dispose();
    }
  });

  // Allow-all spellings, each in a preview of its own (a preview stops at the first failing
  // resource). Every spelling canonicalisation knows is checked against the pack's rule in
  // test/unit/policy/allowAll.test.ts and against the provider's check (the same contract-layer
  // canonicalisation) in test/unit/api/cidr.test.ts; here, on the real engine, one spelling per
  // path proves the wiring, one family each: a plain IPv4 one through the provider's check and the
  // pack, an unusual IPv6 one through the pack alone. (The provider's check of an IPv6 allow-all
  // on the real engine is test/e2e/badInput.test.ts's "allow-all IPv6 spelling", on both faces.)
  const allowAllSpellings: Array<[string, "IPv4" | "IPv6"]> = [["0.0.0.0/0", "IPv4"]];
  const unusualAllowAllSpellings: Array<[string, "IPv4" | "IPv6"]> = [["0:0:0:0:0:0:0:0/0", "IPv6"]];

  it.each(allowAllSpellings)("allow-all %s: the provider's check and the pack each block it", async (entry, family) => {
    const err = await previewKey({ ...clean, ipAllowList: [entry] }).then(
      () => "preview passed",
      (e: unknown) => String(e),
    );
    const message = `ipAllowList\\[0\\]: '${escape(entry)}' allows every ${family} address`;
    expect(err).toMatch(new RegExp(`error: [^\\n]*resource 'it': [^\\n]*${message}`)); // the check
    expect(err).toMatch(new RegExp(`\\[mandatory\\][^\\n]*ip-allow-list-no-allow-all[\\s\\S]*ApiKey 'it': ${message}`));
  });

  describe("the pack on its own (a key no provider check has vetted: programs/unchecked-key)", () => {
    let raw: TestStack;
    beforeAll(async () => {
      raw = await createTestStack({
        programDir: path.join(__dirname, "programs", "unchecked-key"),
        name: "policy-raw",
      });
    });
    afterAll(() => raw?.dispose());

    const previewRaw = async (ipAllowList: string[], policyPacks = [pack]) => {
      await raw.stack.setConfig("ipAllowList", { value: JSON.stringify(ipAllowList) });
      return raw.preview({ policyPacks });
    };

    // (The pack letting a safe key through: every example previews with 0 findings, below.)
    it("the stand-in provider accepts anything: only the pack can block", async () => {
      expect((await previewRaw(["0.0.0.0/0"], [])).changeSummary).toEqual({ create: 2 });
    });

    it.each(unusualAllowAllSpellings)("blocks allow-all %s as a mandatory violation", async (entry, family) => {
      await expect(previewRaw([entry])).rejects.toThrow(
        new RegExp(
          `\\[mandatory\\][^\\n]*ip-allow-list-no-allow-all[\\s\\S]*ApiKey 'it': ipAllowList\\[0\\]: '${escape(entry)}' allows every ${family} address`,
        ),
      );
    });
  });

  // A policy config that makes an advisory rule mandatory, through the engine, is the fleet's
  // preview with the pack (test/e2e/fleet/fleet.test.ts: sub-account-key-requires-allow-list made
  // mandatory fails its shard); here, a rule's own setting.
  it("warns on a very broad prefix without failing, and policy config relaxes the rule", async () => {
    const broad = { ...clean, ipAllowList: ["10.0.0.0/8"] };
    const warned = await previewKey(broad);
    expect(warned.stdout).toMatch(/\[advisory\][^\n]*ip-allow-list-broad-prefix/);

    const config = writePolicyConfig({ "ip-allow-list-broad-prefix": { minIPv4PrefixLength: 8 } });
    const relaxed = await previewKey(broad, { policyPackConfigs: [config] });
    expect(relaxed.stdout).not.toMatch(/ip-allow-list-broad-prefix/);
  });

  it("does not crash on an allow list unknown at preview", async () => {
    const r = await previewKey({ label: "ci", scopes: ["messages:send:mail.example.com"] }, { unknown: true });
    expect(r.stdout).not.toMatch(/mandatory/);
  });
});

// Quiet by default (issue 17): every example, and the demo stack of scripts/demo.sh (the root
// Pulumi.yaml runs examples/tenants-from-yaml), previews under the pack's default configuration
// with no finding at all (minimal, key-rotation and adopt-existing in their ups in
// test/e2e/examples.test.ts); a tenant as a new user writes it gets only the finding that is real:
// its bootstrap key has no allow list and manages the tenant's objects, which fails the preview
// (issue 65: a missing list is allow-all). Accepted by name in the policy config, the same key is
// one advisory (the pack lowers that one finding of a mandatory policy, and the engine honours it),
// and a really broad app key still gets its one advisory.
describe("findings under the pack's defaults", () => {
  const offline = {
    "txmail:apiKey": { value: "txmail-sk-preview-only", secret: true },
    "txmail:accountId": { value: "11111111-1111-4111-8111-111111111111" },
    "txmail:baseUrl": { value: "http://127.0.0.1:9" },
  };
  /** The findings of a preview under the pack, whether it passes or a mandatory one fails it. */
  const previewFindings = async (
    programDir: string,
    config: Record<string, { value: string }> = {},
    policyConfig?: Record<string, unknown>,
  ) => {
    const s = await createTestStack({ programDir, name: "findings", config: { ...offline, ...config } });
    try {
      const policyPackConfigs = policyConfig ? [writePolicyConfig(policyConfig)] : undefined;
      // A failed preview throws; its message holds the CLI's output, the Policies section included.
      const output = await s.preview({ policyPacks: [pack], policyPackConfigs }).then(
        (r) => r.stdout,
        (e: unknown) => `${String(e)}\nPREVIEW FAILED`,
      );
      const findings = parseViolations(output).map((v) => `${v.level} ${v.policy} ${v.resource.split(": ").pop()}`);
      return output.endsWith("PREVIEW FAILED") ? [...findings, "preview failed"] : findings;
    } finally {
      await s.dispose();
    }
  };
  it("examples/tenants-from-yaml: 0 mandatory, 0 advisory", async () => {
    expect(await previewFindings(path.join(REPO_ROOT, "examples", "tenants-from-yaml"))).toEqual([]);
  });

  it("the demo stack (root Pulumi.yaml) is the tenants example", () => {
    expect(fs.readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8")).toMatch(
      /^main: examples\/tenants-from-yaml\/index\.ts$/m,
    );
  });

  it("one default tenant: its bootstrap key without a list fails; accepted in config, it and a broad app key are advisories", async () => {
    const program = path.join(__dirname, "programs", "tenant");
    expect(await previewFindings(program)).toEqual([
      "mandatory sub-account-key-requires-allow-list acme-bootstrap",
      "preview failed",
    ]);
    const broad = await previewFindings(
      program,
      { appKeyScopes: { value: JSON.stringify(["routes:write:all"]) } },
      { "sub-account-key-requires-allow-list": { keysWithoutAllowList: ["acme-bootstrap"] } },
    );
    expect(broad.sort()).toEqual([
      "advisory api-key-broad-scopes acme-app",
      "advisory sub-account-key-requires-allow-list acme-bootstrap",
    ]);
  });
});
