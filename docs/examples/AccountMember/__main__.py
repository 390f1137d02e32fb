import pulumi
import pulumi_txmail as txmail

alice = txmail.AccountMember(
    "alice",
    email="alice@example.com",
    name="Alice",
    role=txmail.Role.DEVELOPER,
)

pulumi.export("userId", alice.user_id)
