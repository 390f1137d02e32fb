// Why native/server.ts serves the ResourceProvider service itself: the traps of @pulumi/pulumi's
// own provider server (`provider.main`; still so in @pulumi/pulumi 3.270.0, the version this runs on), shown on a toy provider run the
// way a plugin runs. If an upgrade of @pulumi/pulumi fixes them, this test fails: then the native
// provider could go back to `provider.main` (read native/server.ts's header first).
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";
import { ProviderClient, urnOf } from "./providerClient";

/** A provider with every hook a configuration could arrive through; `check` reports what arrived. */
const TOY = `
const seen = [];
const toy = {
  version: "0.0.1",
  configure: (...args) => { seen.push(["configure", args]); },
  check: async (urn, olds, news) => ({ inputs: { ...news, seen: JSON.stringify(seen) } }),
  read: async (id, urn, props) => ({ id, props }),
};
require(${JSON.stringify(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "provider"))}).main(toy, process.argv.slice(2));
`;

let child: ChildProcess;
let p: ProviderClient;

beforeAll(async () => {
  child = spawn(process.execPath, ["-e", TOY], { stdio: ["ignore", "pipe", "pipe"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").once("data", (line: string) => resolve(Number(line.trim())));
    child.once("exit", (code) => reject(new Error(`toy provider exited (${code})`)));
  });
  p = new ProviderClient(port);
});

afterAll(() => {
  p?.close();
  child?.kill();
});

it("Configure does not hand the configuration to the provider", async () => {
  const resp = await p.configure({ apiKey: "k" }, { "txmail:config:apiKey": "k", "txmail:config:accountId": "a" });
  expect(resp.getAcceptsecrets()).toBe(true);
  const { inputs } = await p.check(urnOf("Route", "r"), {}, { name: "x" });
  expect(inputs.seen).toBe("[]");
});

it("CheckConfig is not implemented", async () => {
  await expect(p.checkConfig({}, { apiKey: "k" })).rejects.toThrow(/Not yet implemented: CheckConfig/);
});

it("a Read without properties (pulumi import) crashes in the server, before the provider's read", async () => {
  await expect(p.read(urnOf("Route", "r"), "some-id")).rejects.toThrow(/reading 'toJavaScript'/);
});
