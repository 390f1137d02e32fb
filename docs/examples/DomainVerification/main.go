package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		mail, err := txmail.NewDomain(ctx, "mail", &txmail.DomainArgs{
			Domain: pulumi.String("mail.example.com"),
		})
		if err != nil {
			return err
		}
		// Publish mail.DnsRecords with your DNS provider's resources (one record per entry; the guide
		// "Verifying a domain" has a complete program), and list them here: the verification waits for them.
		var published []pulumi.Resource
		verification, err := txmail.NewDomainVerification(ctx, "mail", &txmail.DomainVerificationArgs{
			Domain:         mail.Domain,
			TimeoutSeconds: pulumi.Int(900),
		}, pulumi.DependsOn(published))
		if err != nil {
			return err
		}
		ctx.Export("verified", verification.Verified) // true once the service sees every required record
		return nil
	})
}
