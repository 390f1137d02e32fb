package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		bounced, err := txmail.NewSuppression(ctx, "bounced", &txmail.SuppressionArgs{
			Email:     pulumi.String("bounced@example.org"),
			Domain:    pulumi.String("mail.example.com"),
			Reason:    pulumi.String("hard bounce"),
			ExpiresAt: pulumi.String("2030-01-01T00:00:00Z"),
		})
		if err != nil {
			return err
		}
		ctx.Export("createdAt", bounced.CreatedAt)
		return nil
	})
}
