// Pulumi dynamic-provider resources for a transactional email service (AhaSend v2 style): sub accounts, API keys, domains, routes, webhooks, SMTP credentials, with a local emulator and a policy pack.
package txmail
