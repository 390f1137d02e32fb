// The data functions (sdk/nodejs/functions.ts) as invokes: `txmail:index:<name>`. Each is declared once
// here — inputs as zod, the answer as the service's record schema, camelCased as the look-ups
// return it (keysToCamel) — for the schema and for the provider that serves the invokes.
import { z } from "zod";
import { ApiKey, Domain, Route, SubAccountUsage, Webhook } from "../../provider/api";
import { commonInputs } from "./common";
import { Converter } from "./jsonSchemaToPulumi";
import type { FunctionSpec } from "./pulumiSchema";
import { pascal, token } from "./tokens";
import type { TypeRegistry } from "./typeRegistry";
import { camelSchema, jsonSchemaOf } from "./zodJson";

export interface DataFunction {
  name: string;
  description: string;
  /** The function's own inputs (`connection` is added to every one). */
  inputs: z.ZodObject;
  /** What the service answers; the function returns it camelCased. */
  result: z.ZodType;
}

const byIdOr = (field: "name" | "label", what: string) =>
  z.object({
    id: z.string().min(1).optional().describe(`The ${what}'s id. Give exactly one of \`id\` and \`${field}\`.`),
    [field]: z
      .string()
      .min(1)
      .optional()
      .describe(`The ${what}'s ${field} (the first ${what} with it). Give exactly one of \`id\` and \`${field}\`.`),
  });

export const DATA_FUNCTIONS: readonly DataFunction[] = [
  {
    name: "getSubAccountUsage",
    description: "Usage and allocated cost of the parent and each sub account in the current billing period.",
    inputs: z.object({}),
    result: SubAccountUsage,
  },
  {
    name: "lookupDomain",
    description: "An existing domain by name.",
    inputs: z.object({ domain: z.string().min(1).describe("The domain's name, e.g. `mail.example.com`.") }),
    result: Domain,
  },
  {
    name: "lookupRoute",
    description: "An existing route by id or by name (the first with that name).",
    inputs: byIdOr("name", "route"),
    result: Route,
  },
  {
    name: "lookupWebhook",
    description: "An existing webhook by id or by name (the first with that name).",
    inputs: byIdOr("name", "webhook"),
    result: Webhook,
  },
  {
    name: "lookupApiKey",
    description: "An existing API key (without its secret, which the service never returns again) by id or label.",
    inputs: byIdOr("label", "API key"),
    result: ApiKey,
  },
];

export function functionSchemas(registry: TypeRegistry): Record<string, FunctionSpec> {
  const convert = new Converter(registry);
  const { connection } = commonInputs(registry);
  return Object.fromEntries(
    DATA_FUNCTIONS.map((f) => {
      const inputs = convert.object(jsonSchemaOf(f.inputs, "input"), pascal(f.name));
      const outputs = convert.object(camelSchema(jsonSchemaOf(f.result, "output")), `${pascal(f.name)}Result`);
      return [
        token(f.name),
        {
          description: f.description,
          inputs: {
            ...inputs,
            properties: {
              ...inputs.properties,
              connection: {
                ...connection!,
                description:
                  "Credentials for this look-up; default: the provider's configuration, then TXMAIL_* variables.",
              },
            },
          },
          outputs,
        },
      ];
    }),
  );
}
