package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		support, err := txmail.NewRoute(ctx, "support", &txmail.RouteArgs{
			Name:        pulumi.String("support"),
			Url:         pulumi.String("https://example.com/hooks/inbound"),
			Recipient:   pulumi.String("support@mail.example.com"),
			Attachments: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		ctx.Export("signingSecret", support.Secret) // a Pulumi secret
		return nil
	})
}
