// docs/contract/shapes.md lists each record's fields, field by field, beside its public shape: its
// tables must list exactly the fields of the contract's records (provider/api), so a field added,
// renamed or removed there fails here until the page says how both modes answer it; and every field
// the public shapes declare different is marked **differs** on the page.
import * as fs from "node:fs";
import * as path from "node:path";
import type { z } from "zod";
import {
  AccountMember,
  ApiKeyWithSecret,
  DnsRecord,
  Domain,
  MessageItem,
  PUBLIC_DIFFERENCES,
  Pagination,
  PublicScope,
  RouteWithSecret,
  SmtpCredentialWithPassword,
  SubAccount,
  SubAccountUsage,
  Suppression,
  WebhookWithSecret,
} from "../../../provider/api";
import { REPO_ROOT } from "../../../support/root";

const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "contract", "shapes.md"), "utf8");

/** The page's record sections (### headings) and the schema each documents. */
const SECTIONS: Record<string, z.ZodObject> = {
  APIKey: ApiKeyWithSecret,
  "Scope object": PublicScope,
  SubAccount,
  SubAccountUsage,
  Domain,
  DNSRecord: DnsRecord,
  Route: RouteWithSecret,
  Webhook: WebhookWithSecret,
  SMTPCredential: SmtpCredentialWithPassword,
  UserAccount: AccountMember,
  Suppression,
  Pagination,
  "Message item": MessageItem,
};

/** Each row of a section's table: the field names of its first column, and the whole row. */
function rows(section: string): Array<{ fields: string[]; text: string }> {
  const start = page.indexOf(`\n### ${section}\n`);
  if (start < 0) throw new Error(`docs/contract/shapes.md has no section "### ${section}"`);
  const end = page.slice(start + 1).search(/\n##/);
  const body = end < 0 ? page.slice(start) : page.slice(start, start + 1 + end);
  return body
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .map((l) => ({ fields: [...l.split("|")[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!), text: l }));
}

describe("docs/contract/shapes.md", () => {
  test.each(Object.keys(SECTIONS))("the %s table lists exactly the record's fields", (section) => {
    const listed = rows(section).flatMap((r) => r.fields);
    expect([...listed].sort()).toEqual(Object.keys(SECTIONS[section]!.shape).sort());
  });

  test("every field the public shapes declare different is marked **differs**", () => {
    for (const [, { name, fields }] of PUBLIC_DIFFERENCES) {
      const section = name.replace(/WithSecret$/, "").replace(/^ApiKey$/, "APIKey");
      const marked = rows(section)
        .filter((r) => r.text.includes("**differs**"))
        .flatMap((r) => r.fields);
      expect({ section, missing: Object.keys(fields).filter((f) => !marked.includes(f)) }).toEqual({
        section,
        missing: [],
      });
    }
  });
});
