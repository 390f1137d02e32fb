// Construct: the engine asks the plugin to build a component (`txmail:index:Tenant`) for a program
// that cannot run our TypeScript itself (Pulumi YAML, other languages). The plugin runs the very
// Tenant of sdk/nodejs/tenant.ts inside its own process, as a TypeScript program would, with the native
// face: its children are `txmail:index:*` resources registered with the engine, served by this
// plugin like any other. Nothing about a tenant is written twice.
//
// The steps mirror what @pulumi/pulumi's own provider server does for Construct (its Server class is
// module-private, see server.ts): point the Node runtime at the engine's resource monitor with the
// stack's config, rebuild the inputs and options, build the component, and answer with its URN and
// outputs (resources as references) once every registration it started has reached the engine.
import * as pulumi from "@pulumi/pulumi";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as aliasTypes from "@pulumi/pulumi/proto/alias_pb";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import * as runtimeConfig from "@pulumi/pulumi/runtime/config";
import { Tenant, type TenantArgs } from "../sdk/nodejs/tenant";
import type { Json } from "./constructInputs";
import { TENANT_TYPE, tenantArgs } from "./tenantArgs";
import { failOnUncaughtErrors } from "./uncaught";
import { fromPulumi } from "../provider/core/pulumiModules";

// Parts of @pulumi/pulumi its typings mark internal; the provider server uses exactly these.
const settings = require("@pulumi/pulumi/runtime/settings") as {
  resetOptions(
    project: string,
    stack: string,
    parallel: number,
    engineAddr: string,
    monitorAddr: string,
    preview: boolean,
    organization: string,
  ): void;
  awaitFeatureSupport(): Promise<void>;
  waitForRPCs(): Promise<void>;
};
const localState = require("@pulumi/pulumi/runtime/state") as {
  withLocalStorage<T>(fn: () => Promise<T>): Promise<T>;
};
const { parseArgs } = require("@pulumi/pulumi/provider/internals") as {
  parseArgs(args: string[]): { engineAddress: string } | undefined;
};
const provproto = require("@pulumi/pulumi/proto/provider_pb") as typeof provTypes;
const structproto = fromPulumi<typeof import("google-protobuf/google/protobuf/struct_pb")>(
  "google-protobuf/google/protobuf/struct_pb",
);

/** Builds the component a ConstructRequest names and answers with its URN and outputs. */
export function construct(req: provTypes.ConstructRequest): Promise<provTypes.ConstructResponse> {
  const type = req.getType();
  const name = req.getName();
  if (type !== TENANT_TYPE) {
    return Promise.reject(new Error(`txmail: no component of type '${type}'; the plugin builds ${TENANT_TYPE}`));
  }
  // Each construct gets its own runtime state (registrations in flight, the stack resource), as in
  // @pulumi/pulumi's server: several tenants are built concurrently in one process.
  return localState.withLocalStorage(() =>
    failOnUncaughtErrors(async () => {
      await configureRuntime(req);
      const tenant = new Tenant(name, argsOf(name, req), componentOptions(req));
      const resp = new provproto.ConstructResponse();
      resp.setUrn(await urnOf(tenant));
      const [state, stateDeps] = await rpc.serializeResourceProperties(
        `construct(${type}, ${name})`,
        tenantOutputs(tenant),
      );
      const depsMap = resp.getStatedependenciesMap();
      for (const [key, resources] of stateDeps) {
        const deps = new provproto.ConstructResponse.PropertyDependencies();
        deps.setUrnsList(await Promise.all([...resources].map(urnOf)));
        depsMap.set(key, deps);
      }
      resp.setState(structproto.Struct.fromJavaScript(state));
      // The children's registrations must reach the engine before it hears the component is done.
      await settings.waitForRPCs();
      return resp;
    }),
  );
}

/** A resource's URN (known at preview too): the value inside its `urn` output. */
const urnOf = (r: pulumi.Resource): Promise<string> => (r.urn as unknown as { promise(): Promise<string> }).promise();

/** The engine's address: the plugin's first argument (after log flags), as for every provider. */
function engineAddress(): string {
  const addr = parseArgs(process.argv.slice(2))?.engineAddress;
  if (!addr) throw new Error("txmail: the plugin was started without the engine's address");
  return addr;
}

/**
 * Points the Node runtime of this process at the engine for this construct, with the stack's
 * config. `txmail:face` is left out and the native face set: whatever a stack says about the
 * TypeScript classes' face, a component built by the plugin has native children.
 */
async function configureRuntime(req: provTypes.ConstructRequest): Promise<void> {
  settings.resetOptions(
    req.getProject(),
    req.getStack(),
    req.getParallel(),
    engineAddress(),
    req.getMonitorendpoint(),
    req.getDryrun(),
    req.getOrganization(),
  );
  await settings.awaitFeatureSupport();
  const config: Record<string, string> = {};
  for (const [k, v] of req.getConfigMap().entries()) {
    if (k !== "txmail:face" && k !== "txmail:config:face") config[k] = v;
  }
  runtimeConfig.setAllConfig(config, req.getConfigsecretkeysList());
  process.env.TXMAIL_FACE = "native";
}

function argsOf(name: string, req: provTypes.ConstructRequest): TenantArgs {
  const deps = new Map<string, string[]>();
  for (const [k, v] of req.getInputdependenciesMap().entries()) deps.set(k, v.getUrnsList());
  return tenantArgs(name, (req.getInputs()?.toJavaScript() ?? {}) as Record<string, Json>, deps);
}

/** The component's options as the program gave them, rebuilt from the request. */
function componentOptions(req: provTypes.ConstructRequest): pulumi.ComponentResourceOptions {
  const providers: Record<string, pulumi.ProviderResource> = {};
  for (const [pkg, ref] of req.getProvidersMap().entries()) providers[pkg] = new pulumi.DependencyProviderResource(ref);
  const timeouts = req.getCustomtimeouts();
  return {
    parent: req.getParent() ? new pulumi.DependencyResource(req.getParent()) : undefined,
    dependsOn: req.getDependenciesList().map((urn) => new pulumi.DependencyResource(urn)),
    providers,
    aliases: req.getAliasesList().map(aliasOf),
    protect: req.getProtect(),
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    retainOnDelete: req.getRetainondelete(),
    ...(timeouts ? { customTimeouts: timeouts.toObject() } : {}),
  };
}

function aliasOf(a: aliasTypes.Alias): pulumi.Input<pulumi.URN | pulumi.Alias> {
  if (a.hasUrn()) return a.getUrn();
  const spec = a.getSpec()!;
  const alias: pulumi.Alias = {};
  if (spec.getName()) alias.name = spec.getName();
  if (spec.getProject()) alias.project = spec.getProject();
  if (spec.getStack()) alias.stack = spec.getStack();
  if (spec.hasParenturn()) alias.parent = spec.getParenturn();
  else if (spec.getNoparent()) alias.parent = pulumi.rootStackResource;
  return alias;
}

/**
 * What the component answers with: its parts as resource references (a YAML program reads
 * `${acme.subAccount.id}`), maps of them by name, and the summary. The parts a tenant does not
 * declare are left out.
 */
export function tenantOutputs(t: Tenant): Record<string, unknown> {
  const outputs: Record<string, unknown> = {
    subAccount: t.subAccount,
    bootstrapKey: t.bootstrapKey,
    connection: t.connection,
    apiKeys: t.apiKeys,
    routes: t.routes,
    webhooks: t.webhooks,
    smtpCredentials: t.smtpCredentials,
    members: t.members,
    suppressions: t.suppressions,
    summary: t.summary,
  };
  if (t.domain) outputs.domain = t.domain;
  if (t.domainVerification) outputs.domainVerification = t.domainVerification;
  return outputs;
}
