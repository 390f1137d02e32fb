resource acme "txmail:index:SubAccount" {
  name          = "Acme Corp"
  website       = "acme.example.com"
  monthlyCredit = 10000
}

output subAccountId {
  value = acme.id
}

output status {
  value = acme.status
}
