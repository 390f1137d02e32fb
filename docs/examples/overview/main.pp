# One customer's email tenant: a sub account, the key its objects are managed with, a sending
# domain, a key for the customer's application and an event webhook. The bootstrap key's
# ipAllowList says who may use the management key: the machine running `pulumi up` (your CI
# runners' addresses).
resource acme "txmail:index:Tenant" {
  website      = "acme.example.com"
  domain       = { domain = "mail.acme.example.com" }
  bootstrapKey = { ipAllowList = ["203.0.113.0/24"] }
  apiKeys = {
    app = { ipAllowList = ["198.51.100.7"] }
  }
  webhooks = {
    events = {
      name      = "events"
      url       = "https://acme.example.com/hooks/email"
      onBounced = true
    }
  }
}

# No secrets; its dnsRecords are what to feed to your DNS provider.
output summary {
  value = acme.summary
}
