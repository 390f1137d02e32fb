// Entry of the test-only plugin `pulumi-resource-txmaildns` (support/dnsPlugin.ts installs it): the
// engine starts it with its own address as an argument and reads the port it serves Pulumi's
// ResourceProvider service on from the first line of stdout; nothing else is printed there.
//
// Served with @pulumi/pulumi's own gRPC stubs rather than `@pulumi/pulumi/provider`'s main(): that
// server answers Configure without handing the config to the provider (so `txmaildns:apiUrl` could
// never reach it) and drops the detailed diff; the same reasons as native/server.ts, which this
// package may not import (test/unit/layers.test.ts), so the dozen calls are answered here.
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as provTypes from "@pulumi/pulumi/proto/provider_pb";
import { fromPulumi } from "../../provider/core/pulumiModules";
import { exitWithTheEngine } from "../../provider/core/engineWatch";
import * as record from "./record";
import { DNS_PLUGIN_VERSION, DNS_SCHEMA } from "./schema";

// Loaded from @pulumi/pulumi's own dependencies: the generated stubs require these very modules.
const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const structproto = fromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const emptyproto = fromPulumi<{ Empty: new () => unknown }>("google-protobuf/google/protobuf/empty_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb") as typeof provTypes;
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as {
  ResourceProviderService: grpcTypes.ServiceDefinition;
};
const plugproto = require("@pulumi/pulumi/proto/plugin_pb") as {
  PluginInfo: new () => { setVersion(v: string): void };
};

type Props = record.Props;
type Callback = (err: grpcTypes.ServiceError | null, value?: unknown) => void;

/** A Struct as plain values (secrets unwrapped: see Configure); absent is empty. */
const fromStruct = (s: structTypes.Struct | undefined): Props =>
  s ? (record.unwrapSecrets(s.toJavaScript()) as Props) : {};
const toStruct = (v: Props) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));

/** Runs one call; an error reaches the engine with its message, which the engine shows the user. */
function handle<R>(fn: (req: R) => unknown) {
  return (call: { request: R }, callback: Callback) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (resp) => callback(null, resp),
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          callback(
            Object.assign(new Error(message), {
              code: grpc.status.UNKNOWN,
              details: message,
              metadata: new grpc.Metadata(),
            }) as grpcTypes.ServiceError,
          );
        },
      );
  };
}

function checkResponse({ inputs, failures }: { inputs: Props; failures: record.CheckFailure[] }) {
  return new provproto.CheckResponse()
    .setInputs(toStruct(inputs))
    .setFailuresList(failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason)));
}

/** The engine's diff with a detailed diff, so the engine shows which change replaces and which updates. */
function diffResponse(d: record.DiffAnswer) {
  const resp = new provproto.DiffResponse()
    .setChanges(d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE)
    .setReplacesList(d.replaces)
    .setDiffsList(d.diffs)
    .setDeletebeforereplace(d.deleteBeforeReplace)
    .setHasdetaileddiff(true);
  for (const key of d.diffs) {
    const kind = d.replaces.includes(key)
      ? provproto.PropertyDiff.Kind.UPDATE_REPLACE
      : provproto.PropertyDiff.Kind.UPDATE;
    resp.getDetaileddiffMap().set(key, new provproto.PropertyDiff().setKind(kind).setInputdiff(true));
  }
  return resp;
}

/** The provider's config: set by Configure (args, or the legacy `txmaildns:config:<key>` variables). */
let config: record.DnsConfig = {};

const CONFIG_KEYS = ["apiUrl", "apiKey"];

function checkConfig(news: Props) {
  const failures: record.CheckFailure[] = [];
  for (const [k, v] of Object.entries(news)) {
    // The engine adds `version` (and may add other `__`-prefixed keys) to a provider's inputs.
    if (k === "version" || k.startsWith("__")) continue;
    if (!CONFIG_KEYS.includes(k))
      failures.push({ property: k, reason: `txmaildns has no config \`${k}\` (config: apiUrl, apiKey)` });
    else if (typeof v !== "string") failures.push({ property: k, reason: `\`${k}\` must be a string` });
  }
  if (typeof news.apiUrl === "string" && news.apiUrl !== "" && !URL.canParse(news.apiUrl))
    failures.push({ property: "apiUrl", reason: `\`apiUrl\` is not a URL: ${JSON.stringify(news.apiUrl)}` });
  return { inputs: news, failures };
}

const service: grpcTypes.UntypedServiceImplementation = {
  getPluginInfo: handle(() => {
    const info = new plugproto.PluginInfo();
    info.setVersion(DNS_PLUGIN_VERSION);
    return info;
  }),
  getSchema: handle((req: provTypes.GetSchemaRequest) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    return new provproto.GetSchemaResponse().setSchema(DNS_SCHEMA);
  }),
  checkConfig: handle((req: provTypes.CheckRequest) => checkResponse(checkConfig(fromStruct(req.getNews())))),
  // Another server or key is the same records elsewhere: the provider is updated, no record replaced.
  diffConfig: handle((req: provTypes.DiffRequest) => {
    const [olds, news] = [fromStruct(req.getOlds()), fromStruct(req.getNews())];
    const diffs = CONFIG_KEYS.filter((k) => olds[k] !== news[k]);
    return diffResponse({ changes: diffs.length > 0, replaces: [], diffs, deleteBeforeReplace: false });
  }),
  configure: handle((req: provTypes.ConfigureRequest) => {
    const args = req.getArgs() ? fromStruct(req.getArgs()) : undefined;
    const vars = new Map(req.getVariablesMap().getEntryList() as [string, string][]);
    const pick = (k: string) => {
      const v = args ? args[k] : vars.get(`txmaildns:config:${k}`);
      return typeof v === "string" && v !== "" ? v : undefined;
    };
    config = { apiUrl: pick("apiUrl"), apiKey: pick("apiKey") };
    // Secrets come signed and are unwrapped on arrival (fromStruct): a program may mark any input
    // secret, and the engine keeps its outputs secret (it re-marks what came in secret).
    return new provproto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setAcceptresources(false)
      .setAcceptoutputs(false)
      .setSupportspreview(false);
  }),
  check: handle((req: provTypes.CheckRequest) => checkResponse(record.check(fromStruct(req.getNews())))),
  diff: handle((req: provTypes.DiffRequest) =>
    diffResponse(record.diff(fromStruct(req.getOlds()), fromStruct(req.getNews()))),
  ),
  create: handle(async (req: provTypes.CreateRequest) => {
    const { id, outs } = await record.create(config, fromStruct(req.getProperties()));
    return new provproto.CreateResponse().setId(id).setProperties(toStruct(outs));
  }),
  read: handle(async (req: provTypes.ReadRequest) => {
    const r = await record.read(config, req.getId(), req.getProperties() ? fromStruct(req.getProperties()) : undefined);
    const resp = new provproto.ReadResponse().setId(r.id);
    if (r.props) resp.setProperties(toStruct(r.props));
    if (r.inputs) resp.setInputs(toStruct(r.inputs));
    return resp;
  }),
  update: handle(async (req: provTypes.UpdateRequest) => {
    const { outs } = await record.update(config, fromStruct(req.getNews()));
    return new provproto.UpdateResponse().setProperties(toStruct(outs));
  }),
  delete: handle(async (req: provTypes.DeleteRequest) => {
    await record.remove(config, req.getId(), fromStruct(req.getProperties()));
    return new emptyproto.Empty();
  }),
  cancel: handle(() => new emptyproto.Empty()),
  attach: handle(() => new emptyproto.Empty()),
  // Calls not listed (Construct, Invoke, Call, …) are answered UNIMPLEMENTED by grpc-js: the
  // package has no components, functions or methods.
};

process.on("unhandledRejection", (err: unknown) => {
  process.stderr.write(
    `pulumi-resource-txmaildns: unhandled rejection: ${err instanceof Error ? err.message : String(err)}\n`,
  );
});

// End with the engine that started this plugin, even when it is killed (provider/core/engineWatch.ts).
exitWithTheEngine(process.argv.slice(2));

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(provrpc.ResourceProviderService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`pulumi-resource-txmaildns: cannot start: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
