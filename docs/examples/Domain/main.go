package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		mail, err := txmail.NewDomain(ctx, "mail", &txmail.DomainArgs{
			Domain:            pulumi.String("mail.example.com"),
			TrackingSubdomain: pulumi.String("links"),
		})
		if err != nil {
			return err
		}
		ctx.Export("dnsRecords", mail.DnsRecords) // feed these to your DNS provider
		return nil
	})
}
