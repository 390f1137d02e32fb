// A sender application, as a process of its own: it sends messages continuously through the service
// — over the HTTP API with an API key and over SMTP submission with an SMTP credential — with the
// credentials it read last from a Pulumi stack's outputs, reloading them every `reloadMs` with
// `pulumi stack output --json --show-secrets` (an application reading its secret store). Rotation's
// zero-downtime proof (test/e2e/rotationZeroDowntime.test.ts) starts it and counts what it says.
//
// Run as `node dist/support/rotationSender.js` with its settings as JSON in TXMAIL_SENDER (below)
// and the stack's engine environment (backend, passphrase, Pulumi home) in its own. It says what
// happens as JSON lines on stdout — never a secret: a credential is named by a fingerprint (the
// first 12 hex digits of its SHA-256, fingerprintOf) — and ends with a summary when its stdin closes.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { createTransport, type Transporter } from "nodemailer";

const execFileAsync = promisify(execFile);

export interface SenderSettings {
  /** The Pulumi CLI, the program's directory and the stack to read the outputs of. */
  pulumi: string;
  cwd: string;
  stack: string;
  /** The service: its HTTP base URL and account, its SMTP submission's host and port. */
  baseUrl: string;
  accountId: string;
  smtpHost: string;
  smtpPort: number;
  /** The sender's address (on a verified domain) and the outputs holding each credential. */
  from: string;
  outputs: { apiKey: string; smtpUsername: string; smtpPassword: string };
  reloadMs: number;
  /** The pause between two rounds of sends (one over each channel). */
  pauseMs: number;
}

/** Every line the sender prints. */
export type SenderEvent =
  | { event: "reloaded"; n: number; api?: string; smtp?: string }
  | { event: "reload-failed"; n: number; reason: string }
  | { event: "first-send"; via: Channel; credential: string }
  | { event: "failed"; via: Channel; credential: string; status: number | string }
  | { event: "summary"; reloads: number; api: Tally; smtp: Tally; ms: number };

export type Channel = "api" | "smtp";
export interface Tally {
  attempted: number;
  failed: number;
}

/** How a credential is named in what the sender says (a secret never is). */
export const fingerprintOf = (secret: string): string => createHash("sha256").update(secret).digest("hex").slice(0, 12);

const say = (e: SenderEvent): void => {
  process.stdout.write(`${JSON.stringify(e)}\n`);
};

interface Credentials {
  apiKey?: string;
  smtp?: { user: string; pass: string };
}

async function main(): Promise<void> {
  const s = JSON.parse(process.env.TXMAIL_SENDER ?? "") as SenderSettings;
  const started = Date.now();
  let credentials: Credentials = {};
  let reloads = 0;
  let stopping = false;
  process.stdin.on("end", () => (stopping = true)).resume();

  const reload = async (): Promise<void> => {
    try {
      const { stdout } = await execFileAsync(
        s.pulumi,
        ["stack", "output", "--json", "--show-secrets", "--stack", s.stack],
        { cwd: s.cwd, env: process.env, maxBuffer: 16 * 1024 * 1024 },
      );
      const out = JSON.parse(stdout) as Record<string, unknown>;
      const text = (name: string) => (typeof out[name] === "string" && out[name] !== "" ? out[name] : undefined);
      const apiKey = text(s.outputs.apiKey);
      const user = text(s.outputs.smtpUsername);
      const pass = text(s.outputs.smtpPassword);
      credentials = { apiKey, smtp: user && pass ? { user, pass } : undefined };
      reloads++;
      say({
        event: "reloaded",
        n: reloads,
        api: apiKey && fingerprintOf(apiKey),
        smtp: pass && fingerprintOf(pass),
      });
    } catch (err) {
      // The store unreadable for a moment: the sender goes on with what it has, as an application would.
      say({ event: "reload-failed", n: reloads, reason: (err as Error).message.split("\n")[0] ?? "" });
    }
  };

  const tally: Record<Channel, Tally> = { api: { attempted: 0, failed: 0 }, smtp: { attempted: 0, failed: 0 } };
  const used = new Set<string>();
  const note = (via: Channel, credential: string, status: number | string | true): void => {
    tally[via].attempted++;
    if (status !== true) {
      tally[via].failed++;
      say({ event: "failed", via, credential, status });
    } else if (!used.has(`${via} ${credential}`)) {
      used.add(`${via} ${credential}`);
      say({ event: "first-send", via, credential });
    }
  };

  let transport: { pass: string; t: Transporter } | undefined;
  let n = 0;
  const sendApi = async (key: string): Promise<void> => {
    let status: number | string | true;
    try {
      const res = await fetch(`${s.baseUrl}/v2/accounts/${s.accountId}/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          from: { email: s.from },
          recipients: [{ email: `user${n}@example.net` }],
          subject: `message ${n}`,
          text_content: "hello",
        }),
      });
      await res.arrayBuffer();
      status = res.ok ? true : res.status;
    } catch (err) {
      status = (err as Error).name;
    }
    note("api", fingerprintOf(key), status);
  };
  const sendSmtp = async (smtp: { user: string; pass: string }): Promise<void> => {
    if (transport?.pass !== smtp.pass) {
      transport?.t.close();
      // Not pooled: each message opens a connection and logs in, so every send proves the credential.
      transport = {
        pass: smtp.pass,
        t: createTransport({
          host: s.smtpHost,
          port: s.smtpPort,
          secure: false,
          ignoreTLS: true,
          auth: { user: smtp.user, pass: smtp.pass },
          connectionTimeout: 10_000,
          socketTimeout: 20_000,
        }),
      };
    }
    let status: number | string | true;
    try {
      await transport.t.sendMail({ from: s.from, to: `user${n}@example.net`, subject: `message ${n}`, text: "hello" });
      status = true;
    } catch (err) {
      status = (err as { responseCode?: number }).responseCode ?? (err as Error).name;
    }
    note("smtp", fingerprintOf(smtp.pass), status);
  };

  await reload();
  let nextReload = Date.now() + s.reloadMs;
  let reloading: Promise<void> | undefined;
  while (!stopping) {
    if (!reloading && Date.now() >= nextReload)
      reloading = reload().finally(() => {
        reloading = undefined;
        nextReload = Date.now() + s.reloadMs;
      });
    const { apiKey, smtp } = credentials;
    n++;
    await Promise.all([apiKey && sendApi(apiKey), smtp && sendSmtp(smtp)]);
    await new Promise((r) => setTimeout(r, s.pauseMs));
  }
  await reloading;
  transport?.t.close();
  say({ event: "summary", reloads, api: tally.api, smtp: tally.smtp, ms: Date.now() - started });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`rotationSender: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}
