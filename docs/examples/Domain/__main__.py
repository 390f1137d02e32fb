import pulumi
import pulumi_txmail as txmail

mail = txmail.Domain(
    "mail",
    domain="mail.example.com",
    tracking_subdomain="links",
)

pulumi.export("dnsRecords", mail.dns_records)  # feed these to your DNS provider
