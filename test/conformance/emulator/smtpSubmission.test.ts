// SMTP submission (docs/contract/smtp-submission.md), as senders use it: an SMTP credential made by
// the provider (the generic provider, in process, against the emulator) logs in with a real SMTP
// client, nodemailer, over loopback, and its message is stored as an API send's is. Each refusal
// is the reply the contract page names; the password never appears in the session transcript or
// in any error a sender sees.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTransport } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { closeSharedDispatchers } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider } from "../../../provider/core/factory";
import { smtpCredential as smtpSpec } from "../../../provider/resources/smtpCredential";
import { type Emu, cliPath, start } from "./helpers";

const urn = (name: string) => `urn:pulumi:dev::smtp::pulumi-nodejs:dynamic/txmail:SmtpCredential::${name}`;
const SALT = "salt-of-the-smtp-stack-001";
const DOMAIN = "mail.smtp.example.com";
const OTHER = "other.smtp.example.com";

let emu: Emu;
const transcript: string[] = [];
const smtp = makeProvider(smtpSpec, apiFor);

beforeAll(async () => {
  emu = await start({ smtpPort: 0, smtpLog: (line) => transcript.push(line) });
  // Where the provider finds the service (its connection from the environment, as in a program).
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
  for (const domain of [DOMAIN, OTHER]) {
    expect((await emu.req("POST", emu.acct("/domains"), { body: { domain } })).status).toBe(201);
    await emu.control.setDomainVerified(domain, true);
  }
});

afterAll(async () => {
  await closeSharedDispatchers();
  await emu?.close();
});

/** A credential as a program makes it: the provider's create, its outputs (username, password). */
async function credential(name: string, inputs: Record<string, unknown> = {}) {
  const made = await smtp.create({
    name,
    sandbox: false,
    scope: "global",
    domains: [],
    ...inputs,
    __urn: urn(name),
    __stackSalt: SALT,
  });
  return { id: made.id, outs: made.outs, user: String(made.outs.username), pass: String(made.outs.password) };
}

function transport(user: string, pass: string, authMethod: "PLAIN" | "LOGIN" = "PLAIN", on: Emu = emu) {
  const { host, port } = on.smtp!;
  return createTransport({
    host,
    port,
    secure: false,
    ignoreTLS: true, // the emulator offers no STARTTLS (loopback): docs/contract/smtp-submission.md#transport
    auth: { user, pass },
    authMethod,
    connectionTimeout: 5_000,
    socketTimeout: 10_000,
  } satisfies SMTPTransport.Options);
}

/** Every text a sender can see of a refused send: message, server response, command. */
async function refused(send: Promise<unknown>): Promise<{ code: number; text: string }> {
  const e = (await send.then(
    () => {
      throw new Error("the send was accepted");
    },
    (err: unknown) => err,
  )) as { responseCode?: number; response?: string; message?: string; command?: string };
  seen.push(`${e.message} ${e.response} ${e.command}`);
  return { code: e.responseCode ?? 0, text: e.response ?? "" };
}
/** What senders were told, for the leak check at the end. */
const seen: string[] = [];

const messagesTo = async (rcpt: string) =>
  ((await emu.control.dumpState({ messages: true })).messages as Array<Record<string, unknown>>).filter(
    (m) => (m.recipient as { email: string }).email === rcpt,
  );

describe("SMTP submission with a credential made by the provider", () => {
  const passwords: string[] = [];

  test("the right username and password send (PLAIN and LOGIN); the message is stored like an API send", async () => {
    const c = await credential("senders");
    passwords.push(c.pass);
    for (const method of ["PLAIN", "LOGIN"] as const) {
      const rcpt = `${method.toLowerCase()}@example.net`;
      const info = await transport(c.user, c.pass, method).sendMail({
        from: `"Billing – Ünïcode" <billing@${DOMAIN}>`,
        to: rcpt,
        subject: `Invoice ✓ ${method}`,
        text: "hello",
      });
      expect(info.response).toMatch(/^250 2\.0\.0 queued 1 message\(s\) as <[0-9a-f-]+@mail\.smtp\.example\.com>$/);
      const [m, ...more] = await messagesTo(rcpt);
      expect(more).toEqual([]);
      expect(m).toMatchObject({
        object: "message",
        status: "queued",
        recipient: { email: rcpt, name: "" },
        from: `billing@${DOMAIN}`,
        subject: `Invoice ✓ ${method}`,
        kind: "smtp",
        sandbox: false,
        smtp_credential_id: c.id,
        account_id: emu.accountId,
      });
      expect(info.response).toContain(String(m!.id));
    }
  });

  test("a wrong password, an unknown username and a deleted credential are refused with 535", async () => {
    const c = await credential("short-lived");
    passwords.push(c.pass);
    const wrong = `${c.pass.slice(0, -1)}${c.pass.endsWith("x") ? "y" : "x"}`;
    const mail = { from: `a@${DOMAIN}`, to: "x@example.net", subject: "s", text: "t" };
    for (const [user, pass] of [
      [c.user, wrong],
      ["smtp-nobodyhere00", c.pass],
    ]) {
      const r = await refused(transport(user!, pass!).sendMail(mail));
      expect(r).toEqual({ code: 535, text: "535 5.7.8 Authentication credentials invalid" });
    }
    // Still good before the delete; refused after it, with the same password.
    await transport(c.user, c.pass).sendMail({ ...mail, to: "before-delete@example.net" });
    await smtp.delete(c.id, c.outs);
    expect((await refused(transport(c.user, c.pass).sendMail(mail))).code).toBe(535);
    expect(await messagesTo("x@example.net")).toEqual([]);
  });

  test("a credential deleted during an open session is refused on its next message (535)", async () => {
    const c = await credential("mid-session");
    passwords.push(c.pass);
    const { host, port } = emu.smtp!;
    // One pooled connection: the second message goes over the session that logged in before the delete.
    const pooled = createTransport({
      host,
      port,
      secure: false,
      ignoreTLS: true,
      auth: { user: c.user, pass: c.pass },
      pool: true,
      maxConnections: 1,
    } satisfies SMTPPool.Options);
    try {
      const mail = { from: `a@${DOMAIN}`, subject: "s", text: "t" };
      await pooled.sendMail({ ...mail, to: "pooled-1@example.net" });
      await smtp.delete(c.id, c.outs);
      const r = await refused(pooled.sendMail({ ...mail, to: "pooled-2@example.net" }));
      expect(r).toEqual({ code: 535, text: "535 5.7.8 Authentication credentials invalid" });
      expect(await messagesTo("pooled-2@example.net")).toEqual([]);
    } finally {
      pooled.close();
    }
  });

  test("at most 100 recipients a message, as an API send: 452 for the 101st", async () => {
    const c = await credential("many");
    passwords.push(c.pass);
    const to = Array.from({ length: 101 }, (_, i) => `many-${i}@example.net`);
    // SMTP refuses the recipient, not the message: the client sends to the 100 it was given.
    const info = await transport(c.user, c.pass).sendMail({ from: `a@${DOMAIN}`, to, subject: "s", text: "t" });
    expect(info.accepted).toHaveLength(100);
    expect(info.rejected).toEqual(["many-100@example.net"]);
    const [why] = (info as unknown as { rejectedErrors: { response: string }[] }).rejectedErrors;
    expect(why!.response).toBe("452 4.5.3 too many recipients: at most 100 per message");
    expect(await messagesTo("many-99@example.net")).toHaveLength(1);
    expect(await messagesTo("many-100@example.net")).toEqual([]);
  });

  test("a message over 10 MiB is refused whole (552), nothing stored", async () => {
    const c = await credential("big");
    passwords.push(c.pass);
    const text = "x"
      .repeat(76)
      .concat("\r\n")
      .repeat(Math.ceil((10 * 1024 * 1024) / 78) + 1000);
    const r = await refused(
      transport(c.user, c.pass).sendMail({ from: `a@${DOMAIN}`, to: "big@example.net", subject: "s", text }),
    );
    expect(r.code).toBe(552);
    expect(r.text).toBe("552 5.3.4 message exceeds the size limit of 10485760 bytes");
    expect(await messagesTo("big@example.net")).toEqual([]);
  });

  test("the sender's domain: the account's verified domains only, and a scoped credential's own (553; 550 for From)", async () => {
    const global = await credential("global");
    const scoped = await credential("scoped", { scope: "scoped", domains: [DOMAIN] });
    passwords.push(global.pass, scoped.pass);
    const mail = { to: "r@example.net", subject: "s", text: "t" };
    const cases: Array<[typeof global, string, RegExp]> = [
      [
        global,
        "a@unknown.example.org",
        /^553 5\.7\.1 MAIL FROM: unknown\.example\.org is not a domain of this account/,
      ],
      [scoped, `a@${OTHER}`, /^553 5\.7\.1 this SMTP credential may send only from mail\.smtp\.example\.com, not from/],
    ];
    for (const [c, from, reply] of cases) {
      const r = await refused(transport(c.user, c.pass).sendMail({ ...mail, from }));
      expect(r.code).toBe(553);
      expect(r.text).toMatch(reply);
    }
    // A domain of the account that lost its DNS: the API's rule, the same refusal.
    await emu.control.setDomainVerified(OTHER, false);
    const unverified = await refused(transport(global.user, global.pass).sendMail({ ...mail, from: `a@${OTHER}` }));
    expect(unverified.text).toMatch(
      /^553 5\.7\.1 MAIL FROM: other\.smtp\.example\.com is not a domain of this account with valid DNS/,
    );
    await emu.control.setDomainVerified(OTHER, true);
    // The envelope passes, the From header does not: refused at the end of DATA.
    const header = await refused(
      transport(scoped.user, scoped.pass).sendMail({
        ...mail,
        from: `a@${OTHER}`,
        envelope: { from: `bounce@${DOMAIN}`, to: ["r@example.net"] },
      }),
    );
    expect(header.code).toBe(550);
    expect(header.text).toMatch(/^550 5\.7\.1 this SMTP credential may send only from/);
    expect(await messagesTo("r@example.net")).toEqual([]);
    // A message whose From is no single mailbox (here: none at all) is no message the rules can check.
    const raw = "To: r@example.net\r\nSubject: no sender\r\n\r\nbody\r\n";
    const noFrom = await refused(
      transport(global.user, global.pass).sendMail({ envelope: { from: `a@${DOMAIN}`, to: ["r@example.net"] }, raw }),
    );
    expect(noFrom).toEqual({ code: 550, text: "550 5.6.0 the message needs a From header with one address" });
    // The scoped credential's own domain goes through.
    await transport(scoped.user, scoped.pass).sendMail({ ...mail, from: `a@${DOMAIN}`, to: "scoped-ok@example.net" });
    expect(await messagesTo("scoped-ok@example.net")).toHaveLength(1);
  });

  test("a sub account's credential sends as the sub account; while it is suspended, 550 5.7.1", async () => {
    const sub = (
      await emu.req("POST", emu.acct("/sub-accounts"), { body: { name: "smtp-sub", website: "sub.example.com" } })
    ).body as { id: string };
    const key = await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/api-keys`), {
      body: { label: "sub", scopes: ["domains:write", "smtp-credentials:write:all"] },
    });
    const subKey = { key: String(key.body.secret_key) };
    const domain = "mail.sub.example.com";
    expect((await emu.req("POST", emu.acct("/domains", sub.id), { ...subKey, body: { domain } })).status).toBe(201);
    await emu.control.setDomainVerified(domain, true, { accountId: sub.id });
    const made = await emu.req("POST", emu.acct("/smtp-credentials", sub.id), {
      ...subKey,
      body: { name: "sub-relay", scope: "global" },
    });
    passwords.push(made.body.password);
    const send = (to: string, from = `a@${domain}`) =>
      transport(made.body.username, made.body.password).sendMail({ from, to, subject: "s", text: "t" });

    await send("sub-1@example.net");
    expect(await messagesTo("sub-1@example.net")).toEqual([expect.objectContaining({ account_id: sub.id })]);
    // The parent's domain is not the sub account's: the API's rule, per account.
    expect((await refused(send("sub-2@example.net", `a@${DOMAIN}`))).code).toBe(553);

    await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/suspend`), { body: { reason: "unpaid" } });
    const r = await refused(send("sub-3@example.net"));
    expect(r).toEqual({ code: 550, text: `550 5.7.1 account ${sub.id} is suspended; only reads are allowed` });
    await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/unsuspend`));
    await send("sub-4@example.net");
    expect(await messagesTo("sub-3@example.net")).toEqual([]);
    expect(await messagesTo("sub-4@example.net")).toHaveLength(1);
  });

  test("a sandbox credential's messages are sandbox messages", async () => {
    const c = await credential("sandboxed", { sandbox: true });
    passwords.push(c.pass);
    await transport(c.user, c.pass).sendMail({
      from: `a@${DOMAIN}`,
      to: ["s1@example.net", "s2@example.net"],
      subject: "s",
      text: "t",
    });
    for (const rcpt of ["s1@example.net", "s2@example.net"]) {
      expect(await messagesTo(rcpt)).toEqual([expect.objectContaining({ sandbox: true, kind: "smtp" })]);
    }
  });

  test("a credential survives a restart on the same data dir: SMTP is no new state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "txmail-smtp-"));
    try {
      const first = await start({ dataDir: dir });
      const made = await first.req("POST", first.acct("/smtp-credentials"), {
        body: { name: "kept", scope: "global" },
      });
      await first.req("POST", first.acct("/domains"), { body: { domain: DOMAIN } });
      await first.control.setDomainVerified(DOMAIN, true);
      await first.close();
      passwords.push(made.body.password);
      const again = await start({ dataDir: dir, smtpPort: 0, smtpLog: (line) => transcript.push(line) });
      try {
        const info = await transport(made.body.username, made.body.password, "PLAIN", again).sendMail({
          from: `a@${DOMAIN}`,
          to: "after-restart@example.net",
          subject: "s",
          text: "t",
        });
        expect(info.response).toMatch(/^250 /);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the CLI: --smtp-port 0 reports smtpUrl on its one line; --smtp-log writes the transcript to stderr", async () => {
    const scratch: string[] = [];
    const { cli, env } = cliPath(() => {
      scratch.push(mkdtempSync(join(tmpdir(), "txmail-smtp-cli-")));
      return scratch.at(-1)!;
    });
    const proc = spawn(process.execPath, [cli, "--port", "0", "--smtp-port", "0", "--smtp-log"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stderr.on("data", (c: Buffer) => (err += c.toString()));
    try {
      const boot = await new Promise<Record<string, string>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the CLI did not start: ${err}`)), 15_000);
        proc.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (!out.includes("\n")) return;
          clearTimeout(timer);
          resolve(JSON.parse(out.split("\n")[0]!) as Record<string, string>);
        });
        proc.once("exit", (code) => reject(new Error(`the CLI exited ${code}: ${err}`)));
      });
      expect(Object.keys(boot).sort()).toEqual(["accountId", "apiKey", "baseUrl", "smtpUrl"]);
      const url = new URL(boot.smtpUrl!);
      expect([url.protocol, url.hostname]).toEqual(["smtp:", "127.0.0.1"]);
      const made = await fetch(`${boot.baseUrl}/v2/accounts/${boot.accountId}/smtp-credentials`, {
        method: "POST",
        headers: { authorization: `Bearer ${boot.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "cli", scope: "global" }),
      });
      const c = (await made.json()) as { username: string; password: string };
      passwords.push(c.password);
      const at = (pass: string) =>
        createTransport({
          host: url.hostname,
          port: Number(url.port),
          secure: false,
          ignoreTLS: true,
          auth: { user: c.username, pass },
        } satisfies SMTPTransport.Options);
      // verify(): connect, EHLO, AUTH, QUIT.
      expect(await at(c.password).verify()).toBe(true);
      expect((await refused(at(`${c.password}-not`).verify())).code).toBe(535);
    } finally {
      proc.kill("SIGTERM");
      await new Promise((resolve) => (proc.exitCode !== null ? resolve(null) : proc.once("exit", resolve)));
      for (const d of scratch) rmSync(d, { recursive: true, force: true });
    }
    expect(err).toMatch(/smtp debug: C: AUTH PLAIN \/\* secured \*\//);
    transcript.push(err);
  });

  test("no AUTH, no mail (530); the password is in no transcript line and no reply", async () => {
    const { host, port } = emu.smtp!;
    const anonymous = createTransport({ host, port, secure: false, ignoreTLS: true } satisfies SMTPTransport.Options);
    const r = await refused(anonymous.sendMail({ from: `a@${DOMAIN}`, to: "n@example.net", subject: "s", text: "t" }));
    expect(r).toEqual({ code: 530, text: "530 5.7.0 Authentication required" });

    expect(passwords.length).toBeGreaterThanOrEqual(4);
    // The transcript saw the logins (redacted) and the replies.
    expect(transcript.join("\n")).toMatch(/AUTH PLAIN/);
    expect(transcript.join("\n")).toMatch(/535/);
    const said = [...transcript, ...seen].join("\n");
    for (const p of passwords) {
      // The password as written, and as PLAIN (base64 of \0user\0password) and LOGIN (base64 of it) carry it.
      expect(said).not.toContain(p);
      expect(said).not.toContain(Buffer.from(p).toString("base64"));
      expect(said).not.toContain(Buffer.from(p).toString("base64").slice(0, 24));
    }
  });
});
