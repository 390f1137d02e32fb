// The 403 message for a refused address names the one fix that keeps the key restricted.
import { FORBIDDEN_HINT } from "../../../provider/client/errors";
import { explainForbidden } from "../../../provider/core/forbidden";

describe("explainForbidden", () => {
  const message = `403 Forbidden. ${FORBIDDEN_HINT}`;

  it("asks for this machine's address in the key's list, never for an empty list (allow-all)", () => {
    const text = explainForbidden(message, "address", "Domain", "the tenant's bootstrap key", "domains:write");
    expect(text).toContain("Add this machine's address to that key's ipAllowList");
    expect(text).not.toContain(FORBIDDEN_HINT);
    expect(text).not.toMatch(/empty/);
  });

  it("names the scope when the address was accepted", () => {
    expect(explainForbidden(message, "scope", "Domain", "key", "domains:write")).toMatch(
      /lacks the scope: Domain needs domains:write\.$/,
    );
  });
});
