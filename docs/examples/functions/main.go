package main

import (
	"github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		mail, err := txmail.LookupDomain(ctx, &txmail.LookupDomainArgs{Domain: "mail.example.com"})
		if err != nil {
			return err
		}
		support, err := txmail.LookupRoute(ctx, &txmail.LookupRouteArgs{Name: pulumi.StringRef("support")})
		if err != nil {
			return err
		}
		usage, err := txmail.GetSubAccountUsage(ctx, &txmail.GetSubAccountUsageArgs{})
		if err != nil {
			return err
		}
		ctx.Export("dnsValid", pulumi.Any(mail.DnsValid))
		ctx.Export("supportRouteId", pulumi.Any(support.Id))
		ctx.Export("usage", pulumi.Any(usage.Total))
		return nil
	})
}
