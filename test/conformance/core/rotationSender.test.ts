// Zero downtime, measured: a sender sends a message every few milliseconds with the API key it read
// last from the "stack outputs" (the state the last `up` left, as an application reading a secret
// store reloads), while three rotations of that key run — each an `up` after `every` (rotate), then
// an `up` after the overlap (revoke) — with the emulator's clock advanced and the provider given the
// same offset. The sender reloads every RELOAD_MS of real time; the test lets one reload pass
// between a rotation and its revocation, which is what an overlap longer than a sender's reload
// interval means. Every send must be accepted, and each revoked key must be refused (401).
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { Domain, MessageCreationResponse, paths } from "../../../provider/api";
import { type TxmailClient, TxmailApiError, createClient } from "../../../provider/client";
import type { AnyDeclaration, Props } from "../../../provider/core/declaration";
import type { Provider } from "../../../provider/core/factory";
import { apiKey as apiKeySpec } from "../../../provider/resources/apiKey";
import type { EmulatorControl } from "../../../emulator/control";
import type { RunningEmulator } from "../../../emulator/server";

// Many requests per test on 2 shared cores at load averages past 15: bounded generously.
jest.setTimeout(120_000);

const DAY = 86_400_000;
const RELOAD_MS = 150;
const DOMAIN = "send.rotation.example.com";

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, control, client } = await openAccount());
  await client.post(paths.domains(emu.accountId), { domain: DOMAIN }, Domain);
  await control.setDomainVerified(DOMAIN, true);
});

afterAll(async () => {
  delete process.env.TXMAIL_CLOCK_OFFSET_SECONDS;
  await closeAccount(emu);
});

function run(): Provider {
  let made: Provider | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    made = factory.makeProvider(apiKeySpec as unknown as AnyDeclaration, api.apiFor);
  });
  return made!;
}

async function advance(ms: number): Promise<void> {
  const { offsetMs } = await control.advanceClock(ms);
  process.env.TXMAIL_CLOCK_OFFSET_SECONDS = String(offsetMs / 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the service answers a send with this key: 202, or the status that refused it. */
async function send(secret: string, n: number): Promise<number> {
  const sender = createClient({ apiKey: secret, baseUrl: emu.baseUrl, rateLimit: false, retry: { maxAttempts: 1 } });
  try {
    await sender.post(
      paths.messages(emu.accountId),
      {
        from: { email: `app@${DOMAIN}` },
        recipients: [{ email: `user${n}@example.net` }],
        subject: `message ${n}`,
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

/** The sender: sends in a loop with the secret it read last, reloading it every RELOAD_MS. */
class Sender {
  sent = 0;
  readonly failures: string[] = [];
  reloads = 0;
  private stopped = false;
  private readonly done: Promise<void>;
  constructor(private readonly outputs: () => Props) {
    this.done = this.loop();
  }
  private async loop(): Promise<void> {
    let secret = String(this.outputs().secretKey);
    let loaded = Date.now();
    while (!this.stopped) {
      if (Date.now() - loaded >= RELOAD_MS) {
        secret = String(this.outputs().secretKey);
        loaded = Date.now();
        this.reloads++;
      }
      const status = await send(secret, this.sent + this.failures.length);
      if (status === 202) this.sent++;
      else this.failures.push(`send ${this.sent + this.failures.length}: ${status}`);
      await sleep(10);
    }
  }
  /** Resolves once the sender has reloaded after this call (and sent with what it read). */
  async reloaded(): Promise<void> {
    const [reloads, sent] = [this.reloads, this.sent];
    while (this.reloads === reloads || this.sent <= sent + 1) await sleep(20);
  }
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

test("a sender reloading from the outputs sends through three rotations of its key: 0 failed sends", async () => {
  const news: Props = {
    label: "zero-downtime sender",
    scopes: ["messages:send:all"],
    rotation: { every: "30d", overlap: "7d" },
    __urn: "urn:pulumi:dev::rot::pulumi-nodejs:dynamic/txmail:ApiKey::sender",
    __stackSalt: "salt-of-the-sending-stack",
  };
  const p = run();
  let state = await p.create((await p.check({}, news)).inputs!);
  let published = state.outs; // the stack's outputs, as the last up left them
  const up = async () => {
    const q = run();
    const inputs = (await q.check(state.outs, news)).inputs!;
    const diff = await q.diff(state.id, state.outs, inputs);
    expect(diff.replaces).toEqual([]);
    if (diff.changes) state = { id: state.id, outs: (await q.update(state.id, state.outs, inputs)).outs };
    published = state.outs;
  };
  const sender = new Sender(() => published);
  const revoked: string[] = [];
  try {
    for (let rotation = 1; rotation <= 3; rotation++) {
      await sender.reloaded();
      await advance(30 * DAY + 60_000);
      await up(); // rotate: the new key published, the previous still live
      expect(state.outs.rotations).toBe(rotation);
      await sender.reloaded(); // the overlap: senders move to the new key
      await advance(7 * DAY + 60_000);
      revoked.push(String(state.outs.previousSecretKey));
      await up(); // revoke the previous
      expect(state.outs.previousSecretKey).toBeUndefined();
    }
    await sender.reloaded();
  } finally {
    await sender.stop();
  }
  expect(sender.failures).toEqual([]);
  expect(sender.sent).toBeGreaterThan(12);
  expect(sender.reloads).toBeGreaterThanOrEqual(7);
  expect(await Promise.all(revoked.map((secret, i) => send(secret, -1 - i)))).toEqual([401, 401, 401]);
});
