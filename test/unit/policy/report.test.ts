// One policy, two levels: lib/report.ts lowers a finding to advisory through the object form of
// @pulumi/policy's reportViolation, which is not in its typings. This runs the installed server's
// own analyze handler (what the engine calls over gRPC) on real requests, so an upgrade of
// @pulumi/policy that drops or changes the object form fails here rather than in a user's preview.
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { keyAllowList } from "../../../policy/rules/keyAllowList";
import { TYPES } from "../../../policy/lib/resources";

/** server.js exports the handler, but its typings leave it out (@internal). */
type Handler = (
  call: { request: analyzerproto.AnalyzeRequest },
  callback: (err: unknown, res: analyzerproto.AnalyzeResponse) => void,
) => Promise<void>;
const { makeAnalyzeRpcFun } = require("@pulumi/policy/server") as {
  makeAnalyzeRpcFun: (pack: string, version: string, level: string, policies: unknown[]) => Handler;
};

interface Diagnostic {
  policyName: string;
  message: string;
  enforcementLevel: number;
  severity: number;
}

/** The pack's analyze handler on one ApiKey named `name` with `props`: its diagnostics. */
async function analyze(name: string, props: Record<string, unknown>): Promise<Diagnostic[]> {
  const request = new analyzerproto.AnalyzeRequest();
  request.setType(TYPES.ApiKey);
  request.setName(name);
  request.setUrn(`urn:pulumi:dev::txmail-app::${TYPES.ApiKey}::${name}`);
  request.setProperties(structproto.Struct.fromJavaScript(props as Record<string, structproto.JavaScriptValue>));
  request.setOptions(new analyzerproto.AnalyzerResourceOptions());
  const handler = makeAnalyzeRpcFun("txmail-policies", "0.1.0", "advisory", [keyAllowList]);
  const response = await new Promise<analyzerproto.AnalyzeResponse>((resolve, reject) => {
    void handler({ request }, (err, res) => (err ? reject(err) : resolve(res)));
  });
  return response.getDiagnosticsList().map((d) => ({
    policyName: d.getPolicyname(),
    message: d.getMessage(),
    enforcementLevel: d.getEnforcementlevel(),
    severity: d.getSeverity(),
  }));
}

const { ADVISORY, MANDATORY } = analyzerproto.EnforcementLevel;

describe("a finding lowered to advisory, through @pulumi/policy's own server", () => {
  it("a key that can change the account keeps the policy's level: mandatory", async () => {
    const [d, ...rest] = await analyze("deployer", { label: "deployer", scopes: ["api-keys:write"] });
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ policyName: "sub-account-key-requires-allow-list", enforcementLevel: MANDATORY });
    expect(d.message).toBe(`${keyAllowList.description}\n${d.message.split("\n")[1]}`);
    expect(d.message).toContain("ApiKey 'deployer' has no ipAllowList");
  });

  it("a send-only key of the same policy is reported advisory, printed like any finding", async () => {
    const [d, ...rest] = await analyze("sender", { label: "sender", scopes: ["messages:send:all"] });
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ policyName: "sub-account-key-requires-allow-list", enforcementLevel: ADVISORY });
    // The description above the finding, as the string form prints it.
    expect(d.message.split("\n")).toEqual([keyAllowList.description, expect.stringContaining("ApiKey 'sender' has")]);
  });
});
