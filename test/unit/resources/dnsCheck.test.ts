// Which records a verification waits for (provider/resources/dnsCheck.ts): `required` — what the
// service requires for sending — or `all`, the optional ones too; and the verdict a verification
// records from the service's answer.
import { dnsRecordsOf, unseen } from "../../../provider/resources/dnsCheck";
import { domainVerification } from "../../../provider/resources/domainVerification";

const record = (seen: Record<string, boolean>) => ({
  domain: "mail.example.com",
  dns_valid: seen.DKIM && seen["Return-Path"],
  last_dns_check_at: "2026-11-28T00:00:00Z",
  dns_records: [
    { type: "CNAME", label: "DKIM", host: "s._domainkey.mail.example.com", content: "a.", required: true },
    { type: "CNAME", label: "Return-Path", host: "rp.mail.example.com", content: "b.", required: true },
    { type: "TXT", label: "DMARC", host: "_dmarc.mail.example.com", content: "v=DMARC1", required: false },
  ].map((r) => ({ ...r, propagated: seen[r.label] ?? false })),
});

describe("the records a verification waits for", () => {
  const sendingOnly = record({ DKIM: true, "Return-Path": true, DMARC: false });

  it("required: the records the service requires for sending; all: the optional ones too", () => {
    expect(unseen(sendingOnly, "required")).toEqual([]);
    expect(unseen(sendingOnly, "all").map((r) => r.label)).toEqual(["DMARC"]);
    expect(unseen(record({ DKIM: true }), "required").map((r) => r.host)).toEqual(["rp.mail.example.com"]);
  });

  it("shows each record as the service reported it, its content as `value`", () => {
    expect(dnsRecordsOf(sendingOnly)[2]).toEqual({
      type: "TXT",
      host: "_dmarc.mail.example.com",
      value: "v=DMARC1",
      required: false,
      propagated: false,
      label: "DMARC",
    });
  });

  it("records the verdict for the program's recordsToVerify", () => {
    const verdict = (r: Record<string, unknown>) => domainVerification.outputsOf(r).verified;
    expect(verdict({ ...sendingOnly, verified: false })).toBe(false); // `all` asked: DMARC not seen
    expect(verdict({ ...sendingOnly, verified: true })).toBe(true);
    expect(verdict(sendingOnly)).toBe(true); // a bare record: its required records seen
    expect(verdict(record({ DKIM: true }))).toBe(false);
  });
});
