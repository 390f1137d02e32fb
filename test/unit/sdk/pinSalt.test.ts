// Which salt `txmail-stack-salt` pins: the one the stack's keys use now, read from its state.
import { saltInState } from "../../../sdk/nodejs/internal/pinSalt";
import { STACK_SALT_TYPE } from "../../../sdk/nodejs/internal/stackSaltType";

const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
const provider = (name: string, salt: string) => ({
  type: "pulumi:providers:txmail",
  urn: urn("pulumi:providers:txmail", name),
  inputs: { __stackSalt: salt },
});

describe("saltInState", () => {
  it("takes the dynamic face's StackSalt resource first", () => {
    const stackSalt = {
      type: STACK_SALT_TYPE,
      urn: urn(STACK_SALT_TYPE, "txmail-stack-salt"),
      outputs: { salt: "dyn" },
    };
    expect(saltInState([provider("default", "native"), stackSalt])).toEqual({
      salt: "dyn",
      where: "its StackSalt resource",
    });
  });

  it("else the salt the dynamic face's resources carry (a stack pinned from its start has no StackSalt)", () => {
    const key = {
      type: "pulumi-nodejs:dynamic/txmail:ApiKey",
      urn: urn("pulumi-nodejs:dynamic/txmail:ApiKey", "ci"),
      inputs: { label: "ci", __stackSalt: "carried" },
    };
    expect(saltInState([key])).toEqual({ salt: "carried", where: "the inputs of its txmail resources" });
  });

  it("else the default provider's, not an explicit provider's (which keeps its own name and salt)", () => {
    expect(saltInState([provider("explicit", "mine"), provider("default_0_1_0", "default-salt")])?.salt).toBe(
      "default-salt",
    );
    expect(saltInState([provider("explicit", "mine")])?.salt).toBe("mine");
  });

  it("finds none in a stack that never created anything", () => {
    expect(saltInState([{ type: "pulumi:pulumi:Stack", urn: urn("pulumi:pulumi:Stack", "p-dev") }])).toBeUndefined();
  });
});
