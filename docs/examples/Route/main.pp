resource support "txmail:index:Route" {
  name        = "support"
  url         = "https://example.com/hooks/inbound"
  recipient   = "support@mail.example.com"
  attachments = true
}

# A Pulumi secret.
output signingSecret {
  value = support.secret
}
