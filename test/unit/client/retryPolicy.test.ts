import { classifyNetworkError, classifyResponse, retrySafety } from "../../../provider/client/retry";

const NOW = Date.parse("2025-01-01T00:00:00Z");
const cls = (status: number, headers: Record<string, string> = {}, hadIdempotencyKey = true) =>
  classifyResponse(status, headers, { hadIdempotencyKey, nowMs: NOW });

describe("retrySafety", () => {
  test.each([
    ["GET", "/v2/accounts/a/routes", false, true],
    ["PUT", "/v2/accounts/a/routes/r", false, true],
    ["DELETE", "/v2/accounts/a/routes/r", false, true],
    ["POST", "/v2/accounts/a/routes", true, true],
    ["POST", "/v2/accounts/a/routes", false, false],
    ["POST", "/v2/accounts/a/domains/example.com/check-dns", false, false],
    ["POST", "/v2/accounts/a/domains/example.com/check-dns", true, false],
    ["POST", "/v2/accounts/a/sub-accounts/s/suspend", true, false],
    ["POST", "/v2/accounts/a/sub-accounts/s/unsuspend", false, false],
    ["POST", "/v2/accounts/a/sub-accounts/s/unsuspend/", true, false],
    ["POST", "/v2/accounts/a/sub-accounts", true, true],
  ] as const)("%s %s key=%p -> safe=%p", (method, path, key, safe) => {
    expect(retrySafety(method, path, key).safe).toBe(safe);
  });
});

describe("classifyResponse: the Retry safety table", () => {
  test.each([200, 201, 202, 204])("%p is success", (s) => expect(cls(s)).toEqual({ outcome: "success" }));

  test.each([
    [500, "server"],
    [502, "server"],
    [503, "server"],
    [504, "server"],
    [408, "timeout"],
    [429, "rate-limited"],
  ] as const)("%p is retryable (%s) with backoff when no Retry-After", (s, category) => {
    expect(cls(s)).toEqual({ outcome: "retry", category });
  });

  test("429 with Retry-After seconds is authoritative", () => {
    expect(cls(429, { "retry-after": "3" })).toEqual({
      outcome: "retry",
      category: "rate-limited",
      retryAfterMs: 3000,
    });
  });
  test("429 with Retry-After HTTP-date", () => {
    expect(cls(429, { "retry-after": "Wed, 01 Jan 2025 00:00:02 GMT" })).toEqual({
      outcome: "retry",
      category: "rate-limited",
      retryAfterMs: 2000,
    });
  });
  test("429 with invalid Retry-After falls back to backoff", () => {
    expect(cls(429, { "retry-after": "later" })).toEqual({ outcome: "retry", category: "rate-limited" });
  });

  test("409 in progress: Idempotent-Replayed false + positive integer Retry-After", () => {
    expect(cls(409, { "idempotent-replayed": "false", "retry-after": "2" })).toEqual({
      outcome: "retry",
      category: "in-progress",
      retryAfterMs: 2000,
    });
    expect(cls(409, { "idempotent-replayed": "False", "retry-after": "1" })).toMatchObject({
      outcome: "retry",
      category: "in-progress",
    });
  });
  test.each([
    [{}],
    [{ "retry-after": "2" }],
    [{ "idempotent-replayed": "false" }],
    [{ "idempotent-replayed": "false", "retry-after": "0" }],
    [{ "idempotent-replayed": "false", "retry-after": "Wed, 01 Jan 2025 00:00:02 GMT" }],
    [{ "idempotent-replayed": "true", "retry-after": "2" }],
  ])("409 without both signals is a terminal conflict (self-lockout / duplicate): %p", (h) => {
    expect(cls(409, h)).toEqual({ outcome: "fail", category: "conflict" });
  });

  test.each([
    [400, "validation"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not-found"],
    [405, "client"],
    [410, "client"],
    [413, "client"],
  ] as const)("%p is terminal (%s)", (s, category) => expect(cls(s)).toEqual({ outcome: "fail", category }));

  test("422 with an Idempotency-Key is an idempotency mismatch, without one a validation error", () => {
    expect(cls(422, {}, true)).toEqual({ outcome: "fail", category: "idempotency-mismatch" });
    expect(cls(422, {}, false)).toEqual({ outcome: "fail", category: "validation" });
  });
  test("terminal 4xx stay terminal even with Retry-After", () => {
    expect(cls(400, { "retry-after": "1" })).toEqual({ outcome: "fail", category: "validation" });
  });
});

describe("classifyNetworkError", () => {
  const err = (code: string) => Object.assign(new Error(code), { code });
  test.each(["ECONNRESET", "ECONNREFUSED", "EPIPE", "UND_ERR_SOCKET", "EAI_AGAIN"])(
    "%s is a retryable network failure",
    (c) => {
      expect(classifyNetworkError(err(c), false)).toMatchObject({ category: "network", retryable: true, code: c });
    },
  );
  test.each(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"])(
    "%s is a retryable timeout",
    (c) => {
      expect(classifyNetworkError(err(c), false)).toMatchObject({ category: "timeout", retryable: true });
    },
  );
  test("ENOTFOUND fails fast (misspelt base URL)", () => {
    expect(classifyNetworkError(err("ENOTFOUND"), false)).toMatchObject({ retryable: false });
  });
  test("cause.code is honoured", () => {
    expect(classifyNetworkError(Object.assign(new Error("x"), { cause: { code: "ECONNRESET" } }), false)).toMatchObject(
      { retryable: true },
    );
  });
  test("caller abort is never retried", () => {
    expect(classifyNetworkError(err("ECONNRESET"), true)).toMatchObject({ category: "aborted", retryable: false });
  });
  test("unknown errors are not retried", () => {
    expect(classifyNetworkError(new TypeError("bad"), false)).toMatchObject({ retryable: false });
  });
});
