// Every v2 route, keyed "METHOD /template".
import type { RouteSpec } from "../context";
import { apiKeys } from "./apiKeys";
import { domains } from "./domains";
import { ping } from "./ping";
import { subAccounts } from "./subAccounts";

export const routes: Record<string, RouteSpec> = {
  ...ping,
  ...apiKeys,
  ...subAccounts,
  ...domains,
};
