// The SDK classes are derived from the declarations (sdk/internal/declared.ts): a field added to a
// declaration's zod schema must reach the provider and appear on the class without touching sdk/.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { secretValue } from "../../../provider/core/secretMarks";
import { specs } from "../../../provider/resources";
import { apiKey } from "../../../provider/resources/apiKey";
import { domain } from "../../../provider/resources/domain";
import { route } from "../../../provider/resources/route";
import { registeredProps, secretOutputsOf } from "../../../sdk/internal/declared";
import * as txmail from "../../../sdk";

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

const fieldsOf = (kind: string) => Object.keys((specs[kind]!.inputs as unknown as z.ZodObject).shape);
const classes = txmail as unknown as Record<string, new (name: string, args: object) => pulumi.CustomResource>;

describe("SDK classes derived from the declarations", () => {
  it.each(Object.keys(specs))("%s registers every input its declaration has, and exposes it", async (kind) => {
    const args = Object.fromEntries(fieldsOf(kind).map((f) => [f, `value of ${f}`]));
    const name = `every-${kind}`;
    const r = new classes[kind]!(name, args);
    await new Promise((resolve) => r.id.apply(resolve));
    const sent = registered.get(name)!;
    const writeOnly: readonly string[] = specs[kind]!.writeOnly ?? [];
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

  it("registers a field added to a declaration, with no change to the class", () => {
    const extended = { ...route, inputs: route.inputs.extend({ priority: route.inputs.shape.name }) };
    const props = registeredProps(extended, { name: "support", url: "https://x", priority: "high" }, ["secret"]);
    expect(props).toMatchObject({ name: "support", url: "https://x", priority: "high" });
    expect(Object.keys(props)).toContain("secret");
    expect(props.secret).toBeUndefined();
  });

  it("registers write-only inputs as secrets and leaves an unset one unset", async () => {
    const props = registeredProps(domain, { domain: "mail.example.com", dkimPrivateKey: "pem" }, []);
    expect(await pulumi.isSecret(props.dkimPrivateKey as pulumi.Output<string>)).toBe(true);
    expect(props.domain).toBe("mail.example.com");
    expect(registeredProps(domain, { domain: "mail.example.com" }, []).dkimPrivateKey).toBeUndefined();
  });

  it("marks the one-time secrets of each declaration as secret outputs", () => {
    expect(secretOutputsOf(route)).toEqual(["secret"]);
    expect(secretOutputsOf(domain)).toEqual([]);
    expect(secretOutputsOf(apiKey)).toEqual(["secretKey"]);
  });
});
