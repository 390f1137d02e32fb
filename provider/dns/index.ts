// DNS records in one module, used by the provider (Domain, DomainVerification) and txmail-fleet
// (`dns`, its zone fragment): the records' shape and which are unseen (records.ts), asking the
// service to check a domain (check.ts), and a TXT record's text in zone-file syntax (txt.ts).
export * from "./records";
export * from "./check";
export * from "./txt";
