resource acme "txmail:index:Tenant" {
  website      = "acme.example.com"
  domain       = { domain = "mail.acme.example.com" }
  bootstrapKey = { ipAllowList = ["203.0.113.0/24"] }
  routes = {
    support = {
      name      = "support"
      url       = "https://acme.example.com/hooks/inbound"
      recipient = "support@mail.acme.example.com"
    }
  }
}

# Then wait until the service sees its DNS records (dependsOn: the records your DNS provider's
# resources publish). The tenant's connection is its bootstrap key and sub account.
resource verification "txmail:index:DomainVerification" {
  domain     = "mail.acme.example.com"
  connection = acme.connection
}

output verified {
  value = verification.verified
}

# No secrets; its dnsRecords are what to feed to your DNS provider.
output summary {
  value = acme.summary
}
