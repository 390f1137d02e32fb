resource bounced "txmail:index:Suppression" {
  email     = "bounced@example.org"
  domain    = "mail.example.com"
  reason    = "hard bounce"
  expiresAt = "2030-01-01T00:00:00Z"
}

output createdAt {
  value = bounced.createdAt
}
