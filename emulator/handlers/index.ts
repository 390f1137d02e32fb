// Every v2 route, keyed "METHOD /template".
import type { RouteSpec } from "../context";
import { apiKeys } from "./apiKeys";
import { domains } from "./domains";
import { members } from "./members";
import { messages } from "./messages";
import { ping } from "./ping";
import { routes as inboundRoutes } from "./routes";
import { smtpCredentials } from "./smtpCredentials";
import { subAccounts } from "./subAccounts";
import { suppressions } from "./suppressions";
import { webhooks } from "./webhooks";

export const routes: Record<string, RouteSpec> = {
  ...ping,
  ...apiKeys,
  ...subAccounts,
  ...domains,
  ...inboundRoutes,
  ...webhooks,
  ...smtpCredentials,
  ...suppressions,
  ...members,
  ...messages,
};
