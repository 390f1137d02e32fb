// acceptance/settings.ts: what the run reads from the environment, and the errors naming what is missing.
import { PREFIX, UsageError, plan, readSettings } from "../../../acceptance/settings";

const env = { TXMAIL_API_KEY: "k", TXMAIL_ACCOUNT_ID: "0b6c1f5e-0e0a-4d8e-9a53-2f1a2b3c4d5e" };

describe("acceptance settings", () => {
  it("reads the provider's variables, defaulting the base URL to the public service", () => {
    const s = readSettings([], env);
    expect(s).toMatchObject({
      apiKey: "k",
      baseUrl: "https://api.ahasend.com",
      faces: ["dynamic", "native"],
      steps: "full",
    });
    expect(s.runPrefix).toMatch(new RegExp(`^${PREFIX}\\d{8}-[0-9a-f]{6}$`));
    expect(
      readSettings(["--sweep-only", "--face", "native"], { ...env, TXMAIL_BASE_URL: "http://127.0.0.1:9" }),
    ).toMatchObject({
      sweepOnly: true,
      faces: ["native"],
      baseUrl: "http://127.0.0.1:9",
    });
  });

  it("names the missing variable or the bad argument", () => {
    expect(() => readSettings([], { TXMAIL_ACCOUNT_ID: env.TXMAIL_ACCOUNT_ID })).toThrow(/TXMAIL_API_KEY is not set/);
    expect(() => readSettings([], { ...env, TXMAIL_ACCOUNT_ID: "acct" })).toThrow(
      /TXMAIL_ACCOUNT_ID must be the account's id/,
    );
    expect(() => readSettings(["--face", "go"], env)).toThrow(UsageError);
    expect(() => readSettings(["--steps"], env)).toThrow(/--steps needs a value/);
  });

  it("says what it will create and that it touches only the prefix", () => {
    const s = readSettings([], env);
    expect(plan(s)).toContain(`${s.runPrefix}-workspace`);
    expect(plan(s)).toMatch(/Nothing without the txacc- prefix is touched/);
    expect(plan({ ...s, sweepOnly: true })).toMatch(/sweep only/);
  });
});
