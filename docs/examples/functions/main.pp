mail = invoke("txmail:index:lookupDomain", {
  domain = "mail.example.com"
})

support = invoke("txmail:index:lookupRoute", {
  name = "support"
})

usage = invoke("txmail:index:getSubAccountUsage", {})

output dnsValid {
  value = mail.dnsValid
}

output supportRouteId {
  value = support.id
}

# The currency of the usage's costs (usage.parent, usage.subAccounts and usage.total give them).
output currency {
  value = usage.currency
}
