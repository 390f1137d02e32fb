// The shard workers' switch for the SDK's debug messages (fleet/sdkDebugMessages.ts), on the real
// engine: an inline program run in this process, as a shard worker runs its shard's program, and the
// engine's events counted. Off (the fleet's default): the engine receives none of the SDK's
// "Registering resource" messages; on (`--debug`): one per resource.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, type EngineEvent } from "@pulumi/pulumi/automation";
import { sdkDebugMessages } from "../../../fleet/sdkDebugMessages";
import { engineEnv, pulumiCommand } from "../harness";

jest.setTimeout(5 * 60_000);

const RESOURCES = 3;

let stateDir: string;
beforeAll(() => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-sdk-debug-"));
});
afterAll(() => {
  sdkDebugMessages(true);
  fs.rmSync(stateDir, { recursive: true, force: true });
});

/** The SDK's debug messages about registering resources the engine received in one preview. */
async function registeringMessages(): Promise<string[]> {
  const program = async () => {
    for (let i = 0; i < RESOURCES; i++) new pulumi.ComponentResource("test:index:Thing", `thing-${i}`);
  };
  const envVars = engineEnv(stateDir);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dbg", projectName: "sdk-debug", program },
    {
      workDir: fs.mkdtempSync(path.join(stateDir, "w-")),
      pulumiCommand: await pulumiCommand(),
      envVars,
      secretsProvider: "passphrase",
      pulumiHome: envVars.PULUMI_HOME,
    },
  );
  const seen: string[] = [];
  const onEvent = (e: EngineEvent) => {
    const d = e.diagnosticEvent;
    // The engine streams debug diagnostics too, though the Automation API's type does not list them.
    if ((d?.severity as string | undefined) === "debug" && d!.message.includes("Registering resource")) {
      seen.push(d!.message);
    }
  };
  await stack.preview({ onEvent, color: "never" });
  return seen;
}

it("off, the program sends the engine none of the SDK's debug messages", async () => {
  sdkDebugMessages(false);
  expect(await registeringMessages()).toEqual([]);
});

it("on (--debug), they reach the engine again: one 'Registering resource' per resource", async () => {
  sdkDebugMessages(true);
  const seen = await registeringMessages();
  expect(seen.filter((m) => m.includes("test:index:Thing"))).toHaveLength(RESOURCES);
});
