// The contract report: per operation (method + path template) the status codes the service answered,
// whether each 2xx body parsed with the provider's own schemas (provider/client/validate.ts, the very
// function the provider reads responses with), fields the service sent that the schemas do not know,
// rate-limit headers, and latency. It holds no body and no query value; every secret the run met is
// scrubbed from the text once more before it is written.
import * as fs from "node:fs";
import * as path from "node:path";
import type { z } from "zod";
import { TxmailApiError } from "../provider/client/errors";
import { parseResponse } from "../provider/client/validate";
import { operationOf } from "./operations";
import type { Exchange } from "./proxy";

export interface OperationReport {
  operation: string;
  requests: number;
  statuses: Record<string, number>;
  /** 2xx bodies that parsed with the provider's schema / that did not. */
  parsed: number;
  parseFailures: number;
  /** The first issues of failed parses (field path and rule, never a value). */
  issues: string[];
  /** Fields the service sent that the provider's schema does not declare (`data[].name` paths). */
  unknownFields: string[];
  /** Rate-limit header names seen, with the last value of each. */
  rateHeaders: Record<string, string>;
  latencyMs: { median: number; max: number };
}

export interface Check {
  face: string;
  step: string;
  ok: boolean;
  detail: string;
}

export interface ContractReport {
  baseUrl: string;
  runPrefix: string;
  startedAt: string;
  finishedAt: string;
  totals: { requests: number; parseFailures: number; unknownFields: number; transportErrors: number };
  /** Objects the run created, by kind (what the run costs). */
  created: Record<string, number>;
  /** Objects with the run's prefix left after the run (0 when it cleaned up; null: the closing sweep failed). */
  objectsLeft: number | null;
  /** Objects earlier runs left that the opening sweep removed. */
  swept: number;
  checks: Check[];
  operations: OperationReport[];
  /** Requests the table of operations does not know (method + path shape). */
  unknownOperations: string[];
}

type Def = {
  type: string;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Paths of fields in `value` that `schema` does not declare. */
export function unknownFields(schema: z.ZodType, value: unknown, at = ""): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
      const shape = def.shape!;
      return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
        k in shape ? unknownFields(shape[k]!, v, at ? `${at}.${k}` : k) : [at ? `${at}.${k}` : k],
      );
    }
    case "array":
      return Array.isArray(value) ? [...new Set(value.flatMap((v) => unknownFields(def.element!, v, `${at}[]`)))] : [];
    case "nullable":
    case "optional":
    case "readonly":
    case "default":
      return unknownFields(def.innerType!, value, at);
    case "pipe":
      return unknownFields(def.in!, value, at);
    case "union": {
      // The alternative the value is (e.g. a key's scope as a string or as an object).
      const option = def.options!.find((o) => o.safeParse(value).success);
      return option ? unknownFields(option, value, at) : [];
    }
    default:
      return [];
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number) => Math.round(x * 10) / 10;
/** A path's shape without ids or names (a segment with 4+ digits, a dot or an @): `/v2/accounts/:/routes/:`. */
const shapeOf = (p: string) =>
  p
    .split("/")
    .map((seg) => (/[.@%]/.test(seg) || (seg.match(/\d/g)?.length ?? 0) >= 4 ? ":" : seg))
    .join("/");

/** Stage: exchanges grouped by operation (method, template, query parameter names); the rest unknown. */
function groupByOperation(exchanges: Exchange[]) {
  const byOp = new Map<string, { schema: z.ZodType; xs: Exchange[] }>();
  const unknownOperations = new Set<string>();
  for (const x of exchanges) {
    const op = operationOf(x.method, x.path);
    if (!op) {
      unknownOperations.add(`${x.method} ${shapeOf(x.path)}`);
      continue;
    }
    const name = `${op.method} ${op.template}${x.queryKeys.length ? `?${[...x.queryKeys].sort().join("&")}` : ""}`;
    const entry = byOp.get(name) ?? { schema: op.schema, xs: [] };
    entry.xs.push(x);
    byOp.set(name, entry);
  }
  return { byOp, unknownOperations: [...unknownOperations].sort() };
}

/** Stage: one operation's exchanges, each 2xx body read with the provider's own parse. */
function analyse(operation: string, schema: z.ZodType, xs: Exchange[]): OperationReport {
  const statuses: Record<string, number> = {};
  const issues = new Set<string>();
  const unknown = new Set<string>();
  const rateHeaders: Record<string, string> = {};
  let parsed = 0;
  let parseFailures = 0;
  for (const x of xs) {
    const status = x.transportError ? "no answer" : String(x.status);
    statuses[status] = (statuses[status] ?? 0) + 1;
    Object.assign(rateHeaders, x.rateHeaders);
    if (x.status < 200 || x.status > 299) continue;
    try {
      parseResponse(schema, x.json, { method: x.method, path: operation, status: x.status, attempts: 1 });
      parsed++;
    } catch (e) {
      parseFailures++;
      const found = e instanceof TxmailApiError ? e.issues : [{ path: "(root)", message: String(e) }];
      for (const i of found.slice(0, 3)) issues.add(`${i.path}: ${i.message}`);
    }
    for (const f of unknownFields(schema, x.json)) unknown.add(f);
  }
  const ms = xs.map((x) => x.ms);
  return {
    operation,
    requests: xs.length,
    statuses,
    parsed,
    parseFailures,
    issues: [...issues].slice(0, 5),
    unknownFields: [...unknown].sort(),
    rateHeaders,
    latencyMs: { median: round(median(ms)), max: round(Math.max(0, ...ms)) },
  };
}

export function summarise(exchanges: Exchange[]): Pick<ContractReport, "operations" | "unknownOperations" | "totals"> {
  const { byOp, unknownOperations } = groupByOperation(exchanges);
  const operations = [...byOp.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, { schema, xs }]) => analyse(operation, schema, xs));
  return {
    operations,
    unknownOperations,
    totals: {
      requests: exchanges.length,
      parseFailures: operations.reduce((n, o) => n + o.parseFailures, 0),
      unknownFields: operations.reduce((n, o) => n + o.unknownFields.length, 0),
      transportErrors: exchanges.filter((x) => x.transportError).length,
    },
  };
}

/** Field names whose values are secrets, in any body (API keys, route/webhook secrets, SMTP passwords). */
const SECRET_FIELDS = /^(secret|secret_key|password|api_key|apiKey|secretKey)$/;

/** Every secret value in the bodies the run saw, to scrub from the report. */
export function secretsIn(exchanges: Exchange[]): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== "object") return;
    for (const [k, x] of Object.entries(v)) {
      if (SECRET_FIELDS.test(k) && typeof x === "string" && x.length >= 6) found.add(x);
      else walk(x);
    }
  };
  for (const x of exchanges) walk(x.json);
  return [...found];
}

export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets.filter((x) => x.length >= 6).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join("[redacted]");
  }
  return out;
}

export function markdown(r: ContractReport): string {
  const lines = [
    `# txmail contract report`,
    ``,
    `Base URL: ${r.baseUrl} · run ${r.runPrefix} · ${r.startedAt} → ${r.finishedAt}`,
    ``,
    `- requests: ${r.totals.requests} · parse failures: ${r.totals.parseFailures} · unknown fields: ${r.totals.unknownFields} · transport errors: ${r.totals.transportErrors}`,
    `- objects created: ${Object.entries(r.created)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `- objects left: ${r.objectsLeft ?? "unknown (the closing sweep failed)"} · swept from earlier runs: ${r.swept}`,
    `- lifecycle checks: ${r.checks.filter((c) => c.ok).length}/${r.checks.length} passed`,
    ``,
    `## Lifecycle`,
    ``,
    `| face | step | ok | detail |`,
    `|---|---|---|---|`,
    ...r.checks.map(
      (c) => `| ${c.face} | ${c.step} | ${c.ok ? "yes" : "**NO**"} | ${c.detail.replace(/\|/g, "\\|")} |`,
    ),
    ``,
    `## Operations`,
    ``,
    `| operation | requests | statuses | parsed / failed | unknown fields | rate-limit headers | latency ms (median / max) |`,
    `|---|---|---|---|---|---|---|`,
    ...r.operations.map(
      (o) =>
        `| \`${o.operation}\` | ${o.requests} | ${Object.entries(o.statuses)
          .map(([s, n]) => `${s}×${n}`)
          .join(" ")} | ${o.parsed} / ${o.parseFailures}${o.issues.length ? ` (${o.issues.join("; ")})` : ""} | ${
          o.unknownFields.join(", ") || "—"
        } | ${Object.keys(o.rateHeaders).join(", ") || "—"} | ${o.latencyMs.median} / ${o.latencyMs.max} |`,
    ),
  ];
  if (r.unknownOperations.length) lines.push(``, `Requests outside the table: ${r.unknownOperations.join(", ")}`);
  return lines.join("\n") + "\n";
}

/** Writes contract-report.json and contract-report.md into `dir`, scrubbed of `secrets`; returns their paths. */
export function writeReport(dir: string, r: ContractReport, secrets: string[]): { json: string; md: string } {
  fs.mkdirSync(dir, { recursive: true });
  const json = path.join(dir, "contract-report.json");
  const md = path.join(dir, "contract-report.md");
  fs.writeFileSync(json, redact(JSON.stringify(r, null, 2), secrets) + "\n");
  fs.writeFileSync(md, redact(markdown(r), secrets));
  return { json, md };
}
