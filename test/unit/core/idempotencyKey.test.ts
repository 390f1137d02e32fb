// The idempotency key's inputs: the stack's salt separates stacks that share every name.
import { deriveIdempotencyKey, type IdempotencyIdentity } from "../../../provider/core/operations/createKey";

const identity: IdempotencyIdentity = {
  stackSalt: "Zk3h0S8yQ3m1xWq2cV9b4A",
  urn: "urn:pulumi:dev::tenants::pulumi-nodejs:dynamic/txmail:SubAccount::acme",
  accountId: "11111111-1111-4111-8111-111111111111",
  method: "POST",
  path: "/v2/accounts/11111111-1111-4111-8111-111111111111/sub-accounts",
  body: { body: { name: "acme" }, local: {} },
};

describe("deriveIdempotencyKey", () => {
  it("is the same for the same stack, resource and request (a rerun replays)", () => {
    expect(deriveIdempotencyKey({ ...identity })).toBe(deriveIdempotencyKey({ ...identity }));
    expect(deriveIdempotencyKey(identity)).toMatch(/^txmail-[0-9a-f]{64}$/);
  });

  it("differs for another stack with the same project, stack and resource names", () => {
    expect(deriveIdempotencyKey({ ...identity, stackSalt: "another-stack-salt-0001" })).not.toBe(
      deriveIdempotencyKey(identity),
    );
  });

  it("keeps a salt-less identity apart from every salted one", () => {
    expect(deriveIdempotencyKey({ ...identity, stackSalt: undefined })).not.toBe(deriveIdempotencyKey(identity));
  });
});
