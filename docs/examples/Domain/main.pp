resource mail "txmail:index:Domain" {
  domain            = "mail.example.com"
  trackingSubdomain = "links"
}

# Feed these to your DNS provider.
output dnsRecords {
  value = mail.dnsRecords
}
