// The gRPC face of the native provider: Pulumi's ResourceProvider service, served with the same
// @grpc/grpc-js and generated stubs that @pulumi/pulumi's own provider server uses.
//
// Why not `require("@pulumi/pulumi/provider").main(...)`: in @pulumi/pulumi 3.259.0 to 3.270.0 its server
// answers Configure without handing the request's variables or args to the provider object (a
// provider cannot receive `txmail:apiKey`), answers CheckConfig and DiffConfig "not yet
// implemented", crashes on a Read without properties (what `pulumi import` sends:
// `req.getProperties().toJavaScript()` on undefined), and drops the detailed diff. Every one of
// those is a method of its module-private Server class, with no hook to override. Serving the
// service here costs one small file and answers each of them.
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as anyTypes from "google-protobuf/google/protobuf/any_pb";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as statusTypes from "@pulumi/pulumi/proto/status_pb";
import { type InitFailure, isInitFailure } from "../provider/core/initFailure";
import * as native from "./provider";
import { fromPulumi } from "../provider/core/pulumiModules";
import { servedSchema, PACKAGE_VERSION } from "./servedSchema";
import type * as ConstructModule from "./construct";
import type * as InvokeModule from "./invoke";

// Loaded from @pulumi/pulumi's own dependencies: the generated stubs require these very modules.
const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const structproto = fromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const emptyproto = fromPulumi<{ Empty: new () => unknown }>("google-protobuf/google/protobuf/empty_pb");
const anyproto = fromPulumi<typeof anyTypes>("google-protobuf/google/protobuf/any_pb");
const statusproto = require("@pulumi/pulumi/proto/status_pb") as typeof statusTypes;
const provproto = require("@pulumi/pulumi/proto/provider_pb") as typeof provTypes;
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as {
  ResourceProviderService: grpcTypes.ServiceDefinition;
};
const plugproto = require("@pulumi/pulumi/proto/plugin_pb") as {
  PluginInfo: new () => { setVersion(v: string): void };
};

type Props = Record<string, unknown>;
type Callback = (err: grpcTypes.ServiceError | null, value?: unknown) => void;
type Call<R> = { request: R };

/** A Struct as plain values; absent is empty. Secrets stay in their signed form. */
const fromStruct = (s: structTypes.Struct | undefined): Props => (s ? (s.toJavaScript() as Props) : {});
/** Plain values as a Struct: `undefined` dropped (Struct has no such value), as the Node SDK does. */
const toStruct = (v: Props) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v ?? {})));

/** Runs one call; an error reaches the engine with its message (the engine shows it to the user). */
function handle<R>(fn: (req: R) => Promise<unknown> | unknown) {
  return (call: Call<R>, callback: Callback) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (resp) => callback(null, resp),
        (err: unknown) =>
          callback(
            Object.assign(new Error(err instanceof Error ? err.message : String(err)), {
              code: grpc.status.UNKNOWN,
              details: err instanceof Error ? err.message : String(err),
              metadata: isInitFailure(err) ? initFailureMetadata(err) : new grpc.Metadata(),
            }) as grpcTypes.ServiceError,
          ),
      );
  };
}

/**
 * An init failure (provider/core/initFailure.ts) as the engine reads one: a google.rpc.Status whose
 * details hold a pulumirpc.ErrorResourceInitFailed, in the `grpc-status-details-bin` trailer (as
 * @pulumi/pulumi's own provider server packs it; the engine's parseError unpacks it). Only create
 * and update throw one.
 */
function initFailureMetadata(err: InitFailure): grpcTypes.Metadata {
  const detail = new provproto.ErrorResourceInitFailed();
  detail.setId(err.id);
  detail.setProperties(toStruct(err.properties));
  detail.setReasonsList(err.reasons);
  const packed = new anyproto.Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(err.message);
  status.addDetails(packed);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return metadata;
}

const checkFailure = (f: native.CheckFailure) =>
  new provproto.CheckFailure().setProperty(f.property).setReason(f.reason);

function checkResponse(inputs: Props | undefined, failures: native.CheckFailure[]) {
  const resp = new provproto.CheckResponse();
  if (inputs) resp.setInputs(toStruct(inputs));
  resp.setFailuresList(failures.map(checkFailure));
  return resp;
}

/** The engine's diff: changed keys, replacing keys, and a detailed diff that says which is which. */
function diffResponse(d: native.DiffAnswer) {
  const resp = new provproto.DiffResponse();
  resp.setChanges(
    d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setReplacesList(d.replaces);
  resp.setDiffsList(d.diffs);
  resp.setDeletebeforereplace(d.deleteBeforeReplace);
  resp.setHasdetaileddiff(true);
  const detailed = resp.getDetaileddiffMap();
  for (const key of d.diffs) {
    const pd = new provproto.PropertyDiff();
    pd.setKind(
      d.replaces.includes(key) ? provproto.PropertyDiff.Kind.UPDATE_REPLACE : provproto.PropertyDiff.Kind.UPDATE,
    );
    pd.setInputdiff(true);
    detailed.set(key, pd);
  }
  return resp;
}

const unimplemented = (what: string, why: string) => (_call: unknown, callback: Callback) => {
  const message = `txmail: ${what} is not implemented by this provider: ${why}`;
  callback(
    Object.assign(new Error(message), {
      code: grpc.status.UNIMPLEMENTED,
      details: message,
      metadata: new grpc.Metadata(),
    }) as grpcTypes.ServiceError,
  );
};

/** The engine's calls, answered by a native provider's operations. */
export type NativeProvider = Pick<
  typeof native,
  "checkConfig" | "diffConfig" | "configure" | "check" | "diff" | "create" | "read" | "update" | "remove"
>;

/**
 * The ResourceProvider service over `impl`: the txmail provider by default. The benchmark's no-op
 * native floor (bench/programs/noop-native-provider) is served by this very code with operations that
 * do nothing, so the floor pays exactly the server's costs and the real provider's excess is its own.
 */
export const serviceOf = (impl: NativeProvider): grpcTypes.UntypedServiceImplementation => ({
  ...pluginMethods(),
  ...configMethods(impl),
  ...resourceMethods(impl),
  ...otherMethods(),
});

/** What the plugin is: its version and the package schema. */
const pluginMethods = (): grpcTypes.UntypedServiceImplementation => ({
  getPluginInfo: handle(() => {
    const info = new plugproto.PluginInfo();
    info.setVersion(PACKAGE_VERSION);
    return info;
  }),
  getSchema: handle((req: provTypes.GetSchemaRequest) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    return new provproto.GetSchemaResponse().setSchema(servedSchema());
  }),
});

/** The provider's own configuration: checked, diffed and applied. */
const configMethods = (impl: NativeProvider): grpcTypes.UntypedServiceImplementation => ({
  checkConfig: handle((req: provTypes.CheckRequest) => {
    const { inputs, failures } = impl.checkConfig(fromStruct(req.getOlds()), fromStruct(req.getNews()));
    return checkResponse(inputs, failures);
  }),
  diffConfig: handle((req: provTypes.DiffRequest) =>
    diffResponse(impl.diffConfig(fromStruct(req.getOlds()), fromStruct(req.getNews()))),
  ),
  configure: handle((req: provTypes.ConfigureRequest) => {
    const variables = new Map<string, string>(req.getVariablesMap().getEntryList() as [string, string][]);
    impl.configure(req.getArgs() ? fromStruct(req.getArgs()) : undefined, variables);
    // Secrets come signed (and are unwrapped in provider.ts); resources and outputs as plain values.
    return new provproto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setAcceptresources(false)
      .setAcceptoutputs(false)
      .setSupportspreview(false);
  }),
});

/** The resources' lifecycle, each call answered by `impl`. */
const resourceMethods = (impl: NativeProvider): grpcTypes.UntypedServiceImplementation => ({
  check: handle(async (req: provTypes.CheckRequest) => {
    const { inputs, failures } = await impl.check(req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()));
    return checkResponse(inputs ?? fromStruct(req.getNews()), failures);
  }),
  diff: handle(async (req: provTypes.DiffRequest) =>
    diffResponse(await impl.diff(req.getId(), req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()))),
  ),
  create: handle(async (req: provTypes.CreateRequest) => {
    const { id, outs } = await impl.create(req.getUrn(), fromStruct(req.getProperties()));
    return new provproto.CreateResponse().setId(id).setProperties(toStruct(outs));
  }),
  read: handle(async (req: provTypes.ReadRequest) => {
    const r = await impl.read(
      req.getId(),
      req.getUrn(),
      req.getProperties() ? fromStruct(req.getProperties()) : undefined,
      req.getInputs() ? fromStruct(req.getInputs()) : undefined,
    );
    const resp = new provproto.ReadResponse().setId(r.id);
    if (r.props) resp.setProperties(toStruct(r.props));
    if (r.inputs) resp.setInputs(toStruct(r.inputs));
    return resp;
  }),
  update: handle(async (req: provTypes.UpdateRequest) => {
    const { outs } = await impl.update(req.getId(), req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()));
    return new provproto.UpdateResponse().setProperties(toStruct(outs));
  }),
  delete: handle(async (req: provTypes.DeleteRequest) => {
    await impl.remove(req.getId(), req.getUrn(), fromStruct(req.getProperties()));
    return new emptyproto.Empty();
  }),
});

/** The rest: nothing to cancel or attach, and the modules loaded on first use (construct, invoke). */
const otherMethods = (): grpcTypes.UntypedServiceImplementation => ({
  cancel: handle(() => new emptyproto.Empty()),
  attach: handle(() => new emptyproto.Empty()),
  // The Tenant component, built by this process (construct.ts), loaded on the first one: it brings all
  // of @pulumi/pulumi (its runtime, closure serializer and Automation API: ~0.35 core-seconds at every
  // plugin start, bench/RESULTS.md), which a plugin serving resources and functions never needs.
  construct: handle((req: provTypes.ConstructRequest) => {
    const { construct } = require("./construct") as typeof ConstructModule;
    return construct(req);
  }),
  // Methods of resources: the package declares none (its schema has no `methods`).
  call: unimplemented("Call", "the txmail package has no methods"),
  // The data functions (invoke.ts), loaded on the first one: a plugin serving resources only loads none of it.
  invoke: handle(async (req: provTypes.InvokeRequest) => {
    const { invoke } = require("./invoke") as typeof InvokeModule;
    const { result, failures } = await invoke(req.getTok(), fromStruct(req.getArgs()));
    const resp = new provproto.InvokeResponse().setFailuresList(failures.map(checkFailure));
    return result ? resp.setReturn(toStruct(result)) : resp;
  }),
});

/** Starts the server on a loopback port: the port is what the engine reads from stdout. */
export async function serve(impl: NativeProvider = native): Promise<{ port: number; stop(): Promise<void> }> {
  const server = new grpc.Server({
    // As @pulumi/pulumi's server: the engine's messages can be large (whole property trees).
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
  });
  server.addService(provrpc.ResourceProviderService, serviceOf(impl));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  return { port, stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())) };
}
