// Why the dynamic face offers `adoptId` instead of `pulumi import` / the `import` option: the engine
// imports by calling the provider's `read` without prior state, and a dynamic resource's provider
// lives in that state (`__provider`), so the import fails before our code runs
// (pulumi/pulumi#16175). Shown on the CLI and SDK this project runs (3.274.1 / 3.270.0). If an upgrade
// fixes it, this test fails: then the dynamic face could offer imports too (docs/guide/resources.md#adopting-existing-objects,
// sdk/nodejs/internal/common.ts).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { z } from "zod";
import { paths } from "../../../provider/api";
import { controlClient, serviceObjects } from "../../../support/control";
import { createTestStack, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(5 * 60_000);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";
const cfg = new pulumi.Config();
new txmail.ApiKey("ci", { label: "ci", scopes: ["domains:read"] }, { import: cfg.require("importId") });
`;

let svc: TestService;
let t: TestStack;

beforeAll(async () => {
  svc = await startService();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-dynamic-import-"));
  const one = path.join(__dirname, "..", "programs", "one");
  for (const f of ["package.json", "tsconfig.json"]) fs.copyFileSync(path.join(one, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: txmail-dynamic-import\nruntime: nodejs\nmain: index.ts\n");
  fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
  const made = await svc.client.post(
    paths.apiKeys(svc.accountId),
    { label: "ci", scopes: ["domains:read"] },
    z.object({ id: z.string() }),
  );
  t = await createTestStack({
    programDir: dir,
    name: "dynamic-import",
    config: { ...svc.config(), importId: { value: made.data.id } },
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

it("the engine cannot import a dynamic resource: its provider is missing at import time", async () => {
  const before = serviceObjects(await controlClient(svc).dumpState()).length;
  // The dynamic-provider host finds no serialized provider in the Read request and fails in
  // require-from-string (@pulumi/pulumi cmd/dynamic-provider getProvider), before any call of ours.
  await expect(t.up()).rejects.toThrow(/ci \*\*importing failed\*\* error: code must be a string, not undefined/);
  expect(serviceObjects(await controlClient(svc).dumpState())).toHaveLength(before);
});
