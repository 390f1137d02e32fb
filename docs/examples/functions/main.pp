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

output usage {
  value = usage.total
}
