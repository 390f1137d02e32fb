// credential-rotation: credentials that rotate less often than the team's maxRotationDays (default
// 90), read from the structured `rotation: { every }` and the legacy string trigger; no rotation and
// an unknown schedule are reported when the policy config requires it. Every credential kind: the
// account's keys, sub accounts' keys, SMTP credentials, and the Tenant's (its children).
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { TYPES } from "../../../policy/lib/resources";
import {
  CREDENTIAL_ROTATION_DEFAULTS,
  credentialRotation,
  periodDays,
  validateCredentialRotation,
} from "../../../policy/rules/credentialRotation";
import { type Call, run, runWithLevels, UNKNOWN } from "./harness";

const TENANT = "txmail:index:Tenant";

/** Each way a credential is written, with the name the pack sees and where the fix goes. */
const credentials: Array<[string, (props: Record<string, unknown>) => Call, string]> = [
  ["account key", (props) => ({ kind: "ApiKey", name: "deployer", props: { label: "d", ...props } }), "give it"],
  [
    "sub-account key",
    (props) => ({ kind: "SubAccountApiKey", name: "tenant-ci", props: { subAccountId: "sa", ...props } }),
    "give it",
  ],
  [
    "SMTP credential",
    (props) => ({ kind: "SmtpCredential", name: "relay", props: { name: "r", ...props } }),
    "give it",
  ],
  [
    "tenant bootstrap key",
    (props) => ({ kind: "SubAccountApiKey", name: "acme-bootstrap", parentType: TENANT, props }),
    "give the tenant's bootstrapKey",
  ],
  [
    "tenant app key",
    (props) => ({ kind: "SubAccountApiKey", name: "acme-app", parentType: TENANT, props }),
    "give its entry under the tenant's apiKeys",
  ],
  [
    "tenant SMTP credential",
    (props) => ({ kind: "SmtpCredential", name: "acme-smtp-relay", parentType: TENANT, props }),
    "give its entry under the tenant's smtpCredentials",
  ],
];

describe("credential-rotation", () => {
  it("is advisory, with a 90-day limit, and requires no rotation by default", () => {
    expect(credentialRotation.enforcementLevel).toBe("advisory");
    expect(CREDENTIAL_ROTATION_DEFAULTS).toEqual({
      maxRotationDays: 90,
      requireRotation: false,
      requireKnownPeriod: false,
    });
  });

  it.each([
    ["30d", 30],
    ["720h", 30],
    ["12h", 0.5],
    ["999999d", 999999],
  ])("reads the period %j as %d days", (every, days) => {
    expect(periodDays(every)).toBe(days);
  });

  // The provider's grammar exactly (provider/api/duration.ts): what it refuses at check is no period here.
  it.each([
    30,
    0.5,
    0,
    -1,
    Infinity,
    "30",
    "0d",
    "90D",
    " 12h ",
    "1.5d",
    "030d",
    "30m",
    "2w",
    "P30D",
    "",
    "d",
    null,
    true,
    {},
  ])("reads %j as no period", (every) => {
    expect(periodDays(every)).toBeUndefined();
  });

  describe.each(credentials)("a %s", (_way, credential, where) => {
    it.each([{ every: "30d" }, { every: "90d", overlap: "7d" }, { every: "2160h" }])(
      "is quiet with rotation %j",
      async (rotation) => {
        expect(await run(validateCredentialRotation, credential({ rotation }))).toEqual([]);
      },
    );

    it("is reported when rotation.every is longer than the limit, saying where to write it", async () => {
      const c = credential({ rotation: { every: "180d", overlap: "7d" } });
      const [m, ...rest] = await runWithLevels(validateCredentialRotation, c);
      expect(rest).toEqual([]);
      // A plain finding: the level is the policy's (advisory by default, what the config sets).
      expect(m!.level).toBe("policy");
      expect(m!.message).toContain(`${c.kind} '${c.name}': rotation.every '180d' is 180 days, longer than the 90 days`);
      expect(m!.message).toContain("credential-rotation.maxRotationDays");
      expect(m!.message).toContain(`${where} rotation: { every: "90d" } or a shorter period`);
    });

    it("follows maxRotationDays from the policy config", async () => {
      const c = credential({ rotation: { every: "45d" } });
      expect(await run(validateCredentialRotation, { ...c, config: { maxRotationDays: 30 } })).toEqual([
        expect.stringContaining("longer than the 30 days"),
      ]);
      expect(await run(validateCredentialRotation, { ...c, config: { maxRotationDays: 60 } })).toEqual([]);
      // A value of the wrong type or out of range: the default (90) applies.
      expect(await run(validateCredentialRotation, { ...c, config: { maxRotationDays: "30" } })).toEqual([]);
      expect(await run(validateCredentialRotation, { ...c, config: { maxRotationDays: 0 } })).toEqual([]);
    });

    it("without rotation: quiet by default, reported when the config sets requireRotation", async () => {
      const c = credential({});
      expect(await run(validateCredentialRotation, c)).toEqual([]);
      const [m, ...rest] = await run(validateCredentialRotation, { ...c, config: { requireRotation: true } });
      expect(rest).toEqual([]);
      expect(m).toContain(`${c.kind} '${c.name}' has no rotation`);
      expect(m).toContain("credential-rotation.requireRotation");
      expect(m).toContain(where);
    });
  });

  it("reads the legacy string trigger as a rotation of unknown period, reported only under requireKnownPeriod", async () => {
    const c: Call = { kind: "ApiKey", name: "ci", props: { label: "ci", rotation: "2026-q4" } };
    expect(await run(validateCredentialRotation, c)).toEqual([]);
    expect(await run(validateCredentialRotation, { ...c, config: { requireRotation: true } })).toEqual([]);
    expect(await run(validateCredentialRotation, { ...c, config: { requireKnownPeriod: true } })).toEqual([
      expect.stringContaining("ApiKey 'ci' rotates only when its rotation trigger '2026-q4' changes"),
    ]);
  });

  it.each([
    [{ every: "soon" }, "rotation.every 'soon' is not a rotation period"],
    [{ overlap: "7d" }, "rotation.every is missing"],
    [{ every: "0d" }, "rotation.every '0d' is not a rotation period"],
    [42, "rotation number 42 is not a rotation period"],
  ])("reports a rotation that is no period: %j", async (rotation, text) => {
    const [m, ...rest] = await run(validateCredentialRotation, {
      kind: "SmtpCredential",
      name: "relay",
      props: { rotation },
    });
    expect(rest).toEqual([]);
    expect(m).toContain(`SmtpCredential 'relay': ${text}`);
  });

  it("waits for pulumi up while the rotation or its period is unknown", async () => {
    for (const rotation of [UNKNOWN, { every: UNKNOWN, overlap: "7d" }]) {
      const c: Call = { kind: "ApiKey", name: "k", props: { rotation }, config: { requireRotation: true } };
      expect(await run(validateCredentialRotation, c)).toEqual([]);
    }
  });

  it("is quiet on a good stack: every credential kind rotating within the limit, other kinds ignored", async () => {
    const stack: Call[] = [
      ...credentials.map(([, credential]) => credential({ rotation: { every: "30d", overlap: "2d" } })),
      { kind: "Webhook", name: "events", props: { url: "https://x.example", rotation: { every: "999d" } } },
      { kind: "Domain", name: "mail", props: { domain: "mail.example.com" } },
    ];
    const config = { requireRotation: true, requireKnownPeriod: true, maxRotationDays: 30 };
    for (const call of stack) expect(await run(validateCredentialRotation, { ...call, config })).toEqual([]);
  });
});

/**
 * The installed @pulumi/policy server's analyze handler (as report.test.ts), on one ApiKey: the level
 * it reports the finding at. The server takes the level from the policy config's `enforcementLevel`
 * before the policy's own, so a policy whose level is "mandatory" here is what
 * `{ "credential-rotation": { "enforcementLevel": "mandatory" } }` makes of it.
 */
async function analyzedLevel(level: "advisory" | "mandatory"): Promise<number[]> {
  type Handler = (
    call: { request: analyzerproto.AnalyzeRequest },
    callback: (err: unknown, res: analyzerproto.AnalyzeResponse) => void,
  ) => Promise<void>;
  const { makeAnalyzeRpcFun } = require("@pulumi/policy/server") as {
    makeAnalyzeRpcFun: (pack: string, version: string, level: string, policies: unknown[]) => Handler;
  };
  const request = new analyzerproto.AnalyzeRequest();
  request.setType(TYPES.ApiKey);
  request.setName("yearly");
  request.setUrn(`urn:pulumi:dev::txmail-app::${TYPES.ApiKey}::yearly`);
  request.setProperties(structproto.Struct.fromJavaScript({ label: "yearly", rotation: { every: "365d" } }));
  request.setOptions(new analyzerproto.AnalyzerResourceOptions());
  const policy = { ...credentialRotation, enforcementLevel: level };
  const handler = makeAnalyzeRpcFun("txmail-policies", "0.1.0", "advisory", [policy]);
  const response = await new Promise<analyzerproto.AnalyzeResponse>((resolve, reject) => {
    void handler({ request }, (err, res) => (err ? reject(err) : resolve(res)));
  });
  return response.getDiagnosticsList().map((d) => d.getEnforcementlevel());
}

describe("credential-rotation through @pulumi/policy's own server", () => {
  const { ADVISORY, MANDATORY } = analyzerproto.EnforcementLevel;

  it("reports advisory by default", async () => {
    expect(await analyzedLevel("advisory")).toEqual([ADVISORY]);
  });

  it("reports mandatory when the policy config makes it mandatory (the rule never lowers its findings)", async () => {
    expect(await analyzedLevel("mandatory")).toEqual([MANDATORY]);
  });
});
