import { parsePositiveIntegerSeconds, parseRetryAfter } from "../../../provider/client/retry";

const NOW = Date.parse("2025-01-01T00:00:00Z");

describe("parseRetryAfter", () => {
  test.each([
    ["0", 0],
    ["1", 1000],
    ["  7 ", 7000],
    ["120", 120_000],
  ])("seconds %p -> %p ms", (v, ms) => expect(parseRetryAfter(v, NOW)).toBe(ms));

  test("HTTP-date (IMF-fixdate) in the future gives the difference", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", NOW)).toBe(5000);
  });
  test("RFC 850 date", () => {
    expect(parseRetryAfter("Wednesday, 01-Jan-25 00:00:03 GMT", NOW)).toBe(3000);
  });
  test("HTTP-date in the past gives 0 (go now)", () => {
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", NOW)).toBe(0);
  });

  test.each([
    undefined,
    null,
    "",
    "   ",
    "-1",
    "1.5",
    "soon",
    "5s",
    "0x10",
    "Wed, 99 Foo 2025 xx GMT",
    "2025-01-01T00:00:05Z",
    "99999999",
  ])("invalid %p -> undefined (caller falls back to backoff)", (v) =>
    expect(parseRetryAfter(v as string | undefined, NOW)).toBeUndefined(),
  );
});

describe("parsePositiveIntegerSeconds (in-progress 409)", () => {
  test.each([
    ["1", 1],
    ["30", 30],
  ])("%p -> %p", (v, n) => expect(parsePositiveIntegerSeconds(v)).toBe(n));
  test.each([undefined, "", "0", "-3", "1.0", "Wed, 01 Jan 2025 00:00:05 GMT"])("%p -> undefined", (v) =>
    expect(parsePositiveIntegerSeconds(v)).toBeUndefined(),
  );
});
