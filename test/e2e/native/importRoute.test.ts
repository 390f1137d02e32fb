// `pulumi import` on the real engine through the native provider: a route made outside Pulumi is
// imported by id (the engine's Read without properties), the state records it, and the program
// that declares it as it exists then runs `pulumi up` as a no-op: no change, no write to the service.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { Route, paths } from "../../../provider/api";
import { controlClient } from "../../../support/control";
import { createTestStack, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);
const run = promisify(execFile);

let svc: TestService;
let t: TestStack;

beforeAll(async () => {
  svc = await startService();
  t = await createTestStack({
    programDir: path.join(__dirname, "..", "programs", "native-route"),
    name: "import-route",
    config: {
      ...svc.config(),
      "txmail:face": { value: "native" },
      routeName: { value: "existing" },
      routeUrl: { value: "https://example.com/existing" },
      recipient: { value: "in@mail.example.com" },
    },
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

it("imports a route by id, and the next up of the program declaring it changes nothing", async () => {
  const { data: made } = await svc.client.post(
    paths.routes(svc.accountId),
    { name: "existing", url: "https://example.com/existing", recipient: "in@mail.example.com", enabled: false },
    Route,
  );
  const ws = t.stack.workspace as import("@pulumi/pulumi/automation").LocalWorkspace;
  const imported = await run(
    path.join(ws.pulumiCommand.command),
    [
      "import",
      "txmail:index:Route",
      "support",
      made.id,
      "--yes",
      "--protect=false",
      // The code `pulumi import` prints (our Node host's GenerateProgram) is another suite's
      // subject (test/e2e/import/importKinds.test.ts); this one is about the imported state.
      "--generate-code=false",
      "--stack",
      t.stack.name,
      "--color",
      "never",
    ],
    { cwd: ws.workDir, env: { ...process.env, ...ws.envVars } },
  );
  expect(imported.stdout).toMatch(/import/i);

  const { deployment } = JSON.parse(await t.exportText()) as {
    deployment: { resources: Array<{ type: string; id?: string; inputs?: Record<string, unknown> }> };
  };
  const route = deployment.resources.find((r) => r.type === "txmail:index:Route")!;
  expect(route.id).toBe(made.id);
  expect(route.inputs).toMatchObject({ name: "existing", url: "https://example.com/existing", enabled: false });

  const control = controlClient(svc);
  await control.resetCounters();
  const up = await t.up();
  expect(up.summary.resourceChanges).toEqual({ same: 2 }); // the stack and the route
  expect(up.outputs.routeId.value).toBe(made.id);
  expect((await control.counters()).writes).toBe(0);
});
