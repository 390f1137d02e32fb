// The provider object each resource class passes to pulumi.dynamic.Resource: one module per kind
// (provider/kinds/), so that an installed package serializes as a short `require(...)`.
import type * as pulumi from "@pulumi/pulumi";
import accountMember = require("../../provider/kinds/accountMember");
import apiKey = require("../../provider/kinds/apiKey");
import domain = require("../../provider/kinds/domain");
import route = require("../../provider/kinds/route");
import smtpCredential = require("../../provider/kinds/smtpCredential");
import subAccount = require("../../provider/kinds/subAccount");
import subAccountApiKey = require("../../provider/kinds/subAccountApiKey");
import suppression = require("../../provider/kinds/suppression");
import webhook = require("../../provider/kinds/webhook");

const providers = {
  AccountMember: accountMember,
  ApiKey: apiKey,
  Domain: domain,
  Route: route,
  SmtpCredential: smtpCredential,
  SubAccount: subAccount,
  SubAccountApiKey: subAccountApiKey,
  Suppression: suppression,
  Webhook: webhook,
} satisfies Record<string, pulumi.dynamic.ResourceProvider>;

export type Kind = keyof typeof providers;

export function dynamicProvider(kind: Kind): pulumi.dynamic.ResourceProvider {
  return providers[kind];
}
