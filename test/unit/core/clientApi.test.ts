import { clientTuningFromEnv } from "../../../provider/core/clientApi";

describe("client settings from the provider's environment", () => {
  test("unset or empty: the client's defaults apply", () => {
    expect(clientTuningFromEnv({})).toEqual({ timeouts: undefined, retry: undefined });
    expect(clientTuningFromEnv({ TXMAIL_BUSY_WAIT_SECONDS: " ", TXMAIL_REQUEST_TIMEOUT_SECONDS: "" })).toEqual({
      timeouts: undefined,
      retry: undefined,
    });
  });

  test("TXMAIL_BUSY_WAIT_SECONDS bounds waiting on a busy account; TXMAIL_REQUEST_TIMEOUT_SECONDS one answer", () => {
    expect(clientTuningFromEnv({ TXMAIL_BUSY_WAIT_SECONDS: "1800", TXMAIL_REQUEST_TIMEOUT_SECONDS: "2.5" })).toEqual({
      timeouts: { headersMs: 2500 },
      retry: { maxBusyWaitMs: 1_800_000 },
    });
  });

  test.each(["0", "-5", "ten", "86401", "Infinity"])(
    "TXMAIL_BUSY_WAIT_SECONDS=%p is refused, naming the variable and the rule",
    (value) => {
      expect(() => clientTuningFromEnv({ TXMAIL_BUSY_WAIT_SECONDS: value })).toThrow(
        `TXMAIL_BUSY_WAIT_SECONDS must be a number of seconds in (0, 86400], got '${value}'.`,
      );
    },
  );

  test("TXMAIL_REQUEST_TIMEOUT_SECONDS keeps its (0, 600] rule", () => {
    expect(() => clientTuningFromEnv({ TXMAIL_REQUEST_TIMEOUT_SECONDS: "601" })).toThrow(
      "TXMAIL_REQUEST_TIMEOUT_SECONDS must be a number of seconds in (0, 600], got '601'.",
    );
  });
});
