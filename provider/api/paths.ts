// Every path of the v2 API in one place, so the client, the providers and the emulator agree.
// Segments are percent-encoded: ids are uuids, but a domain name is user input.

/** The public service; the provider's default when no base URL is configured. */
export const PUBLIC_BASE_URL = "https://api.ahasend.com";

const seg = encodeURIComponent;
const account = (accountId: string) => `/v2/accounts/${seg(accountId)}`;

export const paths = {
  ping: () => "/v2/ping",

  apiKeys: (a: string) => `${account(a)}/api-keys`,
  apiKey: (a: string, keyId: string) => `${account(a)}/api-keys/${seg(keyId)}`,

  subAccounts: (a: string) => `${account(a)}/sub-accounts`,
  subAccount: (a: string, sub: string) => `${account(a)}/sub-accounts/${seg(sub)}`,
  subAccountSuspend: (a: string, sub: string) => `${account(a)}/sub-accounts/${seg(sub)}/suspend`,
  subAccountUnsuspend: (a: string, sub: string) => `${account(a)}/sub-accounts/${seg(sub)}/unsuspend`,
  subAccountUsage: (a: string) => `${account(a)}/sub-accounts/usage`,
  subAccountApiKeys: (a: string, sub: string) => `${account(a)}/sub-accounts/${seg(sub)}/api-keys`,
  subAccountApiKey: (a: string, sub: string, keyId: string) =>
    `${account(a)}/sub-accounts/${seg(sub)}/api-keys/${seg(keyId)}`,

  domains: (a: string) => `${account(a)}/domains`,
  domain: (a: string, name: string) => `${account(a)}/domains/${seg(name)}`,
  domainCheckDns: (a: string, name: string) => `${account(a)}/domains/${seg(name)}/check-dns`,

  routes: (a: string) => `${account(a)}/routes`,
  route: (a: string, id: string) => `${account(a)}/routes/${seg(id)}`,

  webhooks: (a: string) => `${account(a)}/webhooks`,
  webhook: (a: string, id: string) => `${account(a)}/webhooks/${seg(id)}`,

  smtpCredentials: (a: string) => `${account(a)}/smtp-credentials`,
  smtpCredential: (a: string, id: string) => `${account(a)}/smtp-credentials/${seg(id)}`,

  suppressions: (a: string) => `${account(a)}/suppressions`,
  suppressionsAll: (a: string) => `${account(a)}/suppressions/all`,
  /** Delete is addressed by the query, not a path segment: `?email=…[&domain=…]`. */
  suppressionByAddress: (a: string, email: string, domain?: string | null) =>
    `${account(a)}/suppressions?${new URLSearchParams(domain ? { email, domain } : { email }).toString()}`,

  members: (a: string) => `${account(a)}/members`,
  member: (a: string, userId: string) => `${account(a)}/members/${seg(userId)}`,

  messages: (a: string) => `${account(a)}/messages`,
  conversationMessages: (a: string) => `${account(a)}/messages/conversation`,
} as const;
