// A gRPC client of Pulumi's ResourceProvider service, as the engine talks to a provider plugin:
// enough to drive the native provider (or any provider server) without the engine, in plain values.
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { SECRET_SIG, SIG_KEY } from "../../../provider/core/secretMarks";

const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb") as {
  ResourceProviderClient: new (address: string, creds: grpc.ChannelCredentials) => grpc.Client;
};

type Props = Record<string, unknown>;

export const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
export const urnOf = (kind: string, name: string) => `urn:pulumi:test::native::txmail:index:${kind}::${name}`;

export interface DiffResult {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  diffs: string[];
  detailed: Record<string, "update" | "replace" | "other">;
  deleteBeforeReplace: boolean;
}

export class ProviderClient {
  private readonly client: grpc.Client;
  constructor(port: number) {
    this.client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  private call<T>(method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) =>
      (this.client as unknown as Record<string, (r: unknown, cb: (e: Error | null, v: T) => void) => void>)[method]!(
        req,
        (err, value) => (err ? reject(err) : resolve(value)),
      ),
    );
  }

  async configure(
    args: Props | undefined,
    variables: Record<string, string> = {},
  ): Promise<provproto.ConfigureResponse> {
    const req = new provproto.ConfigureRequest();
    if (args) req.setArgs(Struct.fromJavaScript(args as never));
    for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
    req.setAcceptsecrets(true);
    return this.call("configure", req);
  }

  async getSchema(): Promise<string> {
    return (await this.call<provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest())).getSchema();
  }

  async getPluginVersion(): Promise<string> {
    const empty = new (require("google-protobuf/google/protobuf/empty_pb").Empty)();
    return (await this.call<{ getVersion(): string }>("getPluginInfo", empty)).getVersion();
  }

  async checkConfig(olds: Props, news: Props) {
    const req = new provproto.CheckRequest().setUrn("urn:pulumi:test::native::pulumi:providers:txmail::default");
    req.setOlds(Struct.fromJavaScript(olds as never)).setNews(Struct.fromJavaScript(news as never));
    return checkResult(await this.call<provproto.CheckResponse>("checkConfig", req));
  }

  async diffConfig(olds: Props, news: Props): Promise<DiffResult> {
    const req = new provproto.DiffRequest().setUrn("urn:pulumi:test::native::pulumi:providers:txmail::default");
    req.setOlds(Struct.fromJavaScript(olds as never)).setNews(Struct.fromJavaScript(news as never));
    return diffResult(await this.call<provproto.DiffResponse>("diffConfig", req));
  }

  async check(urn: string, olds: Props, news: Props) {
    const req = new provproto.CheckRequest().setUrn(urn);
    req.setOlds(Struct.fromJavaScript(olds as never)).setNews(Struct.fromJavaScript(news as never));
    return checkResult(await this.call<provproto.CheckResponse>("check", req));
  }

  async diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffResult> {
    const req = new provproto.DiffRequest().setUrn(urn).setId(id);
    req.setOlds(Struct.fromJavaScript(olds as never)).setNews(Struct.fromJavaScript(news as never));
    return diffResult(await this.call<provproto.DiffResponse>("diff", req));
  }

  async create(urn: string, props: Props): Promise<{ id: string; outs: Props }> {
    const req = new provproto.CreateRequest().setUrn(urn).setProperties(Struct.fromJavaScript(props as never));
    const resp = await this.call<provproto.CreateResponse>("create", req);
    return { id: resp.getId(), outs: (resp.getProperties()?.toJavaScript() ?? {}) as Props };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
    const req = new provproto.UpdateRequest().setUrn(urn).setId(id);
    req.setOlds(Struct.fromJavaScript(olds as never)).setNews(Struct.fromJavaScript(news as never));
    const resp = await this.call<provproto.UpdateResponse>("update", req);
    return { outs: (resp.getProperties()?.toJavaScript() ?? {}) as Props };
  }

  /** A Read as refresh sends it (with `props`) or as `pulumi import` does (without any). */
  async read(urn: string, id: string, props?: Props, inputs?: Props) {
    const req = new provproto.ReadRequest().setUrn(urn).setId(id);
    if (props) req.setProperties(Struct.fromJavaScript(props as never));
    if (inputs) req.setInputs(Struct.fromJavaScript(inputs as never));
    const resp = await this.call<provproto.ReadResponse>("read", req);
    return {
      id: resp.getId(),
      props: resp.getProperties()?.toJavaScript() as Props | undefined,
      inputs: resp.getInputs()?.toJavaScript() as Props | undefined,
    };
  }

  async delete(urn: string, id: string, props: Props): Promise<void> {
    const req = new provproto.DeleteRequest()
      .setUrn(urn)
      .setId(id)
      .setProperties(Struct.fromJavaScript(props as never));
    await this.call("delete", req);
  }

  /** A data function (`txmail:index:<name>`) as the engine invokes it: its result, or the failures. */
  async invoke(
    tok: string,
    args: Props,
  ): Promise<{ result?: Props; failures: { property: string; reason: string }[] }> {
    const req = new provproto.InvokeRequest().setTok(tok).setArgs(Struct.fromJavaScript(args as never));
    const resp = await this.call<provproto.InvokeResponse>("invoke", req);
    return {
      result: resp.getReturn()?.toJavaScript() as Props | undefined,
      failures: resp.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** A method of a resource (`Call`). */
  async callMethod(tok: string, args: Props): Promise<unknown> {
    const req = new provproto.CallRequest().setTok(tok).setArgs(Struct.fromJavaScript(args as never));
    return this.call("call", req);
  }

  close(): void {
    this.client.close();
  }
}

function checkResult(resp: provproto.CheckResponse) {
  return {
    inputs: (resp.getInputs()?.toJavaScript() ?? {}) as Props,
    failures: resp.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
  };
}

function diffResult(resp: provproto.DiffResponse): DiffResult {
  const C = provproto.DiffResponse.DiffChanges;
  const K = provproto.PropertyDiff.Kind;
  const detailed: DiffResult["detailed"] = {};
  resp.getDetaileddiffMap().forEach((pd, key) => {
    detailed[key] = pd.getKind() === K.UPDATE ? "update" : pd.getKind() === K.UPDATE_REPLACE ? "replace" : "other";
  });
  return {
    changes: resp.getChanges() === C.DIFF_NONE ? "none" : resp.getChanges() === C.DIFF_SOME ? "some" : "unknown",
    replaces: resp.getReplacesList(),
    diffs: resp.getDiffsList(),
    detailed,
    deleteBeforeReplace: resp.getDeletebeforereplace(),
  };
}
