// Which records a verification waits for (provider/dns/records.ts): `required` — what the
// service requires for sending — or `all`, the optional ones too; the verdict a verification
// records from the service's answer; and the same records as txmail-fleet dns reports them.
import { dnsRecordsOf, reportedRecords, unseen, unseenOf } from "../../../provider/dns";
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

  it("reports every field of a record, in the report's order, a missing label as null", () => {
    const noLabel = { ...sendingOnly, dns_records: [{ ...sendingOnly.dns_records[0]!, label: undefined }] };
    expect(reportedRecords(noLabel).map((r) => Object.keys(r))).toEqual([
      ["label", "type", "host", "value", "required", "propagated"],
    ]);
    expect(reportedRecords(noLabel)[0]!.label).toBeNull();
  });

  it("finds the same unseen records in a report as in the service's record", () => {
    const partly = record({ DKIM: true });
    for (const wanted of ["required", "all"] as const)
      expect(unseenOf(reportedRecords(partly), wanted).map((r) => r.host)).toEqual(
        unseen(partly, wanted).map((r) => r.host),
      );
  });
});
