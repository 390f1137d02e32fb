resource events "txmail:index:Webhook" {
  name      = "events"
  url       = "https://example.com/hooks/events"
  onBounced = true
  onFailed  = true
  scope     = "scoped"
  domains   = ["mail.example.com"]
}

# A Pulumi secret.
output signingSecret {
  value = events.secret
}
