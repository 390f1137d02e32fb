import pulumi
import pulumi_txmail as txmail

bounced = txmail.Suppression(
    "bounced",
    email="bounced@example.org",
    domain="mail.example.com",
    reason="hard bounce",
    expires_at="2030-01-01T00:00:00Z",
)

pulumi.export("createdAt", bounced.created_at)
