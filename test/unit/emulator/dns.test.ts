// What counts as a published record when the emulator resolves check-dns through a DNS server
// (emulator/dns.ts; the emulator's choice, docs/contract/endpoints/domains.md#emulator).
import { isPropagated, propagationKey } from "../../../emulator/dns";

const cname = { type: "CNAME", content: "rp.txmail.test" };
const txt = { type: "TXT", content: "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx" };

describe("isPropagated", () => {
  test.each([
    [["rp.txmail.test"], true],
    [["RP.TxMail.Test"], true],
    [["rp.txmail.test."], true],
    [["other.example.net", "rp.txmail.test"], true],
    [["rp.txmail.test.evil.example"], false],
    [["txmail.test"], false],
    [[], false],
    [null, false],
  ])("CNAME answered %j: %s", (found, expected) => {
    expect(isPropagated(cname, found)).toBe(expected);
  });

  test.each([
    [[[txt.content]], true],
    [[[txt.content.slice(0, 20), txt.content.slice(20)]], true], // one value in several strings
    [[["v=spf1 -all"], [txt.content]], true], // several TXT records at the name: any one
    [[[` ${txt.content} `]], true],
    [[[txt.content.toLowerCase()]], false], // a key is case-sensitive
    [[[txt.content.slice(0, -1)]], false],
    [[["v=spf1 -all"]], false],
    [[], false],
    [null, false],
  ])("TXT answered %j: %s", (found, expected) => {
    expect(isPropagated(txt, found)).toBe(expected);
  });

  test("TXT bytes as node hands them over (latin1) compare as UTF-8 text", () => {
    const latin1 = Buffer.from("v=é", "utf8").toString("latin1");
    expect(isPropagated({ type: "TXT", content: "v=é" }, [[latin1]])).toBe(true);
  });

  test("a record of another type is never propagated", () => {
    expect(isPropagated({ type: "MX", content: "10 mx.txmail.test" }, ["10 mx.txmail.test"])).toBe(false);
  });
});

test("propagationKey: type and host, without case or trailing dot", () => {
  expect(propagationKey({ type: "CNAME", host: "RP.Mail.Example.com." })).toBe("CNAME rp.mail.example.com");
});
