// Names in the package: every resource, type and function is `txmail:index:<Name>` (resources:
// the native type token both faces share, provider/api/typeTokens.ts), and the schema refers to
// its own types and resources by JSON pointer.
import { nativeTypeToken } from "../../provider/api/typeTokens";

export const PACKAGE = "txmail";

export const token = (name: string) => `${PACKAGE}:index:${name}`;
export const typeRef = (name: string) => `#/types/${token(name)}`;
export const resourceRef = (kind: string) => `#/resources/${nativeTypeToken(kind)}`;
/** Pulumi's built-in "any value" type. */
export const ANY_REF = "pulumi.json#/Any";

/** `dns_records` → `DnsRecords`, `billing period` → `BillingPeriod`: a part of a type name. */
export const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+|(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

/** The type name of one element of a list property (`dnsRecords` → `DnsRecord`). */
export const singular = (name: string) => (/[^su]s$/.test(name) ? name.slice(0, -1) : name);
