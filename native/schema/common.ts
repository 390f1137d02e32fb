// What every resource takes besides its own inputs (core/declaration.ts CommonInputs), and the provider's
// configuration. `__urn` and `__stackSalt` are not here: the dynamic SDK classes set them, and the
// native provider takes the resource's identity from the engine.
import type { PropertySpec } from "./pulumiSchema";
import type { TypeRegistry } from "./typeRegistry";

const API_KEY = "API key to use (a Pulumi secret).";
const ACCOUNT_ID = "Account the resources belong to (a sub account's id when using that sub account's key).";
const BASE_URL = "Service base URL, e.g. the local emulator's. Default: `https://api.ahasend.com`.";

/** The provider's settings: stack config `txmail:<name>`, else the environment variable. */
export const CONFIG_VARIABLES: Record<string, PropertySpec> = {
  apiKey: {
    type: "string",
    secret: true,
    description: `${API_KEY} Default: the TXMAIL_API_KEY environment variable.`,
    defaultInfo: { environment: ["TXMAIL_API_KEY"] },
  },
  accountId: {
    type: "string",
    description: `The parent account's id (a uuid). Default: the TXMAIL_ACCOUNT_ID environment variable.`,
    defaultInfo: { environment: ["TXMAIL_ACCOUNT_ID"] },
  },
  baseUrl: {
    type: "string",
    description:
      "Service base URL, e.g. the local emulator's. Default: the TXMAIL_BASE_URL environment variable, else `https://api.ahasend.com`.",
    defaultInfo: { environment: ["TXMAIL_BASE_URL"] },
  },
};

/** `connection` and `adoptId`, as input (and state) properties of every resource. */
export function commonInputs(registry: TypeRegistry): Record<string, PropertySpec> {
  const connection = registry.register("Connection", {
    type: "object",
    description:
      "Credentials for one resource, overriding the provider's configuration (for stacks that manage several accounts).",
    properties: {
      apiKey: { type: "string", secret: true, description: API_KEY },
      accountId: { type: "string", description: ACCOUNT_ID },
      baseUrl: { type: "string", description: BASE_URL },
    },
  });
  return {
    connection: {
      $ref: connection,
      description:
        "Per-resource credentials; default: the provider's configuration (`txmail:*`), then the TXMAIL_* environment variables. A different account replaces the resource.",
    },
    adoptId: {
      type: "string",
      description:
        "Adopt the existing object with this id (a domain: its name) instead of creating one. Fields that cannot change in place must match the program; the others are updated to the program's values.",
    },
  };
}
