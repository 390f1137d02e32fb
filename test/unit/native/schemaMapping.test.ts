// How a declaration maps onto the package schema: optional and required inputs, enums, defaults,
// secrets (one-time outputs, write-only inputs, the connection's key), replace triggers, and the
// outputs state keeps — on a made-up kind (each rule alone) and on the real declarations.
import { z } from "zod";
import type { Kind } from "../../../provider/api/kinds";
import type { AnyDeclaration } from "../../../provider/core/declaration";
import { declarationOf, declarations } from "../../../provider/resources";
import { secretPathsOf } from "../../../provider/runtime";
import { resourceSchema } from "../../../native/schema/resource";
import { packageSchema } from "../../../native/schema/packageSchema";
import { TypeRegistry } from "../../../native/schema/typeRegistry";

/** A made-up kind with one of each: required, optional, enum with default, write-only, replace trigger. */
const gadget: AnyDeclaration = {
  kind: "Gadget" as Kind, // made up: no kind of the list
  sdk: { outputs: [] },
  title: (p) => p.name,
  listing: { listed: true },
  description: "A gadget.",
  inputs: z.object({
    name: z.string().min(1).describe("The gadget's name."),
    size: z.number().int().optional(),
    colour: z.enum(["red", "green"]).default("red"),
    tags: z.array(z.string()).default([]),
    privateKey: z.string().optional(),
    rotation: z.string().optional(),
  }) as never,
  apiFields: ["name", "size", "colour", "tags", "privateKey"],
  replaceOn: ["name", "rotation"],
  writeOnly: ["privateKey"],
  createOnly: { token: "token" },
  record: z.object({
    object: z.literal("gadget"),
    id: z.string(),
    name: z.string(),
    size: z.number().int().nullable(),
    colour: z.enum(["red", "green"]),
    tags: z.array(z.string()),
    last_seen_at: z.string().nullable(),
    updated_at: z.string(),
  }),
  created: z.object({ id: z.string(), token: z.string().describe("The gadget's token.") }),
  collectionPath: () => "/gadgets",
  itemPath: (_c, _p, id) => `/gadgets/${id}`,
  scopes: { read: () => [], write: () => [], delete: () => [] },
};

describe("one declaration → one resource", () => {
  const registry = new TypeRegistry();
  const r = resourceSchema(gadget, registry);

  test("a required input is in requiredInputs; optional and defaulted ones are not", () => {
    expect(r.requiredInputs).toEqual(["name"]);
    expect(r.inputProperties.size).toEqual({ type: "integer" });
    expect(r.inputProperties.name!.description).toBe("The gadget's name.");
  });

  test("an enum is a named enum type, with its default", () => {
    expect(r.inputProperties.colour).toEqual({ $ref: "#/types/txmail:index:Colour", default: "red" });
    expect(registry.types()["txmail:index:Colour"]).toEqual({
      type: "string",
      enum: [
        { name: "Red", value: "red" },
        { name: "Green", value: "green" },
      ],
    });
  });

  test("a replace trigger is replaceOnChanges, as input and as output; other inputs are not", () => {
    expect(r.inputProperties.name!.replaceOnChanges).toBe(true);
    expect(r.inputProperties.rotation!.replaceOnChanges).toBe(true);
    expect(r.properties.name!.replaceOnChanges).toBe(true);
    expect(r.inputProperties.size!.replaceOnChanges).toBeUndefined();
    expect(r.inputProperties.colour!.replaceOnChanges).toBeUndefined();
  });

  test("secrets: the one-time output, the write-only input, the connection's API key", () => {
    expect(r.properties.token).toMatchObject({ type: "string", secret: true });
    expect(r.properties.token!.description).toMatch(/^The gadget's token\. Returned once/);
    expect(r.inputProperties.privateKey!.secret).toBe(true);
    expect(r.properties.privateKey).toBeUndefined(); // state keeps only a digest
    expect(r.inputProperties.connection!.$ref).toBe("#/types/txmail:index:Connection");
    expect(registry.types()["txmail:index:Connection"]).toMatchObject({ properties: { apiKey: { secret: true } } });
  });

  test("outputs are what state keeps: the record camelCased without object, id, updatedAt; plus the inputs", () => {
    expect(Object.keys(r.properties).sort()).toEqual(
      ["adoptId", "colour", "connection", "lastSeenAt", "name", "rotation", "size", "tags", "token"].sort(),
    );
    // Always set: required or defaulted inputs, non-null record fields, the one-time secret.
    expect(r.required).toEqual(["colour", "name", "tags", "token"]);
  });

  test("the common inputs are connection and adoptId, never the SDK's private ones", () => {
    expect(Object.keys(r.inputProperties)).toEqual(expect.arrayContaining(["connection", "adoptId"]));
    expect(Object.keys(r.inputProperties).filter((k) => k.startsWith("__"))).toEqual([]);
  });

  test("two different types under one name fail loudly", () => {
    expect(() => registry.register("Colour", { type: "string", enum: [{ value: "blue" }] })).toThrow(
      /two different types want the name txmail:index:Colour/,
    );
  });
});

describe("the real declarations", () => {
  const schema = packageSchema();
  const res = (kind: string) => schema.resources[`txmail:index:${kind}`]!;

  test.each(Object.keys(declarations))("%s: every path the provider marks secret is secret in the schema", (kind) => {
    for (const path of secretPathsOf(declarationOf(kind)!)) {
      if (path[0] === "connection") {
        expect(schema.types["txmail:index:Connection"]).toMatchObject({ properties: { apiKey: { secret: true } } });
      } else if ((declarationOf(kind)!.writeOnly ?? []).includes(path[0]!)) {
        expect(res(kind).inputProperties[path[0]!]!.secret).toBe(true);
      } else {
        expect(res(kind).properties[path[0]!]!.secret).toBe(true);
      }
    }
  });

  test("replace triggers: the declared ones, every sent field of kinds without update, none for routes, not a rotation schedule", () => {
    const triggers = (kind: string) =>
      Object.entries(res(kind).inputProperties)
        .filter(([, p]) => p.replaceOnChanges)
        .map(([k]) => k)
        .sort();
    expect(triggers("Domain")).toEqual(["dkimPrivateKey", "domain"]);
    // `rotation` replaces only as the legacy string, which the provider's diff says itself: marked, the
    // generated SDKs would replace a key on its schedule's due rotation (core/rotating).
    expect(triggers("SubAccountApiKey")).toEqual(["subAccountId"]);
    expect(triggers("ApiKey")).toEqual([]);
    expect(triggers("SmtpCredential")).toEqual(["domains", "name", "sandbox", "scope"]);
    expect(triggers("Route")).toEqual([]);
  });

  test("a reshaped output follows the kind's outputsOf: a domain's DNS records carry `value`, not `content`", () => {
    const record = schema.types["txmail:index:DomainDnsRecord"] as { properties: object; required: string[] };
    expect(Object.keys(record.properties).sort()).toEqual(["host", "label", "propagated", "required", "type", "value"]);
    expect(record.required.sort()).toEqual(["host", "propagated", "required", "type", "value"]);
  });

  test("a look-up answers the record camelCased; a nullable field is optional (Pulumi has no null)", () => {
    const outputs = schema.functions["txmail:index:lookupRoute"]!.outputs;
    expect(outputs.properties.lastRequestAt).toEqual({ type: "string", description: expect.any(String) });
    expect(outputs.required).toEqual(expect.arrayContaining(["id", "name", "successCount"]));
    expect(outputs.required).not.toContain("lastRequestAt");
  });

  test("a member's role is an enum of the four roles", () => {
    expect(res("AccountMember").inputProperties.role!.$ref).toBe("#/types/txmail:index:Role");
    expect((schema.types["txmail:index:Role"] as { enum: { value: string }[] }).enum.map((e) => e.value)).toEqual([
      "Administrator",
      "Developer",
      "Analyst",
      "Billing Manager",
    ]);
  });

  test("the Tenant's parts take what their kinds take (a field added to Domain reaches TenantDomain)", () => {
    const tenantDomain = schema.types["txmail:index:TenantDomain"] as { properties: Record<string, object> };
    expect(Object.keys(tenantDomain.properties).sort()).toEqual(
      Object.keys(res("Domain").inputProperties)
        .filter((k) => k !== "connection" && k !== "adoptId")
        .sort(),
    );
    expect(res("Tenant").requiredInputs).toEqual(["website"]);
  });
});
