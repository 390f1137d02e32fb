package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		acme, err := txmail.NewSubAccount(ctx, "acme", &txmail.SubAccountArgs{
			Name:    pulumi.String("Acme Corp"),
			Website: pulumi.String("acme.example.com"),
		})
		if err != nil {
			return err
		}
		// Created with the parent's credentials; authenticates as the sub account.
		sender, err := txmail.NewSubAccountApiKey(ctx, "acme-sender", &txmail.SubAccountApiKeyArgs{
			SubAccountId: acme.ID(),
			Label:        pulumi.String("acme sender"),
			Scopes:       pulumi.StringArray{pulumi.String("messages:send:mail.acme.example.com")},
			IpAllowList:  pulumi.StringArray{pulumi.String("203.0.113.0/24")},
			Rotation:     pulumi.String("2026-11"), // change to rotate: the new key is created first
		})
		if err != nil {
			return err
		}
		ctx.Export("secretKey", sender.SecretKey) // a Pulumi secret
		return nil
	})
}
