import pulumi
import pulumi_txmail as txmail

ci = txmail.ApiKey(
    "ci-sender",
    label="ci sender",
    scopes=["messages:send:mail.example.com"],
    ip_allow_list=["203.0.113.0/24"],
)

pulumi.export("secretKey", ci.secret_key)  # a Pulumi secret
