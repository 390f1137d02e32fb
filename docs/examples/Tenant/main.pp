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
# resources publish).
resource verification "txmail:index:DomainVerification" {
  domain     = acme.domain.domain
  connection = acme.connection
}

# Feed these to your DNS provider.
output dnsRecords {
  value = acme.domain.dnsRecords
}

output verified {
  value = verification.verified
}

output summary {
  value = acme.summary
}
