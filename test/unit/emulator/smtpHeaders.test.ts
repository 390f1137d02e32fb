// The header fields SMTP submission reads (emulator/smtp/headers.ts): the From mailbox the
// sender's rules check, and the Subject stored with the message, as senders' clients write them.
import { decodeWords, headerSection, readHeads } from "../../../emulator/smtp/headers";

describe("SMTP submission's From and Subject", () => {
  it.each([
    ["billing@mail.example.com", { email: "billing@mail.example.com", name: "" }],
    ["<billing@mail.example.com>", { email: "billing@mail.example.com", name: "" }],
    ["Billing <billing@mail.example.com>", { email: "billing@mail.example.com", name: "Billing" }],
    ['"Billing, Inc." <billing@mail.example.com>', { email: "billing@mail.example.com", name: "Billing, Inc." }],
    ["=?UTF-8?Q?=C3=9Cnic=C3=B6de?= <u@mail.example.com>", { email: "u@mail.example.com", name: "Ünicöde" }],
  ])("reads From: %s", (value, from) => {
    expect(readHeads(`From: ${value}\r\nSubject: s`).from).toEqual(from);
  });

  it.each([
    "a@x.example, b@y.example",
    "A <a@x.example>, B <b@y.example>",
    "undisclosed-recipients:;",
    "not an address",
    "",
  ])("finds no single mailbox in From: %j", (value) => {
    expect(readHeads(`From: ${value}\r\n`).from).toBeUndefined();
  });

  it("takes the first From, field names in any case, folded values unfolded", () => {
    const heads = readHeads("subject: Your\r\n  invoice\r\nFROM: a@x.example\r\nFrom: b@y.example");
    expect(heads).toEqual({ from: { email: "a@x.example", name: "" }, subject: "Your  invoice" });
    expect(readHeads("To: t@x.example").from).toBeUndefined();
  });

  it("decodes encoded words (B and Q), joins adjacent ones, leaves unknown charsets as written", () => {
    expect(decodeWords("=?utf-8?B?SW52b2ljZSDinJM=?= =?utf-8?Q?_no=2E_7?=")).toBe("Invoice ✓ no. 7");
    expect(decodeWords("plain =?iso-8859-1?Q?caf=E9?= text")).toBe("plain café text");
    expect(decodeWords("=?x-unknown-charset?B?YQ==?=")).toBe("=?x-unknown-charset?B?YQ==?=");
  });

  it("reads the header section only: up to the first empty line", () => {
    expect(headerSection("From: a@x.example\r\n\r\nFrom: b@y.example\r\n")).toBe("From: a@x.example");
    expect(headerSection("From: a@x.example\n\nbody")).toBe("From: a@x.example");
    expect(headerSection("From: a@x.example\r\n")).toBeUndefined();
  });
});
