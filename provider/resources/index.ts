// Every resource the provider implements, by kind (the last part of its type token).
import type { ResourceSpec } from "../core/spec";
import { accountMember } from "./accountMember";
import { apiKey } from "./apiKey";
import { domain } from "./domain";
import { route } from "./route";
import { smtpCredential } from "./smtpCredential";
import { subAccount } from "./subAccount";
import { subAccountApiKey } from "./subAccountApiKey";
import { suppression } from "./suppression";
import { webhook } from "./webhook";

// Specs differ in their input types; the registry only needs them as specs of some inputs.
type AnySpec = ResourceSpec<Record<string, unknown>>;

export const specs: Record<string, AnySpec> = Object.fromEntries(
  [apiKey, subAccount, subAccountApiKey, domain, route, webhook, smtpCredential, accountMember, suppression].map(
    (s) => [s.kind, s as unknown as AnySpec],
  ),
);
