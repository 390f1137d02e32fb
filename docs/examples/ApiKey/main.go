package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		ci, err := txmail.NewApiKey(ctx, "ci-sender", &txmail.ApiKeyArgs{
			Label:       pulumi.String("ci sender"),
			Scopes:      pulumi.StringArray{pulumi.String("messages:send:mail.example.com")},
			IpAllowList: pulumi.StringArray{pulumi.String("203.0.113.0/24")},
		})
		if err != nil {
			return err
		}
		ctx.Export("secretKey", ci.SecretKey) // a Pulumi secret
		return nil
	})
}
