package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// One customer's email tenant: a sub account, the key its objects are managed with, a
		// sending domain, a key for the customer's application and an event webhook.
		acme, err := txmail.NewTenant(ctx, "acme", &txmail.TenantArgs{
			Website: pulumi.String("acme.example.com"),
			Domain:  &txmail.TenantDomainArgs{Domain: pulumi.String("mail.acme.example.com")},
			// Who may use the management key: the machine running `pulumi up` (your CI runners' addresses).
			BootstrapKey: &txmail.TenantKeyArgs{IpAllowList: pulumi.StringArray{pulumi.String("203.0.113.0/24")}},
			ApiKeys: txmail.TenantKeyMap{
				"app": &txmail.TenantKeyArgs{IpAllowList: pulumi.StringArray{pulumi.String("198.51.100.7")}},
			},
			Webhooks: txmail.TenantWebhookMap{
				"events": &txmail.TenantWebhookArgs{
					Name:      pulumi.String("events"),
					Url:       pulumi.String("https://acme.example.com/hooks/email"),
					OnBounced: pulumi.Bool(true),
				},
			},
		})
		if err != nil {
			return err
		}
		// Feed these to your DNS provider.
		ctx.Export("dnsRecords", acme.Domain.DnsRecords())
		// A Pulumi secret.
		ctx.Export("appKey", acme.ApiKeys.MapIndex(pulumi.String("app")).SecretKey())
		return nil
	})
}
