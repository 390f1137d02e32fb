// The pack's policies, apart from index.ts: constructing a PolicyPack starts its gRPC server, so
// tests import this list instead.
import type { Policies } from "@pulumi/policy";
import { allowListSize } from "./rules/allowListSize";
import { broadPrefix } from "./rules/broadPrefix";
import { credentialRotation } from "./rules/credentialRotation";
import { httpsEndpoints } from "./rules/httpsEndpoints";
import { keyAllowList } from "./rules/keyAllowList";
import { keyScopes } from "./rules/keyScopes";
import { noAllowAll } from "./rules/noAllowAll";
import { validAllowList } from "./rules/validAllowList";

export const policies: Policies = [
  // Mandatory: what the service rejects or must never accept.
  noAllowAll,
  validAllowList,
  allowListSize,
  // Mandatory for keys that can change the account, advisory for the others and for opt-outs.
  keyAllowList,
  // Advisory, configurable.
  broadPrefix,
  keyScopes,
  httpsEndpoints,
  credentialRotation,
];
