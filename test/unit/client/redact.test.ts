import {
  REDACTED,
  clearSecretsForTests,
  containsRegisteredSecret,
  redact,
  registerSecret,
  registerSecretsIn,
} from "../../../provider/client/redact";

const KEY = `txm-sk-${"a1B2".repeat(16)}`; // <prefix>-sk-<64 chars>

afterEach(() => clearSecretsForTests());

describe("redact", () => {
  test("removes registered secrets wherever they appear", () => {
    registerSecret("route-signing-secret-123");
    expect(redact("x route-signing-secret-123 y (route-signing-secret-123)")).toBe(`x ${REDACTED} y (${REDACTED})`);
  });

  test("longest secret first, so an overlapping pair is removed whole", () => {
    registerSecret("abcdefgh");
    registerSecret("abcdefghijkl");
    expect(redact("abcdefghijkl")).toBe(REDACTED);
  });

  test("regex metacharacters in secrets are literal", () => {
    registerSecret("p@ss.*word(1)?");
    expect(redact("pw=p@ss.*word(1)? end")).toBe(`pw=${REDACTED} end`);
    expect(redact("pXssXXword1")).toBe("pXssXXword1");
  });

  test("short values are not registered (they would shred messages)", () => {
    registerSecret("true");
    registerSecret("abc");
    expect(redact("true abc")).toBe("true abc");
  });

  test("API-key-shaped tokens are removed even unregistered", () => {
    expect(redact(`key ${KEY} leaked`)).toBe(`key ${REDACTED} leaked`);
    expect(redact(`"secret_key":"${KEY}"`)).toBe(`"secret_key":"${REDACTED}"`);
  });

  test("Authorization / Bearer / Idempotency-Key headers", () => {
    expect(redact("Authorization: Bearer abc.def-123")).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redact('{"authorization":"Bearer xyz"}')).not.toContain("xyz");
    expect(redact("sent bearer tok_123 to server")).toBe(`sent bearer ${REDACTED} to server`);
    expect(redact("Idempotency-Key: txmail-create-route-42")).toBe(`Idempotency-Key: ${REDACTED}`);
  });

  test("PEM private keys", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\nabc\n-----END RSA PRIVATE KEY-----";
    expect(redact(`bad key ${pem} here`)).toBe(`bad key ${REDACTED} here`);
    expect(redact("-----BEGIN PRIVATE KEY-----\nMIIB truncated")).toBe(REDACTED);
  });

  test("registerSecretsIn walks bodies for secret-named fields only", () => {
    registerSecretsIn({
      object: "api_key",
      label: "ci-deployer-label",
      secret_key: "sk-value-0001",
      nested: [{ password: "smtp-pass-0002" }, { secret: "whsec-0003" }, { dkim_private_key: "pem-body-0004" }],
    });
    expect(redact("sk-value-0001 smtp-pass-0002 whsec-0003 pem-body-0004")).toBe(
      [REDACTED, REDACTED, REDACTED, REDACTED].join(" "),
    );
    expect(redact("ci-deployer-label")).toBe("ci-deployer-label");
    expect(containsRegisteredSecret("... whsec-0003 ...")).toBe(true);
  });

  test("registerSecretsIn survives hostile input", () => {
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 1000; i++) cur = (cur.x = {}) as Record<string, unknown>;
    expect(() => registerSecretsIn(deep)).not.toThrow();
    expect(() => registerSecretsIn(null)).not.toThrow();
    expect(() => registerSecretsIn("secret")).not.toThrow();
    registerSecretsIn({ secret: 12345678 }); // not a string: ignored
    expect(redact("12345678")).toBe("12345678");
  });

  test("scales: many secrets, large and adversarial texts stay linear", () => {
    for (let i = 0; i < 20_000; i++) registerSecret(`secret-${i.toString(36).padStart(8, "0")}-tail`);
    // CPU time, not wall time: a loaded machine stretches the wall clock, not the work.
    const t0 = process.cpuUsage();
    for (let i = 0; i < 1000; i++)
      redact(
        `POST /v2/accounts/a/routes -> 201 in 3 ms (attempt 1) secret-${(i * 7).toString(36).padStart(8, "0")}-tail`,
      );
    for (const big of [
      "x".repeat(100_000),
      "-sk-".repeat(25_000),
      "Bearer ".repeat(15_000),
      "authorization: ".repeat(7_000),
      "secret-0".repeat(12_000),
    ]) {
      redact(big);
    }
    const { user, system } = process.cpuUsage(t0);
    expect((user + system) / 1000).toBeLessThan(2000);
    expect(redact("a secret-00000001-tail b")).toBe(`a ${REDACTED} b`);
  });
});
