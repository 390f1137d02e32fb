// What the txmail plugin loads to start serving: its gRPC server and the provider, not all of
// @pulumi/pulumi. The SDK's index brings its runtime, closure serializer (with TypeScript) and
// Automation API (with npm's arborist): ~0.35 core-seconds at every plugin start, and every `pulumi
// up` or preview of a native-face stack starts one (a fleet, one per shard). Only Construct (the
// Tenant component) needs them, and loads them on its first call. Checked on the built plugin (dist/).
import * as path from "node:path";
import { modulesLoadedBy } from "../../../support/loadedModules";

const root = path.join(__dirname, "..", "..", "..");
const server = JSON.stringify(path.join(root, "dist", "native", "server.js"));
const pulumiIndex = /node_modules[\\/]@pulumi[\\/]pulumi[\\/]index\.js$/;

it("starts without loading @pulumi/pulumi's index", () => {
  const loaded = modulesLoadedBy(`require(${server})`);
  expect(loaded.some((m) => m.endsWith(path.join("dist", "native", "provider.js")))).toBe(true);
  expect(loaded.filter((m) => pulumiIndex.test(m))).toEqual([]);
});
