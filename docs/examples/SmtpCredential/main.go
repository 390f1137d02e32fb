package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		app, err := txmail.NewSmtpCredential(ctx, "app", &txmail.SmtpCredentialArgs{
			Name:    pulumi.String("app"),
			Scope:   txmail.ScopeScoped,
			Domains: pulumi.StringArray{pulumi.String("mail.example.com")},
		})
		if err != nil {
			return err
		}
		ctx.Export("username", app.Username)
		ctx.Export("password", app.Password) // a Pulumi secret
		return nil
	})
}
