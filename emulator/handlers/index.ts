// How the emulator serves every v2 endpoint, keyed by its name in the endpoint table
// (provider/api/endpoints.ts), which holds its method and path template.
import type { EmulatedEndpoints } from "../context";
import { apiKeys } from "./apiKeys";
import { domains } from "./domains";
import { members } from "./members";
import { messages } from "./messages";
import { ping } from "./ping";
import { routes } from "./routes";
import { smtpCredentials } from "./smtpCredentials";
import { subAccounts } from "./subAccounts";
import { suppressions } from "./suppressions";
import { webhooks } from "./webhooks";

export const endpoints: EmulatedEndpoints = {
  ...ping,
  ...apiKeys,
  ...subAccounts,
  ...domains,
  ...routes,
  ...webhooks,
  ...smtpCredentials,
  ...suppressions,
  ...members,
  ...messages,
};
