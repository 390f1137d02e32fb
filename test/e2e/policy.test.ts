// The policy pack on the real engine: `pulumi preview --policy-pack policy`. No service is
// needed: preview only runs the providers' check, which does not call the API.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";

jest.setTimeout(10 * 60_000);

const pack = path.join(REPO_ROOT, "policy");
let t: TestStack;

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
    // preview never calls the service; the provider only needs to know where it would be.
    config: {
      "txmail:apiKey": { value: "txmail-sk-preview-only", secret: true },
      "txmail:accountId": { value: "11111111-1111-4111-8111-111111111111" },
      "txmail:baseUrl": { value: "http://127.0.0.1:9" },
    },
  });
});

afterAll(() => t?.dispose());

const clean = { label: "ci", scopes: ["messages:send:mail.example.com"], ipAllowList: ["203.0.113.0/24"] };

describe("policy pack on pulumi preview", () => {
  it("passes a clean stack", async () => {
    const r = await previewKey(clean);
    expect(r.stdout).not.toMatch(/mandatory/);
  });

  it("fails a key whose entries together allow every address, naming the rule and the fix", async () => {
    await expect(previewKey({ ...clean, ipAllowList: ["0.0.0.0/1", "128.0.0.0/1"] })).rejects.toThrow(
      /\[mandatory\][^\n]*ip-allow-list-no-allow-all[\s\S]*ApiKey 'it': ipAllowList: together the entries cover every IPv4 address/,
    );
  });

  it("blocks an allow-all entry however it is spelled (provider check and policy agree)", async () => {
    for (const entry of ["0.0.0.0/0", "0:0:0:0:0:0:0:0/0", "::ffff:0:0/96"]) {
      await expect(previewKey({ ...clean, ipAllowList: [entry] })).rejects.toThrow(/allows every|allow-all/);
    }
  });

  it("warns on a very broad prefix without failing, and policy config turns it mandatory", async () => {
    const broad = { ...clean, ipAllowList: ["10.0.0.0/8"] };
    const warned = await previewKey(broad);
    expect(warned.stdout).toMatch(/\[advisory\][^\n]*ip-allow-list-broad-prefix/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-policy-"));
    const config = path.join(dir, "policy-config.json");
    fs.writeFileSync(config, JSON.stringify({ "ip-allow-list-broad-prefix": { enforcementLevel: "mandatory" } }));
    await expect(previewKey(broad, { policyPackConfigs: [config] })).rejects.toThrow(/ip-allow-list-broad-prefix/);

    fs.writeFileSync(config, JSON.stringify({ "ip-allow-list-broad-prefix": { minIPv4PrefixLength: 8 } }));
    const relaxed = await previewKey(broad, { policyPackConfigs: [config] });
    expect(relaxed.stdout).not.toMatch(/ip-allow-list-broad-prefix/);
  });

  it("does not crash on an allow list unknown at preview", async () => {
    const r = await previewKey({ label: "ci", scopes: ["messages:send:mail.example.com"] }, { unknown: true });
    expect(r.stdout).not.toMatch(/mandatory/);
  });
});
