import pulumi
import pulumi_txmail as txmail

app = txmail.SmtpCredential(
    "app",
    name="app",
    scope=txmail.Scope.SCOPED,
    domains=["mail.example.com"],
)

pulumi.export("username", app.username)
pulumi.export("password", app.password)  # a Pulumi secret
