package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		acme, err := txmail.NewTenant(ctx, "acme", &txmail.TenantArgs{
			Website:      pulumi.String("acme.example.com"),
			Domain:       &txmail.TenantDomainArgs{Domain: pulumi.String("mail.acme.example.com")},
			BootstrapKey: &txmail.TenantKeyArgs{IpAllowList: pulumi.StringArray{pulumi.String("203.0.113.0/24")}},
			Routes: txmail.TenantRouteMap{
				"support": &txmail.TenantRouteArgs{
					Name:      pulumi.String("support"),
					Url:       pulumi.String("https://acme.example.com/hooks/inbound"),
					Recipient: pulumi.String("support@mail.acme.example.com"),
				},
			},
		})
		if err != nil {
			return err
		}
		// Then wait until the service sees its DNS records (pulumi.DependsOn: the records your DNS provider's resources publish):
		verification, err := txmail.NewDomainVerification(ctx, "acme", &txmail.DomainVerificationArgs{
			Domain:     acme.Domain.Domain(),
			Connection: acme.Connection,
		})
		if err != nil {
			return err
		}
		ctx.Export("summary", acme.Summary)
		ctx.Export("verified", verification.Verified)
		return nil
	})
}
