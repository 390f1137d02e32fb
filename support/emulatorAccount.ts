// One emulator for a suite that drives providers in process: the environment they read for their
// connection, its control surface, and a plain client (no pace) for what the test makes or checks
// by hand.
import { closeSharedDispatchers, createClient, type TxmailClient } from "../provider/client";
import { controlClient, type EmulatorControl } from "../emulator/control";
import { startEmulator, type RunningEmulator } from "../emulator/server";

export interface EmulatorAccount {
  emu: RunningEmulator;
  control: EmulatorControl;
  client: TxmailClient;
}

export async function openAccount(): Promise<EmulatorAccount> {
  const emu = await startEmulator({ port: 0, control: true });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
  return {
    emu,
    control: controlClient(emu),
    client: createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false }),
  };
}

export async function closeAccount(emu: RunningEmulator | undefined): Promise<void> {
  await closeSharedDispatchers();
  await emu?.close();
}
