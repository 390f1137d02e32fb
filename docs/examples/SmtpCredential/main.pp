resource app "txmail:index:SmtpCredential" {
  name    = "app"
  scope   = "scoped"
  domains = ["mail.example.com"]
}

output username {
  value = app.username
}

# A Pulumi secret.
output password {
  value = app.password
}
