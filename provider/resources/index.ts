// Every resource the provider implements, by kind (the last part of its type token).
import type { ResourceSpec } from "../core/spec";
import { apiKey } from "./apiKey";
import { domain } from "./domain";
import { route } from "./route";
import { smtpCredential } from "./smtpCredential";
import { subAccount } from "./subAccount";
import { subAccountApiKey } from "./subAccountApiKey";
import { webhook } from "./webhook";

// Specs differ in their input types; the registry only needs them as specs of some inputs.
type AnySpec = ResourceSpec<Record<string, unknown>>;

export const specs: Record<string, AnySpec> = Object.fromEntries(
  [apiKey, subAccount, subAccountApiKey, domain, route, webhook, smtpCredential].map((s) => [
    s.kind,
    s as unknown as AnySpec,
  ]),
);
