// An API key on a rotation schedule through the real engine (the dynamic face: the rotation is the
// generic provider's, below both faces, and test/conformance/core/rotation.test.ts covers its cases):
// three `pulumi up`s with the emulator's clock advanced between them — make, rotate (two live keys,
// both working), revoke after the overlap (the previous one refused with 401). The provider follows
// the emulator's clock through TXMAIL_CLOCK_OFFSET_SECONDS (provider/core/rotating/clock.ts).
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { ApiKey, paths } from "../../provider/api";
import { TxmailApiError, createClient } from "../../provider/client";
import { controlClient } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

const DAY = 86_400_000;
let svc: TestService;
let t: TestStack;

beforeAll(async () => {
  svc = await startService();
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "rotating"),
    name: "rotating",
    config: svc.config(),
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

async function liveKeys(): Promise<string[]> {
  const ids: string[] = [];
  for await (const k of svc.client.list(paths.apiKeys(svc.accountId), ApiKey))
    if (k.label === "rotating sender") ids.push(k.id);
  return ids.sort();
}

async function pingStatus(secret: string): Promise<number> {
  const c = createClient({ apiKey: secret, baseUrl: svc.baseUrl, rateLimit: false, retry: { maxAttempts: 1 } });
  try {
    await c.ping();
    return 200;
  } catch (err) {
    if (err instanceof TxmailApiError && err.status !== undefined) return err.status;
    throw err;
  }
}

/** Advances the emulator's clock and gives the engine's providers the same offset. */
async function advance(ms: number): Promise<void> {
  const { offsetMs } = await controlClient(svc).advanceClock(ms);
  // The workspace's environment is what the CLI, and so every provider process of the next run, gets.
  (t.stack.workspace as LocalWorkspace).envVars.TXMAIL_CLOCK_OFFSET_SECONDS = String(offsetMs / 1000);
}

const value = (outputs: Record<string, { value: unknown; secret: boolean }>, name: string) => outputs[name]?.value;

test("three ups with the clock advanced: make, rotate with an overlap, revoke the previous (401)", async () => {
  const first = await t.up();
  const firstSecret = String(value(first.outputs, "secretKey"));
  expect(first.outputs.secretKey?.secret).toBe(true);
  expect(value(first.outputs, "previousSecretKey")).toBeUndefined();
  const days = (a: string, b: string) =>
    (Date.parse(String(value(first.outputs, b))) - Date.parse(String(value(first.outputs, a)))) / DAY;
  expect(days("rotatedAt", "nextRotationAt")).toBe(30);
  const [firstId] = await liveKeys();

  await advance(30 * DAY + 60_000);
  const rotated = await t.up();
  expect(rotated.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(rotated.summary.resourceChanges?.replace).toBeUndefined();
  expect(rotated.stdout).toContain("rotation: rotate");
  expect(rotated.outputs.previousSecretKey?.secret).toBe(true);
  expect(value(rotated.outputs, "previousSecretKey")).toBe(firstSecret);
  const secondSecret = String(value(rotated.outputs, "secretKey"));
  expect(secondSecret).not.toBe(firstSecret);
  expect(value(rotated.outputs, "keyId")).toBe(firstId); // the resource's id: the first key's
  expect(await liveKeys()).toHaveLength(2);
  expect([await pingStatus(firstSecret), await pingStatus(secondSecret)]).toEqual([200, 200]);

  await advance(7 * DAY + 60_000);
  const revoked = await t.up();
  expect(revoked.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(revoked.stdout).toContain("revoke previous");
  expect(value(revoked.outputs, "previousSecretKey")).toBeUndefined();
  expect(value(revoked.outputs, "secretKey")).toBe(secondSecret);
  const live = await liveKeys();
  expect(live).toHaveLength(1);
  expect(live).not.toContain(firstId);
  expect([await pingStatus(firstSecret), await pingStatus(secondSecret)]).toEqual([401, 200]);

  // Secrets stay encrypted in state, the previous one included.
  const state = await t.exportText();
  for (const secret of [firstSecret, secondSecret]) expect(state).not.toContain(secret);
});
