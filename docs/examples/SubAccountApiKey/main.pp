resource acme "txmail:index:SubAccount" {
  name    = "Acme Corp"
  website = "acme.example.com"
}

# Created with the parent's credentials; authenticates as the sub account. Change rotation to
# rotate: the new key is created before the old one is deleted.
resource acmeSender "txmail:index:SubAccountApiKey" {
  subAccountId = acme.id
  label        = "acme sender"
  scopes       = ["messages:send:mail.acme.example.com"]
  ipAllowList  = ["203.0.113.0/24"]
  rotation     = "2026-11"
}

# A Pulumi secret.
output secretKey {
  value = acmeSender.secretKey
}
