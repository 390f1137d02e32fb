// Two accounts in one YAML stack: the default provider (stack config) and an explicit
// `pulumi:providers:txmail` given to a Tenant. The plugin builds each tenant's children with the
// provider its component was given, so each tenant's objects land in its own account. A destroy
// through an explicit provider, emptying its account, is test/e2e/native/lifecycle.test.ts's (the same
// plugin); a YAML stack of Tenants destroyed to nothing, yamlTenants.test.ts's.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient } from "../../../support/control";
import { createTestStack, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);

const program = `name: yaml-two-accounts
runtime: yaml
config:
  otherBaseUrl: { type: string }
  otherAccountId: { type: string }
  otherApiKey: { type: string, secret: true }
resources:
  other:
    type: pulumi:providers:txmail
    properties:
      baseUrl: \${otherBaseUrl}
      accountId: \${otherAccountId}
      apiKey: \${otherApiKey}
  home:
    type: txmail:index:Tenant
    properties:
      website: home.example.com
      domain: { domain: mail.home.example.com }
      bootstrapKey: { ipAllowList: [127.0.0.1] }
  away:
    type: txmail:index:Tenant
    properties:
      website: away.example.com
      domain: { domain: mail.away.example.com }
      bootstrapKey: { ipAllowList: [127.0.0.1] }
    options:
      provider: \${other}
`;

let home: TestService;
let away: TestService;
let t: TestStack | undefined;
beforeAll(async () => {
  home = await startService();
  away = await startService();
});
afterAll(async () => {
  await t?.dispose();
  await home?.close();
  await away?.close();
});

/** What the program made in one emulator: sub account names and domain names. */
async function made(svc: TestService) {
  const d = await controlClient(svc).dumpState();
  return {
    subAccounts: d.accounts
      .filter((a) => a.parent_account_id !== null && a.status !== "deleted")
      .map((a) => String(a.name)),
    domains: d.domains.map((x) => x.domain),
  };
}

it("a Tenant given an explicit provider creates all its objects in that provider's account", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-two-accounts-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program);
  t = await createTestStack({
    programDir: dir,
    name: "two-accounts",
    config: {
      ...home.config(),
      otherBaseUrl: { value: away.baseUrl },
      otherAccountId: { value: away.accountId },
      otherApiKey: { value: away.apiKey, secret: true },
    },
  });
  const up = await t.up();
  expect(up.summary.result).toBe("succeeded");
  expect(await made(home)).toEqual({ subAccounts: ["home"], domains: ["mail.home.example.com"] });
  expect(await made(away)).toEqual({ subAccounts: ["away"], domains: ["mail.away.example.com"] });
  // The explicit provider keeps its key encrypted in state.
  expect(await t.exportText()).not.toContain(away.apiKey);
});
