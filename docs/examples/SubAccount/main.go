package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		acme, err := txmail.NewSubAccount(ctx, "acme", &txmail.SubAccountArgs{
			Name:          pulumi.String("Acme Corp"),
			Website:       pulumi.String("acme.example.com"),
			MonthlyCredit: pulumi.Int(10000),
		})
		if err != nil {
			return err
		}
		ctx.Export("subAccountId", acme.ID())
		ctx.Export("status", acme.Status)
		return nil
	})
}
