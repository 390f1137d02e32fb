resource mail "txmail:index:Domain" {
  domain = "mail.example.com"
}

# Publish mail.dnsRecords with your DNS provider's resources (one record per entry; the guide
# "Verifying a domain" has a complete program), and list them in dependsOn below, beside mail.
resource verification "txmail:index:DomainVerification" {
  domain         = mail.domain
  timeoutSeconds = 900
  options {
    dependsOn = [mail]
  }
}

# True once the service sees every required record.
output verified {
  value = verification.verified
}
