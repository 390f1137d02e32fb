import pulumi
import pulumi_txmail as txmail

acme = txmail.SubAccount("acme", name="Acme Corp", website="acme.example.com")

# Created with the parent's credentials; authenticates as the sub account.
sender = txmail.SubAccountApiKey(
    "acme-sender",
    sub_account_id=acme.id,
    label="acme sender",
    scopes=["messages:send:mail.acme.example.com"],
    ip_allow_list=["203.0.113.0/24"],
    rotation="2026-11",  # change to rotate: the new key is created before the old one is deleted
)

pulumi.export("secretKey", sender.secret_key)  # a Pulumi secret
