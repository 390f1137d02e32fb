package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		alice, err := txmail.NewAccountMember(ctx, "alice", &txmail.AccountMemberArgs{
			Email: pulumi.String("alice@example.com"),
			Name:  pulumi.String("Alice"),
			Role:  txmail.RoleDeveloper,
		})
		if err != nil {
			return err
		}
		ctx.Export("userId", alice.UserId)
		return nil
	})
}
