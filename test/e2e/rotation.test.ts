// Credentials that rotate on a schedule with zero downtime, proven through the real engine on the
// native face (a YAML program on the plugin `txmail`; the rotation itself is the generic provider's,
// below both faces, and test/conformance/core/rotation*.test.ts cover its cases one by one).
//
// 1. Zero downtime, measured: a sender application — a process of its own (support/rotationSender.ts)
//    — sends continuously over the HTTP API with the stack's API key and over SMTP with its SMTP
//    credential, reloading both from `pulumi stack output` every RELOAD_MS. Three rotations of both,
//    each an `up` after `every` (rotate) then an `up` after the overlap (revoke), the emulator's clock
//    advanced and the provider given the same offset (TXMAIL_CLOCK_OFFSET_SECONDS through the
//    workspace's environment). The test waits for the sender to have sent with each new credential
//    before letting the overlap end. Every send must be accepted; each revoked credential refused.
// 2. Kills: the CLI SIGKILLed at each step of a rotation (support/killAtWrite.ts) — right after the
//    new key's create committed; after the key's rotation was saved (killed at the relay's create,
//    which depends on it, with both previous credentials still live); right after a revocation's
//    DELETE committed — then `up` again and a preview that must show no change: the live
//    credentials are exactly those the state names (the current, and the previous within the
//    overlap), no third, none unnamed, no secret in plain text. The sender runs through the kills
//    too: a kill must not cost a send either.
// 3. The preview before the first rotation and before the first revocation names each as such.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { createTransport } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { Domain, MessageCreationResponse, paths } from "../../provider/api";
import { TxmailApiError, createClient } from "../../provider/client";
import { controlClient, type EmulatorControl } from "../../support/control";
import { runKilledAtWrite, type WriteToKillAt } from "../../support/killAtWrite";
import { spawnBounded, type BoundedRun } from "../../support/processes";
import { REPO_ROOT, TOOLS_DIR } from "../../support/root";
import { type SenderEvent, type SenderSettings, fingerprintOf } from "../../support/rotationSender";
import { startService, type TestService } from "../../support/service";
import { createTestStack, type TestStack } from "./harness";

jest.setTimeout(15 * 60_000);

const DAY = 86_400_000;
const PAST = 60_000; // a minute past the instant a rotation or a revocation falls due
const RELOAD_MS = 1_500;
const DOMAIN = "send.rotating.example.com";
const API_KEY_LABEL = "rotating sender";
const SMTP_NAME = "rotating relay";

let svc: TestService;
let control: EmulatorControl;
let t: TestStack;

beforeAll(async () => {
  svc = await startService({ smtpPort: 0 });
  control = controlClient(svc);
  await svc.client.post(paths.domains(svc.accountId), { domain: DOMAIN }, Domain);
  await control.setDomainVerified(DOMAIN, true);
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "rotating"),
    name: "rotating",
    config: svc.config(),
    // The development plugin (dist/native via node): what `npx tsc` rebuilds.
    withoutNode: false,
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

/** Advances the emulator's clock and gives the engine's providers the same offset. */
async function advance(ms: number): Promise<void> {
  const { offsetMs } = await control.advanceClock(ms);
  // The workspace's environment is what the CLI, and so every provider process of the next run, gets.
  (t.stack.workspace as LocalWorkspace).envVars.TXMAIL_CLOCK_OFFSET_SECONDS = String(offsetMs / 1000);
}

/** The sender application, running; what it said, and a bounded wait for what it will say. */
class Sender {
  readonly events: SenderEvent[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly run: { child: ChildProcess; done: Promise<BoundedRun> };
  constructor() {
    const settings: SenderSettings = {
      pulumi: path.join(TOOLS_DIR, "bin", "pulumi"),
      cwd: t.workDir,
      stack: t.stackName,
      baseUrl: svc.baseUrl,
      accountId: svc.accountId,
      smtpHost: svc.smtp!.host,
      smtpPort: svc.smtp!.port,
      from: `app@${DOMAIN}`,
      outputs: { apiKey: "apiKey", smtpUsername: "smtpUsername", smtpPassword: "smtpPassword" },
      reloadMs: RELOAD_MS,
      pauseMs: 100,
    };
    let partial = "";
    this.run = spawnBounded(process.execPath, [path.join(REPO_ROOT, "dist", "support", "rotationSender.js")], {
      // The stack's backend and passphrase, as the application's secret store; a Pulumi home of its
      // own, so a kill of the stack's processes (found by their home) never touches the sender.
      env: {
        ...process.env,
        ...t.env(),
        PULUMI_HOME: path.join(t.stateDir, "sender-home"),
        TXMAIL_SENDER: JSON.stringify(settings),
      },
      what: "the sender",
      timeoutMs: 14 * 60_000,
      onStdout: (text) => {
        const lines = (partial + text).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("{")) this.events.push(JSON.parse(line) as SenderEvent);
        for (const wake of this.waiters.splice(0)) wake();
      },
    });
  }

  /** Resolves once the sender has said something `pred` accepts (bounded). */
  async saw(what: string, pred: (e: SenderEvent) => boolean, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.events.some(pred)) {
      // A failed send fails the test at once, naming it (the sender never says a secret).
      const failed = this.events.filter((e) => e.event === "failed");
      if (failed.length)
        throw new Error(`the sender failed to send:\n${failed.map((e) => JSON.stringify(e)).join("\n")}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the sender never said ${what}; it said:\n${this.said()}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => (clearTimeout(timer), wake()));
      });
    }
  }

  /** Resolves once the sender has sent over both channels with these credentials. */
  async sentWith(apiKey: string, smtpPassword: string): Promise<void> {
    const [api, smtp] = [fingerprintOf(apiKey), fingerprintOf(smtpPassword)];
    const sent = (via: string, fp: string) => (e: SenderEvent) =>
      e.event === "first-send" && e.via === via && e.credential === fp;
    await this.saw(`a send over the API with ${api}`, sent("api", api));
    await this.saw(`a send over SMTP with ${smtp}`, sent("smtp", smtp));
  }

  said(): string {
    return this.events.map((e) => JSON.stringify(e)).join("\n");
  }

  /** Stops it (its stdin closed) and returns its summary. */
  async stop(): Promise<Extract<SenderEvent, { event: "summary" }>> {
    this.run.child.stdin!.end();
    const ended = await this.run.done;
    const summary = this.events.find((e) => e.event === "summary");
    if (!summary) throw new Error(`the sender ended (${ended.code}) without a summary: ${ended.stderr}`);
    return summary;
  }
}

const text = (outputs: Record<string, { value: unknown }>, name: string) => {
  const v = outputs[name]?.value;
  return typeof v === "string" ? v : undefined;
};

/** What the service answers a send over the API with this key: 202, or the status that refused it. */
async function apiStatus(key: string): Promise<number> {
  const c = createClient({ apiKey: key, baseUrl: svc.baseUrl, rateLimit: false, retry: { maxAttempts: 1 } });
  try {
    await c.post(
      paths.messages(svc.accountId),
      {
        from: { email: `app@${DOMAIN}` },
        recipients: [{ email: "probe@example.net" }],
        subject: "probe",
        text_content: "hello",
      },
      MessageCreationResponse,
    );
    return 202;
  } catch (err) {
    if (err instanceof TxmailApiError && err.status !== undefined) return err.status;
    throw err;
  }
}

/** What the service's SMTP answers a login: true, or the reply code that refused it. */
async function smtpLogin(user: string, pass: string): Promise<true | number> {
  const transport = createTransport({
    host: svc.smtp!.host,
    port: svc.smtp!.port,
    secure: false,
    ignoreTLS: true,
    auth: { user, pass },
    connectionTimeout: 10_000,
    socketTimeout: 20_000,
  } satisfies SMTPTransport.Options);
  try {
    return await transport.verify();
  } catch (err) {
    return (err as { responseCode?: number }).responseCode ?? 0;
  } finally {
    transport.close();
  }
}

interface Named {
  currentId: string;
  previousId?: string;
  rotations: number;
}

/** The stack's checkpoint as the file backend keeps it (read as a file: a CLI run per look costs a second of CPU). */
function checkpointFile(): string {
  return path.join(t.stateDir, ".pulumi", "stacks", "rotating", `${t.stackName}.json`);
}

/** What the stack's state names of each credential, and whether an operation was left pending. */
async function stateNames(): Promise<{ sender: Named; relay: Named; pending: number }> {
  const { checkpoint } = JSON.parse(fs.readFileSync(checkpointFile(), "utf8")) as {
    checkpoint: {
      latest: { resources: Array<{ type: string; outputs?: Record<string, unknown> }>; pending_operations?: unknown[] };
    };
  };
  const of = (type: string): Named => {
    const o = checkpoint.latest.resources.find((r) => r.type === type)?.outputs ?? {};
    return {
      currentId: String(o.currentId),
      previousId: typeof o.previousId === "string" ? o.previousId : undefined,
      rotations: Number(o.rotations),
    };
  };
  return {
    sender: of("txmail:index:ApiKey"),
    relay: of("txmail:index:SmtpCredential"),
    pending: checkpoint.latest.pending_operations?.length ?? 0,
  };
}

/** The live credentials of each resource at the service. */
async function live(): Promise<{ sender: string[]; relay: string[] }> {
  const d = await control.dumpState();
  return {
    sender: d.api_keys
      .filter((k) => k.label === API_KEY_LABEL)
      .map((k) => k.id)
      .sort(),
    relay: d.smtp_credentials
      .filter((c) => c.name === SMTP_NAME)
      .map((c) => c.id)
      .sort(),
  };
}

/**
 * The invariants after a converged run: each credential's live objects are exactly those the state
 * names — the current, and the previous within the overlap — no twin, no orphan; no pending
 * operation; no secret of the stack in plain text in its state files.
 */
async function expectConverged(withPrevious: boolean): Promise<{ sender: Named; relay: Named }> {
  const names = await stateNames();
  expect(names.pending).toBe(0);
  const named = (n: Named) => [n.currentId, ...(n.previousId ? [n.previousId] : [])].sort();
  expect(await live()).toEqual({ sender: named(names.sender), relay: named(names.relay) });
  expect([names.sender.previousId !== undefined, names.relay.previousId !== undefined]).toEqual([
    withPrevious,
    withPrevious,
  ]);
  const outputs = await t.stack.outputs();
  const secrets = ["apiKey", "previousApiKey", "smtpPassword", "previousSmtpPassword"].flatMap((n) => {
    const v = text(outputs, n);
    return v ? [v] : [];
  });
  expect(secrets.length).toBe(withPrevious ? 4 : 2);
  for (const secret of secrets) seenSecrets.add(secret);
  for (const file of [checkpointFile(), `${checkpointFile()}.bak`]) {
    const stored = fs.readFileSync(file, "utf8");
    expect(secrets.filter((secret) => stored.includes(secret))).toEqual([]);
  }
  return names;
}

/** A preview that must plan no change: the run before it left the stack converged. */
async function expectClean(): Promise<void> {
  const preview = await t.preview();
  const changed = Object.keys(preview.changeSummary).filter((op) => op !== "same");
  expect(changed).toEqual([]);
}

/** The project's CLI on the stack, bounded, with the workspace's environment as it is now (its clock offset). */
function cli(args: string[]): { child: ChildProcess; done: Promise<BoundedRun> } {
  return spawnBounded(path.join(TOOLS_DIR, "bin", "pulumi"), [...args, "--stack", t.stackName, "--color", "never"], {
    cwd: t.workDir,
    env: { ...process.env, ...t.env() },
    what: `pulumi ${args.join(" ")}`,
    timeoutMs: 5 * 60_000,
  });
}

/** `pulumi up` SIGKILLed right after the service committed `at`; the file backend's lock released. */
async function upKilledAt(at: WriteToKillAt): Promise<void> {
  const { run, killed } = await runKilledAtWrite(control, at, path.join(t.stateDir, ".pulumi-home"), () =>
    cli(["up", "--yes", "--skip-preview"]),
  );
  if (!killed) throw new Error(`the run ended (${run.code}) before ${at.method} ${at.path} #${at.nth}: ${run.stderr}`);
  const cancel = await cli(["cancel", "--yes"]).done;
  cliSaid.push(run.stdout, run.stderr, cancel.stdout, cancel.stderr);
  expect(cancel.code).toBe(0);
}

/** Every secret the stack published: none may appear in its state files, nor in what the engine or the sender said. */
const seenSecrets = new Set<string>();
/** What the CLI runs outside the workspace (the killed ones) said. */
const cliSaid: string[] = [];

const API_KEYS = "/v2/accounts/{account_id}/api-keys";
const SMTP_CREDENTIALS = "/v2/accounts/{account_id}/smtp-credentials";

test("three rotations with a sender in another process: 0 failed sends; kills at each step converge", async () => {
  const started = Date.now();
  const first = await t.up();
  expect(first.outputs.apiKey?.secret).toBe(true);
  expect(first.outputs.smtpPassword?.secret).toBe(true);
  let current = {
    apiKey: text(first.outputs, "apiKey")!,
    user: text(first.outputs, "smtpUsername")!,
    pass: text(first.outputs, "smtpPassword")!,
  };
  await expectConverged(false);

  const sender = new Sender();
  try {
    await sender.sentWith(current.apiKey, current.pass);
    for (let rotation = 1; rotation <= 3; rotation++) {
      await advance(30 * DAY + PAST);
      if (rotation === 1) {
        // The coming rotation is named as such before it happens.
        const preview = await t.preview();
        expect(preview.changeSummary).toMatchObject({ update: 2 });
        expect(preview.stdout).toMatch(/ApiKey[^\n]*rotation: rotate \(due at /);
        expect(preview.stdout).toMatch(/SmtpCredential[^\n]*rotation: rotate \(due at /);
      }
      const rotated = await t.up();
      expect(rotated.summary.resourceChanges).toMatchObject({ update: 2 });
      expect(rotated.summary.resourceChanges?.replace).toBeUndefined();
      const previous = current;
      current = {
        apiKey: text(rotated.outputs, "apiKey")!,
        user: text(rotated.outputs, "smtpUsername")!,
        pass: text(rotated.outputs, "smtpPassword")!,
      };
      expect(current.apiKey).not.toBe(previous.apiKey);
      expect(current.pass).not.toBe(previous.pass);
      expect(text(rotated.outputs, "previousApiKey")).toBe(previous.apiKey);
      expect(text(rotated.outputs, "previousSmtpPassword")).toBe(previous.pass);
      const names = await expectConverged(true);
      expect(names.sender.rotations).toBe(rotation);

      // The overlap: the sender moves over before it ends.
      await sender.sentWith(current.apiKey, current.pass);
      await advance(7 * DAY + PAST);
      if (rotation === 1) {
        const preview = await t.preview();
        expect(preview.stdout).toMatch(/ApiKey[^\n]*revoke previous [^\n]*its overlap ends/);
        expect(preview.stdout).toMatch(/SmtpCredential[^\n]*revoke previous [^\n]*its overlap ends/);
      }
      const revoked = await t.up();
      expect(revoked.summary.resourceChanges).toMatchObject({ update: 2 });
      expect(text(revoked.outputs, "previousApiKey")).toBeUndefined();
      expect(await apiStatus(previous.apiKey)).toBe(401);
      expect(await smtpLogin(previous.user, previous.pass)).toBe(535);
      expect(await apiStatus(current.apiKey)).toBe(202);
      expect(await smtpLogin(current.user, current.pass)).toBe(true);
      await expectConverged(false);
    }
    const rotationsDone = Date.now();

    // (a) Killed right after the key's next create committed: the rerun is answered with that very
    // key (the rotation's idempotency key), not a twin.
    await advance(30 * DAY + PAST);
    const before = await live();
    await upKilledAt({ method: "POST", path: API_KEYS, nth: 1 });
    const made = (await live()).sender.filter((id) => !before.sender.includes(id));
    expect(made).toHaveLength(1);
    expect((await stateNames()).sender.rotations).toBe(3); // the kill lost the rotation's outcome
    await t.up();
    let names = await expectConverged(true);
    expect(names.sender.currentId).toBe(made[0]);
    await expectClean();
    const afterA = await t.stack.outputs();
    await sender.sentWith(text(afterA, "apiKey")!, text(afterA, "smtpPassword")!);

    // (b) Killed after the key's rotation was saved: at the relay's next create (it depends on the
    // key), which commits too — the key's rotation is in state, the relay's is not. Due while both
    // previous credentials still live (no up ended their overlap): each is revoked before its
    // successor is made, so the kill leaves two live per resource, never three.
    await advance(30 * DAY + PAST);
    const beforeRelay = await live();
    await upKilledAt({ method: "POST", path: SMTP_CREDENTIALS, nth: 1 });
    const killedAt = await stateNames();
    expect([killedAt.sender.rotations, killedAt.relay.rotations]).toEqual([5, 4]);
    const atKill = await live();
    expect(atKill.sender).toEqual([killedAt.sender.currentId, killedAt.sender.previousId].sort());
    const relayMade = atKill.relay.filter((id) => !beforeRelay.relay.includes(id));
    expect(relayMade).toHaveLength(1);
    expect(atKill.relay).toEqual([killedAt.relay.currentId, relayMade[0]].sort());
    const rerun = await t.up();
    expect(rerun.summary.resourceChanges).toMatchObject({ update: 1 });
    names = await expectConverged(true);
    expect(names.relay.currentId).toBe(relayMade[0]);
    expect(names.sender.rotations).toBe(5);
    await expectClean();
    const outputs = await t.stack.outputs();
    await sender.sentWith(text(outputs, "apiKey")!, text(outputs, "smtpPassword")!);

    // (c) Killed right after the revocation's DELETE committed: the rerun finds it done.
    await advance(7 * DAY + PAST);
    await upKilledAt({ method: "DELETE", path: `${API_KEYS}/{key_id}`, nth: 1 });
    expect((await live()).sender).toEqual([names.sender.currentId]);
    expect((await stateNames()).sender.previousId).toBe(names.sender.previousId); // not saved
    await t.up();
    await expectConverged(false);
    await expectClean();

    const summary = await sender.stop();
    const failures = sender.events.filter((e) => e.event === "failed");
    expect(failures).toEqual([]);
    expect(summary.api.failed + summary.smtp.failed).toBe(0);
    expect(summary.api.attempted).toBeGreaterThan(20);
    expect(summary.smtp.attempted).toBeGreaterThan(20);
    const said = [t.log(), sender.said(), ...cliSaid].join("\n");
    expect(seenSecrets.size).toBeGreaterThanOrEqual(12);
    expect([...seenSecrets].filter((secret) => said.includes(secret))).toEqual([]);
    process.stdout.write(
      `rotation: ${summary.api.attempted} API sends and ${summary.smtp.attempted} SMTP sends, ` +
        `${summary.api.failed + summary.smtp.failed} failed, ${summary.reloads} reloads over ${summary.ms} ms; ` +
        `three rotations in ${rotationsDone - started} ms, the whole test ${Date.now() - started} ms\n`,
    );
  } finally {
    if (!sender.events.some((e) => e.event === "summary")) await sender.stop().catch(() => undefined);
  }
});
