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

# Then wait until the service sees its DNS records (depends_on: the records your DNS provider's resources publish):
verification = txmail.DomainVerification("acme", domain=acme.domain.domain, connection=acme.connection)

pulumi.export("summary", acme.summary)
pulumi.export("verified", verification.verified)
