import pulumi
import pulumi_txmail as txmail

acme = txmail.SubAccount(
    "acme",
    name="Acme Corp",
    website="acme.example.com",
    monthly_credit=10000,
)

pulumi.export("subAccountId", acme.id)
pulumi.export("status", acme.status)
