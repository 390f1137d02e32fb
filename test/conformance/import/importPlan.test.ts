// txmail-import-plan (the built command, as users run it) against the emulator: objects made out of
// band over HTTP, in the parent and in a sub account (listed with the sub account's own key and an
// explicit provider). Every id it writes is one the provider's import read resolves to that object,
// so `pulumi import --file` of the plan imports each of them.
import { spawn } from "node:child_process";
import * as path from "node:path";
import { closeSharedDispatchers } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider } from "../../../provider/core/factory";
import { readForImport } from "../../../provider/core/importRead";
import { declarationOf } from "../../../provider/resources";
import { REPO_ROOT } from "../../../support/root";
import { type Emu, makeKey, makeSub, start } from "../emulator/helpers";

const CLI = path.join(REPO_ROOT, "dist/native/importPlan/cli.js");
const PROVIDER_URN = "urn:pulumi:dev::tenants::pulumi:providers:txmail::acme";
let emu: Emu;

beforeAll(async () => {
  emu = await start();
});
afterAll(async () => {
  await closeSharedDispatchers();
  await emu?.close();
});

/** Runs the command without blocking this process (the emulator answers from it). */
function plan(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", TXMAIL_BASE_URL: emu.baseUrl, ...env },
      timeout: 30_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

async function post(pathRest: string, body: unknown, accountId?: string, key?: string) {
  const r = await emu.req("POST", emu.acct(pathRest, accountId), { body, key });
  if (r.status !== 201) throw new Error(`${pathRest}: ${r.status} ${r.text}`);
  return r.body;
}

describe("txmail-import-plan", () => {
  it("lists a parent account's objects with the ids pulumi import takes, unique names and one-time secret notes", async () => {
    const sub = await makeSub(emu, "Acme Corp");
    const subKey = await makeKey(emu, ["domains:read"], {}, sub.id);
    await post("/domains", { domain: "mail.plan.example.com" });
    const route = await post("/routes", { name: "inbound", url: "https://plan.example.com/in", recipient: "" });
    const webhook = await post("/webhooks", { name: "inbound", url: "https://plan.example.com/h", scope: "global" });
    const smtp = await post("/smtp-credentials", { name: "relay", scope: "global" });
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const suppression = (await post("/suppressions", { email: "gone@plan.example.com", expires_at: expires })).data[0];
    await post("/members", { email: "dev@plan.example.com", role: "Developer" });

    const r = await plan([], { TXMAIL_API_KEY: emu.apiKey, TXMAIL_ACCOUNT_ID: emu.accountId });
    expect(r.stderr).toMatch(
      /account .*: \d+ ApiKey, 1 SubAccount, 1 SubAccountApiKey, 1 Domain, 1 Route, 1 Webhook, 1 SmtpCredential, 1 Suppression\./,
    );
    expect(r.stderr).toMatch(/AccountMember skipped: \d+ member\(s\) not listed: .*<email>\/<userId>/);
    expect(r.stderr).toMatch(
      /ApiKey\.secretKey, SubAccountApiKey\.secretKey, Route\.secret, Webhook\.secret, SmtpCredential\.password only at creation/,
    );
    expect(r.stderr).not.toContain(emu.apiKey);
    expect(r.status).toBe(0);
    const file = JSON.parse(r.stdout);
    expect(file.nameTable).toBeUndefined();
    const byType = (kind: string) => file.resources.filter((x: { type: string }) => x.type === `txmail:index:${kind}`);
    expect(byType("SubAccount")).toEqual([{ type: "txmail:index:SubAccount", name: "acme-corp", id: sub.id }]);
    expect(byType("SubAccountApiKey")).toEqual([expect.objectContaining({ id: `${sub.id}/${subKey.id}` })]);
    expect(byType("Domain")).toEqual([
      { type: "txmail:index:Domain", name: "mail-plan-example-com", id: "mail.plan.example.com" },
    ]);
    expect(byType("Route")).toEqual([{ type: "txmail:index:Route", name: "inbound", id: route.id }]);
    expect(byType("Webhook")).toEqual([{ type: "txmail:index:Webhook", name: "inbound-2", id: webhook.id }]);
    expect(byType("SmtpCredential")).toEqual([expect.objectContaining({ name: "relay", id: smtp.id })]);
    expect(byType("Suppression")).toEqual([expect.objectContaining({ id: suppression.id })]);
    expect(new Set(file.resources.map((x: { name: string }) => x.name)).size).toBe(file.resources.length);

    // Every id resolves through the provider's import read to an object of that kind.
    process.env.TXMAIL_API_KEY = emu.apiKey;
    process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
    process.env.TXMAIL_BASE_URL = emu.baseUrl;
    for (const res of file.resources as Array<{ type: string; id: string }>) {
      const kind = res.type.split(":")[2]!;
      const declaration = declarationOf(kind)!;
      await expect(readForImport(declaration, makeProvider(declaration, apiFor), res.id)).resolves.toMatchObject({
        inputs: expect.any(Object),
      });
    }
  });

  it("lists a sub account's objects with its own key, through the explicit provider named", async () => {
    const sub = await makeSub(emu, "Beta");
    const key = await makeKey(
      emu,
      ["domains:read", "domains:write", "routes:read:all", "routes:write:all"],
      {},
      sub.id,
    );
    await post("/domains", { domain: "mail.beta.example.com" }, sub.id, key.secret);
    await post("/routes", { name: "beta in", url: "https://beta.example.com/in", recipient: "" }, sub.id, key.secret);

    const r = await plan(["--account", sub.id, "--provider", `acme=${PROVIDER_URN}`], { TXMAIL_API_KEY: key.secret });
    expect(r.status).toBe(0);
    const file = JSON.parse(r.stdout);
    expect(file).toEqual({
      nameTable: { acme: PROVIDER_URN },
      resources: [
        { type: "txmail:index:Domain", name: "mail-beta-example-com", id: "mail.beta.example.com", provider: "acme" },
        expect.objectContaining({ type: "txmail:index:Route", name: "beta-in", provider: "acme" }),
      ],
    });
    // Families this key may not read are skipped, naming the scope.
    expect(r.stderr).toMatch(/SubAccount skipped: the API key may not list them \(needs sub-accounts:read/);
    expect(r.stderr).toMatch(/Webhook skipped: .*webhooks:read:all/);
    expect(r.stderr).not.toContain(key.secret);
  });

  it("stops with the flag and the rule on bad input, and the usage", async () => {
    const r = await plan(["--account", "acme"], { TXMAIL_API_KEY: "k" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^txmail-import-plan: --account: must be an account id/);
    expect(r.stderr).toMatch(/usage: TXMAIL_API_KEY=<key> txmail-import-plan/);
    expect(r.stdout).toBe("");
  });
});
