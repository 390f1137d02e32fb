resource ciSender "txmail:index:ApiKey" {
  label       = "ci sender"
  scopes      = ["messages:send:mail.example.com"]
  ipAllowList = ["203.0.113.0/24"]
}

# A Pulumi secret.
output secretKey {
  value = ciSender.secretKey
}
