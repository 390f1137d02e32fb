#!/usr/bin/env node
// txmail acceptance run (scripts/acceptance.sh): every kind's lifecycle through the real engine on
// both faces, against the account the environment names, recorded by a loopback proxy into a
// contract report; sweepers before and after. Exit code 0 only when every check passed, every 2xx
// parsed with the provider's schemas, and the run left no object behind.
import { SubAccount, endpointKey, endpointOf, paths } from "../provider/api";
import { OBJECT_KINDS, kindsWith } from "../provider/api/kinds";
import type { Connection } from "../provider/core/connection";
import { createClient } from "../provider/client";
import { declarations } from "../provider/resources";
import { Lifecycle } from "./lifecycle";
import { startProxy } from "./proxy";
import { type Check, type ContractReport, secretsIn, summarise, writeReport } from "./report";
import {
  CONFIRM_VALUE,
  CONFIRM_VARIABLE,
  PREFIX,
  type Settings,
  USAGE,
  UsageError,
  plan,
  readSettings,
} from "./settings";
import { type Account, type Removed, subAccountKey, sweep, total } from "./sweep";

/**
 * The run's key in its own sub account: what the program's objects there need — to read, write and
 * delete each managed kind (the wide form of each declaration's scopes) — and to read the account.
 */
const WORKSPACE_SCOPES = [
  "accounts:read",
  ...kindsWith("managed").flatMap((kind) =>
    // A kind that watches another deletes nothing: its delete needs no scope.
    (["read", "write", "delete"] as const).flatMap((op) => declarations[kind].scopes[op]({}).slice(0, 1)),
  ),
];
const FACE_SUFFIX = { dynamic: "ts", native: "yaml" } as const;

/** Stands for every id in a path that only has to name the endpoint. */
const ANY_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/**
 * Each kind by its create endpoint (`METHOD /template`): the POST to its declaration's collection,
 * as the endpoint table names it.
 */
const KIND_BY_CREATE = new Map(
  OBJECT_KINDS.flatMap((kind) => {
    const collection = declarations[kind].collectionPath({ accountId: ANY_ID } as Connection, { subAccountId: ANY_ID });
    const create = endpointOf("POST", collection);
    return create ? [[endpointKey(create), kind] as const] : [];
  }),
);

/** Objects the run created, by kind: the 2xx answers to creates, as the proxy saw them. */
export function createdByKind(report: Pick<ContractReport, "operations">): Record<string, number> {
  const out: Record<string, number> = {};
  for (const op of report.operations) {
    const kind = KIND_BY_CREATE.get(op.operation);
    const ok = Object.entries(op.statuses).reduce((n, [s, c]) => (s.startsWith("2") ? n + c : n), 0);
    if (kind && ok > 0) out[kind] = (out[kind] ?? 0) + ok;
  }
  return out;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const summary = (r: Removed) =>
  total(r) === 0
    ? "nothing"
    : Object.entries(r)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");

/** Stage: the run's own sub account and a key in it, for the objects the programs create there. */
async function openWorkspace(parent: Account, s: Settings) {
  const { data: workspace } = await parent.client.post(
    paths.subAccounts(s.accountId),
    { name: `${s.runPrefix}-workspace`, website: "acceptance.example.com" },
    SubAccount,
  );
  const key = await subAccountKey(parent, workspace.id, `${s.runPrefix}-runner`, WORKSPACE_SCOPES);
  return { accountId: workspace.id, apiKey: key.secret };
}

/** Stage: every face's lifecycle, side by side (independent stacks: their own names and state). */
async function walkFaces(s: Settings, proxyUrl: string, workspace: { accountId: string; apiKey: string }) {
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
  const lifecycles = s.faces.map(
    (face) =>
      new Lifecycle({
        face,
        prefix: `${s.runPrefix}-${FACE_SUFFIX[face]}`,
        baseUrl: proxyUrl,
        accountId: s.accountId,
        apiKey: s.apiKey,
        workspace,
        expiresAt,
      }),
  );
  await Promise.all(lifecycles.map((l) => l.walk({ steps: s.steps })));
  return lifecycles.flatMap((l) => l.checks);
}

/** Stage: remove the run's sub account and what a failed destroy left; count both, then recount. */
async function closingSweep(parent: Account, s: Settings): Promise<{ check: Check; objectsLeft: number }> {
  const closing = await sweep(parent, s.runPrefix, s.runPrefix);
  const leftByStacks = total(closing) - 1; // the workspace sub account is the runner's, not the stacks'
  const check: Check = {
    face: "all",
    step: "objects left by the stacks",
    ok: leftByStacks === 0,
    detail: leftByStacks === 0 ? "0" : `${leftByStacks}: ${summary(closing)} (removed by the closing sweep)`,
  };
  return { check, objectsLeft: total(await sweep(parent, s.runPrefix, s.runPrefix)) };
}

export interface RunResult {
  report?: ContractReport;
  ok: boolean;
  files?: { json: string; md: string };
}

/** Opening sweep → workspace → every face's lifecycle → closing sweep → report, all through the proxy. */
export async function run(s: Settings): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const proxy = await startProxy(s.baseUrl);
  const client = createClient({ apiKey: s.apiKey, accountId: s.accountId, baseUrl: proxy.url, rateLimit: false });
  const parent: Account = { client, accountId: s.accountId, baseUrl: proxy.url };
  try {
    const swept = await sweep(parent, PREFIX, s.runPrefix);
    log(`swept what earlier runs left: ${summary(swept)}`);
    if (s.sweepOnly) return { ok: true };
    // A stage that fails still leaves a report: what the service answered is what a maintainer needs.
    const checks: Check[] = [];
    const secrets = [s.apiKey];
    const failed = (step: string, e: unknown) =>
      checks.push({ face: "all", step, ok: false, detail: String((e as Error)?.message ?? e) });
    try {
      const workspace = await openWorkspace(parent, s);
      secrets.push(workspace.apiKey);
      checks.push(...(await walkFaces(s, proxy.url, workspace)));
    } catch (e) {
      failed("runner", e);
    }
    let objectsLeft: number | null = null; // unknown when the closing sweep fails
    try {
      const closing = await closingSweep(parent, s);
      checks.push(closing.check);
      objectsLeft = closing.objectsLeft;
    } catch (e) {
      failed("closing sweep", e);
    }

    const analysed = summarise(proxy.exchanges);
    const report: ContractReport = {
      baseUrl: s.baseUrl,
      runPrefix: s.runPrefix,
      startedAt,
      finishedAt: new Date().toISOString(),
      totals: analysed.totals,
      created: createdByKind(analysed),
      objectsLeft,
      swept: total(swept),
      checks,
      operations: analysed.operations,
      unknownOperations: analysed.unknownOperations,
    };
    const files = writeReport(s.reportDir, report, [...secrets, ...secretsIn(proxy.exchanges)]);
    const ok = checks.every((c) => c.ok) && report.totals.parseFailures === 0 && objectsLeft === 0;
    return { report, ok, files };
  } finally {
    await proxy.close();
  }
}

async function main(): Promise<number> {
  let s: Settings;
  try {
    s = readSettings(process.argv.slice(2), process.env);
  } catch (e) {
    if (e instanceof UsageError) {
      log(`txmail acceptance: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  log(plan(s));
  if (process.env[CONFIRM_VARIABLE] !== CONFIRM_VALUE) {
    log(`\nRefusing to start: set ${CONFIRM_VARIABLE}=${CONFIRM_VALUE} to confirm the account above may be used.`);
    return 2;
  }
  const { report, ok, files } = await run(s);
  if (report && files) {
    const failed = report.checks.filter((c) => !c.ok);
    log(
      `\n${report.totals.requests} requests, ${report.totals.parseFailures} parse failures, ` +
        `${report.totals.unknownFields} unknown fields, objects left: ${report.objectsLeft}; ` +
        `checks: ${report.checks.length - failed.length}/${report.checks.length} passed`,
    );
    for (const c of failed) log(`  FAILED ${c.face} ${c.step}: ${c.detail}`);
    log(`report: ${files.md} and ${files.json}`);
  }
  return ok ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      log(`txmail acceptance: ${(e as Error)?.stack ?? String(e)}`);
      process.exit(1);
    },
  );
}
