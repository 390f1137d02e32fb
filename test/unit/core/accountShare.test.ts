import { clientTuningFromEnv } from "../../../provider/core/clientApi";
import { paceDirFromEnv, rateShareFromEnv } from "../../../provider/core/accountShare";

describe("this machine's share of the account's limit (TXMAIL_RATE_SHARE)", () => {
  test("unset, empty or 1: the whole limit (the client's defaults)", () => {
    expect(rateShareFromEnv({})).toBeUndefined();
    expect(rateShareFromEnv({ TXMAIL_RATE_SHARE: " " })).toBeUndefined();
    expect(rateShareFromEnv({ TXMAIL_RATE_SHARE: "1" })).toBeUndefined();
    expect(rateShareFromEnv({ TXMAIL_RATE_SHARE: "4/4" })).toBeUndefined();
  });

  test("a fraction or a ratio scales the pace and the burst (each of 4 CI runners: 1/4)", () => {
    expect(rateShareFromEnv({ TXMAIL_RATE_SHARE: "1/4" })).toEqual({ ratePerSecond: 24.25, burst: 48 });
    expect(rateShareFromEnv({ TXMAIL_RATE_SHARE: "0.5" })).toEqual({ ratePerSecond: 48.5, burst: 97 });
    expect(rateShareFromEnv({ TXMAIL_RATE_SHARE: "0.001" })).toEqual({ ratePerSecond: 0.097, burst: 1 });
    expect(clientTuningFromEnv({ TXMAIL_RATE_SHARE: "1/2" }).rateLimit).toEqual({ ratePerSecond: 48.5, burst: 97 });
  });

  test.each(["0", "1.5", "-0.5", "half", "1/0", "3/2", "0/4", "1/4/2"])(
    "TXMAIL_RATE_SHARE=%p is refused, naming the variable and the rule",
    (value) => {
      expect(() => rateShareFromEnv({ TXMAIL_RATE_SHARE: value })).toThrow(
        `TXMAIL_RATE_SHARE must be this machine's fraction of the account's rate limit, in (0, 1] (e.g. 1/4 on each of 4 CI runners), got '${value}'.`,
      );
    },
  );
});

describe("where the machine's processes share their pace (TXMAIL_PACE_DIR)", () => {
  test("unset: the client's default directory; off: each process alone; else that directory", () => {
    expect(paceDirFromEnv({})).toBeUndefined();
    expect(paceDirFromEnv({ TXMAIL_PACE_DIR: "off" })).toBe(false);
    expect(paceDirFromEnv({ TXMAIL_PACE_DIR: "/var/run/txmail" })).toBe("/var/run/txmail");
    expect(clientTuningFromEnv({ TXMAIL_PACE_DIR: "off" }).paceDir).toBe(false);
  });
});
