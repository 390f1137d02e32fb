import pulumi
import pulumi_txmail as txmail

acme = txmail.Tenant(
    "acme",
    website="acme.example.com",
    domain=txmail.TenantDomainArgs(domain="mail.acme.example.com"),
    bootstrap_key=txmail.TenantKeyArgs(ip_allow_list=["203.0.113.0/24"]),
    routes={
        "support": txmail.TenantRouteArgs(
            name="support",
            url="https://acme.example.com/hooks/inbound",
            recipient="support@mail.acme.example.com",
        ),
    },
)

pulumi.export("summary", acme.summary)
