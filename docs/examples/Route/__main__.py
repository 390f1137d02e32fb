import pulumi
import pulumi_txmail as txmail

support = txmail.Route(
    "support",
    name="support",
    url="https://example.com/hooks/inbound",
    recipient="support@mail.example.com",
    attachments=True,
)

pulumi.export("signingSecret", support.secret)  # a Pulumi secret
