resource alice "txmail:index:AccountMember" {
  email = "alice@example.com"
  name  = "Alice"
  role  = "Developer"
}

output userId {
  value = alice.userId
}
