// The paths a client calls, built from the endpoint table's templates (endpoints.ts), so the client,
// the providers and the emulator agree.

import { ENDPOINTS as E, fillTemplate } from "./endpoints";

/** The public service; the provider's default when no base URL is configured. */
export const PUBLIC_BASE_URL = "https://api.ahasend.com";

export const paths = {
  ping: () => fillTemplate(E.ping.template, {}),

  apiKeys: (a: string) => fillTemplate(E.listApiKeys.template, { account_id: a }),
  apiKey: (a: string, keyId: string) => fillTemplate(E.getApiKey.template, { account_id: a, key_id: keyId }),

  subAccounts: (a: string) => fillTemplate(E.listSubAccounts.template, { account_id: a }),
  subAccount: (a: string, sub: string) =>
    fillTemplate(E.getSubAccount.template, { account_id: a, sub_account_id: sub }),
  subAccountSuspend: (a: string, sub: string) =>
    fillTemplate(E.suspendSubAccount.template, { account_id: a, sub_account_id: sub }),
  subAccountUnsuspend: (a: string, sub: string) =>
    fillTemplate(E.unsuspendSubAccount.template, { account_id: a, sub_account_id: sub }),
  subAccountUsage: (a: string) => fillTemplate(E.subAccountUsage.template, { account_id: a }),
  subAccountApiKeys: (a: string, sub: string) =>
    fillTemplate(E.listSubAccountApiKeys.template, { account_id: a, sub_account_id: sub }),
  subAccountApiKey: (a: string, sub: string, keyId: string) =>
    fillTemplate(E.getSubAccountApiKey.template, { account_id: a, sub_account_id: sub, key_id: keyId }),

  domains: (a: string) => fillTemplate(E.listDomains.template, { account_id: a }),
  domain: (a: string, name: string) => fillTemplate(E.getDomain.template, { account_id: a, domain: name }),
  domainCheckDns: (a: string, name: string) => fillTemplate(E.checkDomainDns.template, { account_id: a, domain: name }),

  routes: (a: string) => fillTemplate(E.listRoutes.template, { account_id: a }),
  route: (a: string, id: string) => fillTemplate(E.getRoute.template, { account_id: a, route_id: id }),

  webhooks: (a: string) => fillTemplate(E.listWebhooks.template, { account_id: a }),
  webhook: (a: string, id: string) => fillTemplate(E.getWebhook.template, { account_id: a, webhook_id: id }),

  smtpCredentials: (a: string) => fillTemplate(E.listSmtpCredentials.template, { account_id: a }),
  smtpCredential: (a: string, id: string) =>
    fillTemplate(E.getSmtpCredential.template, { account_id: a, smtp_credential_id: id }),

  suppressions: (a: string) => fillTemplate(E.listSuppressions.template, { account_id: a }),
  suppressionsAll: (a: string) => fillTemplate(E.deleteAllSuppressions.template, { account_id: a }),
  /** Delete is addressed by the query, not a path segment: `?email=…[&domain=…]`. */
  suppressionByAddress: (a: string, email: string, domain?: string | null) =>
    `${fillTemplate(E.deleteSuppression.template, { account_id: a })}?${new URLSearchParams(domain ? { email, domain } : { email }).toString()}`,

  members: (a: string) => fillTemplate(E.listMembers.template, { account_id: a }),
  member: (a: string, userId: string) => fillTemplate(E.removeMember.template, { account_id: a, user_id: userId }),

  messages: (a: string) => fillTemplate(E.sendMessage.template, { account_id: a }),
  conversationMessages: (a: string) => fillTemplate(E.sendConversationMessage.template, { account_id: a }),
} as const;
