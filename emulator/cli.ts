#!/usr/bin/env node
// txmail-emulator: runs the service emulator. Prints ONE JSON line {"baseUrl","accountId","apiKey"}
// (and "smtpUrl" with --smtp-port) on stdout (also written to DIR/bootstrap.json, mode 0600, with --data); nothing else on stdout.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EmulatorOptions } from "./server";
import { SHAPES, type Shapes } from "./shapes";

// node:sqlite prints an ExperimentalWarning; keep stderr for real problems.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((w: string | Error, ...rest: unknown[]) => {
  const text = typeof w === "string" ? w : w.message;
  if (/SQLite is an experimental feature/.test(text)) return;
  (emitWarning as (...a: unknown[]) => void)(w, ...rest);
}) as typeof process.emitWarning;

const USAGE = `usage: txmail-emulator [--port N] [--host H] [--data DIR] [--account-id UUID] [--api-key KEY]
                       [--control-token TOKEN] [--trust-forwarded-for] [--rate-limit RPS:BURST]
                       [--shapes contract|public] [--dns-server HOST:PORT] [--dns-cache-seconds N]
                       [--smtp-port N] [--smtp-log]`;

function fail(msg: string): never {
  process.stderr.write(`txmail-emulator: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): EmulatorOptions {
  const o: EmulatorOptions = { port: 8025 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const val = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case "--port": {
        const p = Number(val());
        if (!Number.isInteger(p) || p < 0 || p > 65535) fail("--port must be 0–65535");
        o.port = p;
        break;
      }
      case "--host":
        o.host = val();
        break;
      case "--data":
        o.dataDir = val();
        break;
      case "--account-id":
        o.accountId = val();
        break;
      case "--api-key":
        o.apiKey = val();
        break;
      case "--control-token":
        o.control = { token: val() };
        break;
      case "--trust-forwarded-for":
        o.trustForwardedFor = true;
        break;
      case "--rate-limit": {
        const m = /^(\d+(?:\.\d+)?):(\d+)$/.exec(val());
        if (!m) fail("--rate-limit takes RPS:BURST, e.g. 100:200");
        o.rateLimit = { rps: Number(m[1]), burst: Number(m[2]) };
        break;
      }
      case "--shapes": {
        const s = val();
        if (!SHAPES.includes(s as Shapes)) fail(`--shapes must be one of ${SHAPES.join(", ")}`);
        o.shapes = s as Shapes;
        break;
      }
      case "--dns-server":
        // Checked (an IP address and a port) when the emulator starts.
        o.dnsServer = val();
        break;
      case "--dns-cache-seconds": {
        const n = Number(val());
        if (!Number.isInteger(n) || n < 0) fail("--dns-cache-seconds must be a whole number >= 0");
        o.dnsCacheSeconds = n;
        break;
      }
      case "--smtp-port": {
        const p = Number(val());
        if (!Number.isInteger(p) || p < 0 || p > 65535) fail("--smtp-port must be 0–65535");
        o.smtpPort = p;
        break;
      }
      case "--smtp-log":
        // stderr: stdout carries the one JSON line only.
        o.smtpLog = (line) => process.stderr.write(`${line}\n`);
        break;
      case "--help":
      case "-h":
        process.stderr.write(`${USAGE}\n`);
        return process.exit(0);
      default:
        fail(`unknown argument ${a}`);
    }
  }
  return o;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.apiKey === undefined && process.env.TXMAIL_EMULATOR_API_KEY)
    opts.apiKey = process.env.TXMAIL_EMULATOR_API_KEY;
  // Loaded after the warning filter is in place (node:sqlite warns when it is first loaded).

  const { startEmulator } = require("./server") as typeof import("./server");
  const emu = await startEmulator(opts);
  // smtpUrl only with --smtp-port, so the line stays as it was for everyone else.
  const line = JSON.stringify({
    baseUrl: emu.baseUrl,
    accountId: emu.accountId,
    apiKey: emu.apiKey,
    ...(emu.smtp ? { smtpUrl: emu.smtp.url } : {}),
  });
  if (opts.dataDir) {
    const file = join(opts.dataDir, "bootstrap.json");
    writeFileSync(file, line + "\n", { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  process.stdout.write(line + "\n");
  let stopping = false;
  const stop = (sig: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`txmail-emulator: ${sig}, shutting down\n`);
    emu.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((e: unknown) => fail((e as Error)?.message ?? String(e)));
