// SMTP submission on loopback (docs/contract/smtp-submission.md): a sender logs in with an SMTP
// credential (AUTH PLAIN or LOGIN), and its message is accepted by the same code as an API send
// (handlers/messages.ts acceptMessage): the same sender's rules, the same stored `queued` messages,
// the same receptions. Built on smtp-server (the Nodemailer project), which speaks the protocol;
// what it decides is here.
//
// Plain text only: no STARTTLS and no implicit TLS, like the emulator's plain HTTP (the service is
// HTTPS-only; a sender on loopback has nothing to protect the password from). smtp-server refuses
// AUTH without TLS unless told otherwise, which `allowInsecureAuth` does.
import { type AddressInfo, isIP } from "node:net";
import { format } from "node:util";
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from "smtp-server";
import { checkSuspension } from "../auth";
import { Ctx, type Services } from "../context";
import { acceptMessage, checkSender } from "../handlers/messages";
import { HttpError } from "../http/errors";
import { credentialGrant, live, login } from "./credentials";
import { headerSection, readHeads } from "./headers";

/** Where the SMTP listener is: `url` is `smtp://HOST:PORT`, as `baseUrl` is the HTTP one's. */
export interface SmtpAddress {
  host: string;
  port: number;
  url: string;
}

export interface RunningSmtp extends SmtpAddress {
  close(): Promise<void>;
}

export interface SmtpOptions {
  port: number;
  host: string;
  /** The session transcript (smtp-server's own log, which redacts AUTH), one line per call. */
  log?: (line: string) => void;
}

/**
 * Bounds (**choice** (emulator): the service publishes none for SMTP). A message is at most
 * MAX_MESSAGE_BYTES (552 beyond); a transaction has at most MAX_RECIPIENTS, the API's bound per send
 * (452 beyond, RFC 5321 §4.5.3.1.10); the header section read for From and Subject at most
 * MAX_HEADER_BYTES (the rest of the message is counted, not kept).
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
export const MAX_RECIPIENTS = 100;
const MAX_HEADER_BYTES = 256 * 1024;

/**
 * An SMTP refusal: the reply code and, in the text, the enhanced status code (RFC 3463).
 * smtp-server's automatic enhanced codes are per reply code (553 → 5.1.3, an address problem);
 * the sender's rules are policy refusals (5.7.1), so the codes are written here instead.
 */
class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    enhanced: string,
    text: string,
  ) {
    super(`${enhanced} ${text}`);
  }
}

const REFUSED_LOGIN = "Authentication credentials invalid";
const refusedCredential = () => new SmtpReply(535, "5.7.8", REFUSED_LOGIN);

/** The session's credential, still live, and a handler context acting as its account. */
function senderOf(svc: Services, session: SMTPServerSession) {
  const id = (session.user as { credentialId?: string } | undefined)?.credentialId;
  const found = id === undefined ? undefined : live(svc, id);
  if (!found) throw refusedCredential();
  const ctx = new Ctx(
    svc,
    "POST",
    "SMTP",
    "SMTP",
    {},
    new URLSearchParams(),
    Buffer.alloc(0),
    undefined,
    session.remoteAddress,
    svc.clock.now(),
  );
  ctx.account = found.account;
  return { ...found, ctx, grant: credentialGrant(found.credential) };
}

/** A refusal of the sender's rules (an HttpError of handlers/messages.ts) as an SMTP reply. */
function policyReply(e: unknown, code: number): unknown {
  return e instanceof HttpError && e.status < 500 ? new SmtpReply(code, "5.7.1", e.message) : e;
}

/**
 * What a handler answers for `e`: its SMTP reply, or, for a failure of the emulator itself, a
 * transient 451 (a sender retries) with the stack on stderr, as the HTTP pipeline answers a 500.
 * No error here carries a password: they are built from addresses, domains and stored records.
 */
function answer(e: unknown): Error {
  if (e instanceof SmtpReply) return e;
  process.stderr.write(`emulator: SMTP failure: ${String((e as Error)?.stack ?? e)}\n`);
  return new SmtpReply(451, "4.3.0", "internal error, try again");
}

export async function startSmtp(svc: Services, opts: SmtpOptions): Promise<RunningSmtp> {
  const log = opts.log;
  const server = new SMTPServer({
    name: "txmail-emulator",
    banner: "txmail emulator SMTP submission",
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    authRequiredMessage: "5.7.0 Authentication required",
    disableReverseLookup: true,
    size: MAX_MESSAGE_BYTES,
    // Not smtp-server's own 552 (no enhanced code): onData answers an oversized message (receive).
    rejectOversized: false,
    socketTimeout: 60_000,
    closeTimeout: 1_000,
    logger: smtpLogger(log),
    onAuth: (auth, _session, callback) => authenticate(svc, auth, callback),
    onMailFrom: (address, session, callback) => mailFrom(svc, address, session, callback),
    onRcptTo: (_address, session, callback) => rcptTo(session, callback),
    onData: (stream, session, callback) => receive(svc, stream, session, callback),
  });
  // Connection errors (a client resetting its socket) are the client's; they must not end the process.
  server.on("error", (e: Error) => log?.(`smtp error: ${e.message}`));
  await listening(server, opts);
  return running(server);
}

/** smtp-server's logger as lines of `log` (none without it). */
function smtpLogger(log: SmtpOptions["log"]): SMTPServerOptions["logger"] {
  const line =
    (level: string) =>
    (...args: unknown[]): void => {
      // bunyan-style calls: an optional context object (dropped), then a format string and its values.
      const rest = typeof args[0] === "object" && args[0] !== null ? args.slice(1) : args;
      log?.(`smtp ${level}: ${format(...rest)}`);
    };
  return log
    ? {
        level: () => undefined,
        trace: line("trace"),
        debug: line("debug"),
        info: line("info"),
        warn: line("warn"),
        error: line("error"),
        fatal: line("fatal"),
      }
    : false;
}

/** The parameters smtp-server gives a stage of a session (the stages below take them after `svc`). */
type Stage<K extends "onAuth" | "onMailFrom" | "onRcptTo" | "onData"> = Parameters<NonNullable<SMTPServerOptions[K]>>;

/** AUTH: the credential's login, or 535. */
function authenticate(svc: Services, auth: Stage<"onAuth">[0], callback: Stage<"onAuth">[2]): void {
  // Only PLAIN and LOGIN are offered, so a username and password are always there.
  const found = login(svc, auth.username ?? "", auth.password ?? "");
  if (!found) return callback(null, { responseCode: 535, message: `5.7.8 ${REFUSED_LOGIN}` });
  callback(null, { user: { credentialId: found.credential.id } });
}

/** MAIL FROM: the credential still live, its account not suspended, the address through the sender's rules. */
function mailFrom(
  svc: Services,
  address: Stage<"onMailFrom">[0],
  session: SMTPServerSession,
  callback: Stage<"onMailFrom">[2],
): void {
  try {
    const s = senderOf(svc, session);
    try {
      checkSuspension(s.ctx);
    } catch (e) {
      throw policyReply(e, 550);
    }
    if (address.address === "") throw new SmtpReply(553, "5.7.1", "a submission needs a sender address");
    try {
      checkSender(s.ctx, address.address, "MAIL FROM", s.grant);
    } catch (e) {
      throw policyReply(e, 553);
    }
    callback();
  } catch (e) {
    callback(answer(e));
  }
}

/** RCPT TO: at most MAX_RECIPIENTS. */
function rcptTo(session: SMTPServerSession, callback: Stage<"onRcptTo">[2]): void {
  // The envelope so far, this recipient not yet in it.
  if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
    return callback(new SmtpReply(452, "4.5.3", `too many recipients: at most ${MAX_RECIPIENTS} per message`));
  }
  callback();
}

/** DATA: the header section kept, the rest drained, then the message delivered (or 552 when oversized). */
function receive(
  svc: Services,
  stream: Stage<"onData">[0],
  session: SMTPServerSession,
  callback: Stage<"onData">[2],
): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  stream.on("data", (chunk: Buffer) => {
    // Only the header section is needed; the rest is drained (smtp-server counts it for `size`).
    if (kept < MAX_HEADER_BYTES) {
      chunks.push(chunk);
      kept += chunk.length;
    }
  });
  // One answer per message, whichever of "error" and "end" comes first.
  let answered = false;
  const reply = (e: Error | null, message?: string) => {
    if (answered) return;
    answered = true;
    callback(e, message);
  };
  stream.on("error", (e: Error) => reply(answer(e)));
  stream.on("end", () => {
    if (stream.sizeExceeded)
      return reply(new SmtpReply(552, "5.3.4", `message exceeds the size limit of ${MAX_MESSAGE_BYTES} bytes`));
    try {
      // UTF-8: header fields may carry it raw (RFC 6532, SMTPUTF8), besides encoded words.
      reply(null, deliver(svc, session, Buffer.concat(chunks).toString("utf8")));
    } catch (e) {
      reply(answer(e));
    }
  });
}

/** Resolves once the server listens at `opts`' port and host; rejects with the listen's error. */
function listening(server: SMTPServer, opts: SmtpOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
}

/** The listening server's address, and its close (once; open sessions get 421 now). */
function running(server: SMTPServer): RunningSmtp {
  const addr = server.server.address() as AddressInfo;
  const host = isIP(addr.address) === 6 ? `[${addr.address}]` : addr.address;
  let closed = false;
  return {
    host: addr.address,
    port: addr.port,
    url: `smtp://${host}:${addr.port}`,
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open sessions end now (421), as the HTTP server closes its connections, not after a grace period.
        for (const c of server.connections) {
          c.send(421, "4.3.2 emulator shutting down");
          c.close();
        }
      });
    },
  };
}

/** The end of DATA: the message's From through the sender's rules, then accepted as an API send is. */
function deliver(svc: Services, session: SMTPServerSession, text: string): string {
  const s = senderOf(svc, session);
  const heads = readHeads(headerSection(text) ?? text);
  if (!heads.from) throw new SmtpReply(550, "5.6.0", "the message needs a From header with one address");
  const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
  const recipients = session.envelope.rcptTo.map((r) => ({ email: r.address, name: "" }));
  try {
    const reply = svc.db.tx(() =>
      acceptMessage(
        s.ctx,
        heads.from!,
        recipients,
        heads.subject,
        {
          kind: "smtp",
          sandbox: s.credential.sandbox,
          tags: [],
          smtp_credential_id: s.credential.id,
          mail_from: mailFrom,
        },
        s.grant,
        "From",
      ),
    );
    const items = (reply.body as { data: { id: string }[] }).data;
    return `2.0.0 queued ${items.length} message(s) as ${items[0]!.id}`;
  } catch (e) {
    throw policyReply(e, 550);
  }
}
