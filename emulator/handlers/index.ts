// Every v2 endpoint, keyed "METHOD /template".
import type { Endpoint } from "../context";
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

export const endpoints: Record<string, Endpoint> = {
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
