import pulumi
import pulumi_txmail as txmail

events = txmail.Webhook(
    "events",
    name="events",
    url="https://example.com/hooks/events",
    on_bounced=True,
    on_failed=True,
    scope=txmail.Scope.SCOPED,
    domains=["mail.example.com"],
)

pulumi.export("signingSecret", events.secret)  # a Pulumi secret
