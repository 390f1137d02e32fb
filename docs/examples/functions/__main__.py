import pulumi
import pulumi_txmail as txmail

mail = txmail.lookup_domain(domain="mail.example.com")
support = txmail.lookup_route(name="support")

pulumi.export("dnsValid", mail.dns_valid)
pulumi.export("supportRouteId", support.id)
pulumi.export("usage", txmail.get_sub_account_usage().total)
