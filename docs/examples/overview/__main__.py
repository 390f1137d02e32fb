import pulumi
import pulumi_txmail as txmail

# One customer's email tenant: a sub account, the key its objects are managed with, a sending
# domain, a key for the customer's application and an event webhook.
acme = txmail.Tenant(
    "acme",
    website="acme.example.com",
    domain=txmail.TenantDomainArgs(domain="mail.acme.example.com"),
    # Who may use the management key: the machine running `pulumi up` (your CI runners' addresses).
    bootstrap_key=txmail.TenantKeyArgs(ip_allow_list=["203.0.113.0/24"]),
    api_keys={"app": txmail.TenantKeyArgs(ip_allow_list=["198.51.100.7"])},
    webhooks={
        "events": txmail.TenantWebhookArgs(
            name="events",
            url="https://acme.example.com/hooks/email",
            on_bounced=True,
        ),
    },
)

pulumi.export("dnsRecords", acme.domain.dns_records)  # feed these to your DNS provider
pulumi.export("appKey", acme.api_keys.apply(lambda keys: keys["app"].secret_key))  # a Pulumi secret
