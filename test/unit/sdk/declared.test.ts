// The SDK classes are derived from the declarations (sdk/nodejs/internal/declared.ts, and what
// sdk/nodejs/generated/fields.ts lists of them): every field of a declaration's zod schema reaches the
// provider and appears on its class; write-only inputs travel as secrets. (That one-time secrets
// are kept secret is shown on the real engine: test/e2e/secretLeak.test.ts.)
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { secretValue } from "../../../provider/core/secretMarks";
import { declarationOf, declarations } from "../../../provider/resources";
import { registeredProps } from "../../../sdk/nodejs/internal/declared";
import * as txmail from "../../../sdk/nodejs";

const registered = new Map<string, Record<string, unknown>>();

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.set(args.name, args.inputs);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => args.inputs,
  },
  "proj",
  "stack",
  false,
);

const fieldsOf = (kind: string) => Object.keys((declarationOf(kind)!.inputs as unknown as z.ZodObject).shape);
const classes = txmail as unknown as Record<string, new (name: string, args: object) => pulumi.CustomResource>;

describe("SDK classes derived from the declarations", () => {
  it.each(Object.keys(declarations))("%s registers every input its declaration has, and exposes it", async (kind) => {
    const args = Object.fromEntries(fieldsOf(kind).map((f) => [f, `value of ${f}`]));
    const name = `every-${kind}`;
    const r = new classes[kind]!(name, args);
    await new Promise((resolve) => r.id.apply(resolve));
    const sent = registered.get(name)!;
    const writeOnly: readonly string[] = declarationOf(kind)!.writeOnly ?? [];
    for (const field of fieldsOf(kind)) {
      // Write-only inputs travel signed as secrets (the engine stores them encrypted).
      const value = `value of ${field}`;
      expect([field, sent[field]]).toEqual([field, writeOnly.includes(field) ? secretValue(value) : value]);
      expect([field, pulumi.Output.isInstance((r as unknown as Record<string, unknown>)[field])]).toEqual([
        field,
        true,
      ]);
    }
  });

  it("registers each listed input, write-only ones as secrets, and the exposed outputs as undefined", async () => {
    const registration = {
      inputs: ["domain", "dkimPrivateKey", "priority"],
      writeOnly: ["dkimPrivateKey"],
      secretOutputs: [],
      outputs: [],
    };
    const props = registeredProps(registration, { domain: "mail.example.com", dkimPrivateKey: "pem", priority: 1 }, [
      "dnsValid",
    ]);
    expect(Object.keys(props)).toEqual(["domain", "dkimPrivateKey", "priority", "dnsValid"]);
    expect(props).toMatchObject({ domain: "mail.example.com", priority: 1, dnsValid: undefined });
    expect(await pulumi.isSecret(props.dkimPrivateKey as pulumi.Output<string>)).toBe(true);
    expect(registeredProps(registration, { domain: "mail.example.com" }, []).dkimPrivateKey).toBeUndefined();
  });
});
