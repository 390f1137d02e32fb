package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		events, err := txmail.NewWebhook(ctx, "events", &txmail.WebhookArgs{
			Name:      pulumi.String("events"),
			Url:       pulumi.String("https://example.com/hooks/events"),
			OnBounced: pulumi.Bool(true),
			OnFailed:  pulumi.Bool(true),
			Scope:     txmail.ScopeScoped,
			Domains:   pulumi.StringArray{pulumi.String("mail.example.com")},
		})
		if err != nil {
			return err
		}
		ctx.Export("signingSecret", events.Secret) // a Pulumi secret
		return nil
	})
}
