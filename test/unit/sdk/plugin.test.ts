// The plugin the native face names (sdk/nodejs/internal/plugin.ts): every native-face resource and
// every txmail.Provider registers with this package's version and the schema's download URL, so the
// engine acquires `pulumi-resource-txmail` by itself. (The dynamic face registers the nodejs
// provider's resources and names none: test/e2e/upgrade.test.ts sees no provider step on that face.)
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "../../../sdk/nodejs";
import { packageVersion, PLUGIN_DOWNLOAD_URL } from "../../../sdk/nodejs/internal/plugin";
import { REPO_ROOT } from "../../../support/root";

pulumi.runtime.setMocks(
  { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
  "proj",
  "stack",
  false,
);

/** What the resource asked the engine for (@pulumi/pulumi keeps its options' version and URL). */
async function pluginOf(r: pulumi.Resource) {
  await new Promise((resolve) => r.urn.apply(resolve)); // registered before the test ends
  const { __version, __pluginDownloadURL } = r as unknown as { __version?: string; __pluginDownloadURL?: string };
  return { version: __version, pluginDownloadURL: __pluginDownloadURL };
}
const ours = { version: packageVersion(), pluginDownloadURL: PLUGIN_DOWNLOAD_URL };

afterEach(() => delete process.env.TXMAIL_FACE);

it("is this package's version and the schema's download URL", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "native", "schema.json"), "utf8")) as {
    version: string;
    pluginDownloadURL: string;
  };
  expect(ours).toEqual({ version: manifest.version, pluginDownloadURL: schema.pluginDownloadURL });
  expect(schema.version).toBe(manifest.version);
});

it("is named by native-face resources, explicit providers and the resources they serve", async () => {
  const explicit = new txmail.Provider("eu", { apiKey: "k", accountId: "00000000-0000-4000-8000-000000000001" });
  expect(await pluginOf(explicit)).toEqual(ours);
  const served = new txmail.Domain("by-provider", { domain: "a.example.com" }, { provider: explicit });
  expect(await pluginOf(served)).toEqual(ours);
  process.env.TXMAIL_FACE = "native";
  expect(await pluginOf(new txmail.Domain("native", { domain: "c.example.com" }))).toEqual(ours);
});

it("gives way to the caller's own version and URL", async () => {
  process.env.TXMAIL_FACE = "native";
  const mine = { version: "9.9.9", pluginDownloadURL: "https://plugins.example.com/txmail" };
  expect(await pluginOf(new txmail.Domain("pinned", { domain: "d.example.com" }, mine))).toEqual(mine);
  expect(await pluginOf(new txmail.Provider("pinned", {}, mine))).toEqual(mine);
});
