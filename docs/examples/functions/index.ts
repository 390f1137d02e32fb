import * as txmail from "pulumi-txmail";

const mail = txmail.lookupDomain({ domain: "mail.example.com" });
const support = txmail.lookupRoute({ name: "support" });

export const dnsValid = mail.dnsValid;
export const supportRouteId = support.id;
export const usage = txmail.getSubAccountUsage();
