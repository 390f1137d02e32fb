import { TxmailApiError, categoryForStatus } from "../../../provider/client/errors";
import { clearSecretsForTests, registerSecret } from "../../../provider/client/redact";

afterEach(() => clearSecretsForTests());

describe("TxmailApiError", () => {
  test("carries status, method, path, service message, attempts and retried", () => {
    const e = new TxmailApiError({
      category: "not-found",
      method: "GET",
      path: "/v2/accounts/a/routes/r1",
      status: 404,
      serviceMessage: "route not found",
      attempts: 1,
    });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("TxmailApiError");
    expect(e.message).toBe("GET /v2/accounts/a/routes/r1 failed with HTTP 404: route not found");
    expect(e).toMatchObject({
      category: "not-found",
      status: 404,
      method: "GET",
      retried: false,
      attempts: 1,
      serviceMessage: "route not found",
    });
  });

  test("never keeps a query string", () => {
    const e = new TxmailApiError({
      category: "server",
      method: "GET",
      path: "/v2/accounts/a/routes?domain=x&after=cur",
      status: 500,
      attempts: 3,
      stopReason: "gave up after 3 attempts",
    });
    expect(e.path).toBe("/v2/accounts/a/routes");
    expect(e.message).not.toContain("?");
    expect(e.message).toContain("(3 attempts; gave up after 3 attempts)");
    expect(e.retried).toBe(true);
  });

  test("422 idempotency mismatch says it is a key-derivation bug", () => {
    const e = new TxmailApiError({
      category: "idempotency-mismatch",
      method: "POST",
      path: "/v2/accounts/a/routes",
      status: 422,
      serviceMessage: "key already used with a different payload",
      attempts: 1,
    });
    expect(e.message).toMatch(/bug in idempotency-key derivation/);
  });

  test("403 explains scope-or-allow-list and can name the scope", () => {
    const e = new TxmailApiError({
      category: "forbidden",
      method: "DELETE",
      path: "/v2/accounts/a/routes/r",
      status: 403,
      serviceMessage: "forbidden",
      attempts: 1,
      hint: "This operation needs the scope 'routes:delete:all'.",
    });
    expect(e.message).toMatch(/lacks the scope .* or the caller's IP address is outside the key's ip_allow_list/);
    expect(e.message).toContain("routes:delete:all");
  });

  test("network failures say the outcome is unknown, unless the connection was refused", () => {
    const reset = new TxmailApiError({
      category: "network",
      method: "POST",
      path: "/p",
      attempts: 1,
      code: "ECONNRESET",
      serviceMessage: "other side closed",
    });
    expect(reset.message).toMatch(/outcome is unknown/);
    expect(reset.outcomeUnknown).toBe(true);
    const refused = new TxmailApiError({
      category: "network",
      method: "POST",
      path: "/p",
      attempts: 1,
      code: "ECONNREFUSED",
      serviceMessage: "connect ECONNREFUSED",
    });
    expect(refused.message).not.toMatch(/outcome is unknown/);
  });

  test("secrets are redacted from message, service message, path and issues", () => {
    registerSecret("whsec-super-secret");
    const e = new TxmailApiError({
      category: "schema",
      method: "POST",
      path: "/v2/accounts/a/webhooks",
      attempts: 1,
      serviceMessage: "echo whsec-super-secret",
      issues: [{ path: "secret", message: "got whsec-super-secret" }],
    });
    const all = [e.message, e.serviceMessage, e.stack, JSON.stringify(e), JSON.stringify(e.issues)].join("\n");
    expect(all).not.toContain("whsec-super-secret");
  });

  test.each([
    [400, "validation"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not-found"],
    [408, "timeout"],
    [409, "conflict"],
    [418, "client"],
    [422, "validation"],
    [429, "rate-limited"],
    [500, "server"],
    [599, "server"],
  ] as const)("categoryForStatus(%p) = %s", (s, k) => expect(categoryForStatus(s)).toBe(k));
  test("categoryForStatus distinguishes in-progress and idempotency mismatch", () => {
    expect(categoryForStatus(409, { inProgress: true })).toBe("in-progress");
    expect(categoryForStatus(422, { hadIdempotencyKey: true })).toBe("idempotency-mismatch");
  });
});
