// An SMTP credential on a rotation schedule (provider/core/rotating), proven the way senders use
// it: a real SMTP client (nodemailer) logs in to the emulator's SMTP submission with the current
// and the previous credential. Driven as the engine drives a provider (check, diff, update), each
// `up` a provider of its own; the emulator's clock advanced, the provider given the same offset.
import { createTransport } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { closeSharedDispatchers } from "../../../provider/client";
import type { AnyDeclaration, Props } from "../../../provider/core/declaration";
import type { Provider } from "../../../provider/core/factory";
import { smtpCredential as smtpSpec } from "../../../provider/resources/smtpCredential";
import { controlClient, type EmulatorControl } from "../../../emulator/control";
import { type RunningEmulator, startEmulator } from "../../../emulator/server";

// Many requests per test on 2 shared cores at load averages past 15: bounded generously.
jest.setTimeout(120_000);

const DAY = 86_400_000;
const urn = (name: string) => `urn:pulumi:dev::rot::pulumi-nodejs:dynamic/txmail:SmtpCredential::${name}`;

let emu: RunningEmulator;
let control: EmulatorControl;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true, smtpPort: 0 });
  control = controlClient(emu);
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
});

afterAll(async () => {
  delete process.env.TXMAIL_CLOCK_OFFSET_SECONDS;
  await closeSharedDispatchers();
  await emu?.close();
});

function run(): Provider {
  let made: Provider | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    made = factory.makeProvider(smtpSpec as unknown as AnyDeclaration, api.apiFor);
  });
  return made!;
}

async function advance(ms: number): Promise<void> {
  const { offsetMs } = await control.advanceClock(ms);
  process.env.TXMAIL_CLOCK_OFFSET_SECONDS = String(offsetMs / 1000);
}

async function up(state: { id: string; outs: Props }, news: Props) {
  const p = run();
  const checked = await p.check(state.outs, news);
  if (!checked.inputs) throw new Error(JSON.stringify(checked.failures));
  const diff = await p.diff(state.id, state.outs, checked.inputs);
  expect(diff.replaces).toEqual([]);
  if (!diff.changes) return { diff, state };
  return { diff, state: { id: state.id, outs: (await p.update(state.id, state.outs, checked.inputs)).outs } };
}

/** What the emulator's SMTP answers a login: true, or the reply code that refused it. */
async function login(user: unknown, pass: unknown): Promise<true | number> {
  const { host, port } = emu.smtp!;
  const transport = createTransport({
    host,
    port,
    secure: false,
    ignoreTLS: true,
    auth: { user: String(user), pass: String(pass) },
    connectionTimeout: 5_000,
    socketTimeout: 10_000,
  } satisfies SMTPTransport.Options);
  try {
    return await transport.verify();
  } catch (err) {
    return (err as { responseCode?: number }).responseCode ?? 0;
  } finally {
    transport.close();
  }
}

const liveCredentials = async () => (await control.dumpState()).smtp_credentials.map((c) => c.id).sort();

test("a due rotation makes a second credential, both log in; after the overlap the previous is refused (535)", async () => {
  const news: Props = {
    name: "rotating senders",
    rotation: { every: "30d", overlap: "7d" },
    __urn: urn("senders"),
    __stackSalt: "salt-of-the-rotating-smtp-stack",
  };
  const p = run();
  const inputs = (await p.check({}, news)).inputs!;
  let state = await p.create(inputs);
  const first = { id: state.id, user: state.outs.username, pass: state.outs.password };
  expect(await login(first.user, first.pass)).toBe(true);

  await advance(30 * DAY + 60_000);
  const rotated = await up(state, news);
  expect(rotated.diff.diffs).toEqual(["password"]);
  state = rotated.state;
  expect(state.outs).toMatchObject({
    previousId: first.id,
    previousUsername: first.user,
    previousPassword: first.pass,
  });
  expect(state.outs.username).not.toBe(first.user);
  expect(await liveCredentials()).toEqual([first.id, state.outs.currentId].sort());
  expect(await login(state.outs.username, state.outs.password)).toBe(true);
  expect(await login(first.user, first.pass)).toBe(true);

  await advance(7 * DAY + 60_000);
  state = (await up(state, news)).state;
  expect(state.outs.previousUsername).toBeUndefined();
  expect(state.outs.previousPassword).toBeUndefined();
  expect(await liveCredentials()).toEqual([state.outs.currentId]);
  expect(await login(first.user, first.pass)).toBe(535);
  expect(await login(state.outs.username, state.outs.password)).toBe(true);
});
