// A real emulator on loopback for e2e tests and benchmarks, plus a client to assert on the service's records
// (not only on Pulumi outputs).
import { type EmulatorOptions, startEmulator } from "../emulator/server";
import type { Shapes } from "../emulator/shapes";
import type { SmtpAddress } from "../emulator/smtp/server";
import { createClient, type TxmailClient } from "../provider/client";

export interface TestService {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  controlToken: string;
  /** Where SMTP submission listens, when started with `smtpPort`. */
  smtp?: SmtpAddress;
  client: TxmailClient;
  /** Stack config pointing the provider at this emulator (the API key as a secret). */
  config(): Record<string, { value: string; secret?: boolean }>;
  close(): Promise<void>;
}

export async function startService(
  opts: { dataDir?: string; port?: number; shapes?: Shapes } & Pick<
    EmulatorOptions,
    "dnsServer" | "dnsCacheSeconds" | "smtpPort"
  > = {},
): Promise<TestService> {
  const emu = await startEmulator({
    port: opts.port ?? 0,
    control: true,
    dataDir: opts.dataDir,
    shapes: opts.shapes,
    dnsServer: opts.dnsServer,
    dnsCacheSeconds: opts.dnsCacheSeconds,
    smtpPort: opts.smtpPort,
  });
  const client = createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
  return {
    baseUrl: emu.baseUrl,
    accountId: emu.accountId,
    apiKey: emu.apiKey,
    controlToken: emu.controlToken ?? "",
    smtp: emu.smtp,
    client,
    config: () => ({
      "txmail:apiKey": { value: emu.apiKey, secret: true },
      "txmail:accountId": { value: emu.accountId },
      "txmail:baseUrl": { value: emu.baseUrl },
    }),
    close: () => emu.close(),
  };
}
