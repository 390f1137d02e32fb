import pulumi
import pulumi_txmail as txmail

mail = txmail.Domain("mail", domain="mail.example.com")

# Publish mail.dns_records with your DNS provider's resources (one record per entry; the guide
# "Verifying a domain" has a complete program), and list them here: the verification waits for them.
published: list[pulumi.Resource] = []

verification = txmail.DomainVerification(
    "mail",
    domain=mail.domain,
    timeout_seconds=900,
    opts=pulumi.ResourceOptions(depends_on=published),
)

pulumi.export("verified", verification.verified)  # true once the service sees every required record
