// Shared helpers of the emulator conformance suite: an in-process emulator on 127.0.0.1 port 0 and
// a tiny HTTP helper over real HTTP (global fetch), no client retries, so every status is the
// emulator's own.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/server";
import { EmulatorControl, controlClient } from "../../../emulator/control";

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Emu extends RunningEmulator {
  control: EmulatorControl;
  req<T = any>(method: string, path: string, opts?: ReqOpts): Promise<Res<T>>;
  /** `/v2/accounts/{accountId}` + rest. */
  acct(rest?: string, accountId?: string): string;
}

export interface ReqOpts {
  body?: unknown;
  raw?: string;
  key?: string | null;
  idem?: string;
  headers?: Record<string, string>;
}

export async function start(opts: EmulatorOptions = {}): Promise<Emu> {
  const emu = await startEmulator({ port: 0, control: true, ...opts });
  // Without a control surface (control: false) `control` throws on use, not at start, so a test can
  // start such an emulator and still close it.
  const control = emu.controlToken
    ? controlClient(emu)
    : new Proxy({} as EmulatorControl, {
        get: () => () => Promise.reject(new Error("this emulator was started without a control surface")),
      });
  const req = async <T>(method: string, path: string, o: ReqOpts = {}): Promise<Res<T>> => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? emu.apiKey : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (o.idem !== undefined) headers["idempotency-key"] = o.idem;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    const r = await fetch(emu.baseUrl + path, { method, headers, body });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: r.status, headers: r.headers, body: parsed as T, text };
  };
  return {
    ...emu,
    control,
    req,
    acct: (rest = "", accountId = emu.accountId) => `/v2/accounts/${accountId}${rest}`,
  };
}

let seq = 0;
export const uniq = (p = "x") => `${p}-${Date.now().toString(36)}-${++seq}`;

/** Creates an account key with the given scopes; returns the record and its secret. */
export async function makeKey(emu: Emu, scopes: string[], extra: Record<string, unknown> = {}, accountId?: string) {
  const path = accountId ? emu.acct(`/sub-accounts/${accountId}/api-keys`) : emu.acct("/api-keys");
  const r = await emu.req("POST", path, { body: { label: uniq("key"), scopes, ...extra } });
  if (r.status !== 201) throw new Error(`makeKey: ${r.status} ${r.text}`);
  return { id: r.body.id as string, secret: r.body.secret_key as string, record: r.body };
}

export async function makeSub(emu: Emu, name = uniq("sub")) {
  const r = await emu.req("POST", emu.acct("/sub-accounts"), { body: { name, website: "example.org" } });
  if (r.status !== 201) throw new Error(`makeSub: ${r.status} ${r.text}`);
  return r.body as { id: string; name: string; status: string };
}

/** A domain of the parent with valid DNS (verified through the control surface). */
export async function verifiedDomain(emu: Emu, name: string, accountId?: string, key?: string) {
  const r = await emu.req("POST", emu.acct("/domains", accountId), { body: { domain: name }, key });
  if (r.status !== 201) throw new Error(`verifiedDomain: ${r.status} ${r.text}`);
  await emu.control.setDomainVerified(name, true, { accountId });
}

/** The error body is exactly `{ message }` (error rule 1, docs/contract/errors.md#rule-1). */
export function expectError(r: Res, status: number, message?: RegExp | string) {
  expect({ status: r.status, body: r.body }).toMatchObject({ status, body: { message: expect.any(String) } });
  expect(Object.keys(r.body)).toEqual(["message"]);
  if (message !== undefined) expect(r.body.message).toMatch(message);
}

const ROOT = join(__dirname, "../../..");

/**
 * dist/emulator/cli.js when it is newer than every source it is built from; else a quick transpile
 * into a directory `scratch` makes (the caller removes it).
 */
export function cliPath(scratch: () => string): { cli: string; env: NodeJS.ProcessEnv } {
  const dist = join(ROOT, "dist/emulator/cli.js");
  const sources = ["emulator", "provider/api", "provider/core"].flatMap((d) => walk(join(ROOT, d)));
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  if (existsSync(dist) && statSync(dist).mtimeMs >= newest) return { cli: dist, env: process.env };

  const ts = require("typescript") as typeof import("typescript");
  const out = scratch();
  for (const f of sources) {
    const js = ts.transpileModule(readFileSync(f, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const dest = join(out, relative(ROOT, f)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, js);
  }
  return { cli: join(out, "emulator/cli.js"), env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") } };
}

function walk(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? walk(join(d, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")
        ? [join(d, e.name)]
        : [],
  );
}
