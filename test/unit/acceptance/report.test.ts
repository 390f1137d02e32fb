// acceptance/report.ts: the contract report from recorded exchanges — statuses, parses with the
// provider's schemas, unknown fields, rate-limit headers, latency — and no secret in what it writes.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { operationOf } from "../../../acceptance/operations";
import type { Exchange } from "../../../acceptance/proxy";
import { type ContractReport, secretsIn, summarise, unknownFields, writeReport } from "../../../acceptance/report";
import { ApiKey } from "../../../provider/api";
import { routeRecord } from "../../fixtures/records";

const A = "/v2/accounts/0b6c1f5e-0e0a-4d8e-9a53-2f1a2b3c4d5e";
const route = (extra: Record<string, unknown> = {}) =>
  routeRecord({ id: "5b1f3a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b", ...extra });
const exchange = (x: Partial<Exchange>): Exchange => ({
  method: "GET",
  path: `${A}/routes`,
  queryKeys: [],
  status: 200,
  ms: 10,
  rateHeaders: {},
  ...x,
});
const SECRET = "whsec-0123456789abcdef";
const KEY = "txm-sk-" + "a".repeat(64);

const exchanges: Exchange[] = [
  exchange({
    method: "POST",
    status: 201,
    ms: 30,
    json: route({ secret: SECRET, surprise: 1 }),
    rateHeaders: { "ratelimit-remaining": "199" },
  }),
  exchange({
    method: "GET",
    path: `${A}/routes/5b1f3a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
    ms: 10,
    json: route({ last_request_at: "" }),
  }),
  exchange({
    method: "GET",
    path: `${A}/routes/5b1f3a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
    ms: 20,
    json: route({ enabled: "yes" }),
  }),
  exchange({
    method: "GET",
    path: `${A}/routes/5b1f3a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
    status: 404,
    ms: 5,
    json: { message: "not found" },
  }),
  exchange({ method: "POST", path: `${A}/api-keys`, status: 201, json: { secret_key: KEY } }),
  exchange({ method: "GET", path: "/v3/unknown/12345" }),
];

describe("the contract report", () => {
  const r = summarise(exchanges);
  const op = (name: string) => r.operations.find((o) => o.operation === name)!;

  it("groups exchanges by method and path template, with statuses and latency", () => {
    const get = op(`GET ${"/v2/accounts/{account_id}/routes/{route_id}"}`);
    expect(get.statuses).toEqual({ "200": 2, "404": 1 });
    expect(get.latencyMs).toEqual({ median: 10, max: 20 });
    expect(r.unknownOperations).toEqual(["GET /v3/unknown/:"]);
    expect(r.totals.requests).toBe(6);
  });

  it('parses 2xx bodies with the provider\'s schemas: "" for unset passes, a wrong type fails naming the field', () => {
    const get = op("GET /v2/accounts/{account_id}/routes/{route_id}");
    expect([get.parsed, get.parseFailures]).toEqual([1, 1]);
    expect(get.issues.join()).toMatch(/^enabled: /);
    expect(op("POST /v2/accounts/{account_id}/api-keys").parseFailures).toBe(1);
  });

  it("names fields the schemas do not know, and the rate-limit headers seen", () => {
    const post = op("POST /v2/accounts/{account_id}/routes");
    expect(post.unknownFields).toEqual(["surprise"]);
    expect(post.rateHeaders).toEqual({ "ratelimit-remaining": "199" });
  });

  it("looks into the alternative a value is: a key's scopes as objects", () => {
    const key = { scopes: ["domains:read", { id: "x", scope: "routes:read:all", domain_id: "" }] };
    expect(unknownFields(ApiKey, key).sort()).toEqual(["scopes[].domain_id", "scopes[].id"]);
  });

  it("writes no secret: bodies stay out, and secrets the run met are scrubbed", () => {
    expect(secretsIn(exchanges).sort()).toEqual([KEY, SECRET].sort());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-report-"));
    const report: ContractReport = {
      baseUrl: "http://127.0.0.1:1",
      runPrefix: "txacc-20260101-abcdef",
      startedAt: "",
      finishedAt: "",
      totals: r.totals,
      created: {},
      objectsLeft: 0,
      swept: 0,
      // A check whose detail carries a secret (an engine error quoting one) is scrubbed too.
      checks: [{ face: "dynamic", step: "engine", ok: false, detail: `failed with ${KEY}` }],
      operations: r.operations,
      unknownOperations: r.unknownOperations,
    };
    const files = writeReport(dir, report, [KEY, ...secretsIn(exchanges)]);
    for (const file of [files.json, files.md]) {
      const text = fs.readFileSync(file, "utf8");
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(SECRET);
      expect(text).toContain("[redacted]");
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("operations", () => {
  it("matches literal segments before ids", () => {
    expect(operationOf("GET", `${A}/sub-accounts/usage`)?.template).toBe(
      "/v2/accounts/{account_id}/sub-accounts/usage",
    );
    expect(operationOf("GET", `${A}/sub-accounts/0b6c1f5e-0e0a-4d8e-9a53-2f1a2b3c4d5e`)?.template).toBe(
      "/v2/accounts/{account_id}/sub-accounts/{sub_account_id}",
    );
    expect(operationOf("DELETE", `${A}/suppressions/all`)?.template).toBe("/v2/accounts/{account_id}/suppressions/all");
    expect(operationOf("PATCH", `${A}/routes`)).toBeUndefined();
  });
});
