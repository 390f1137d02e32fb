// The tests' DNS server (support/dnsServer.ts): PowerDNS on loopback, changed through its HTTP API,
// read back with real DNS queries over UDP (node's resolver) and TCP (a raw query with its length
// prefix: node's resolver cannot be made to use TCP, and dig may be missing).
import * as dns from "node:dns";
import * as fs from "node:fs";
import * as net from "node:net";
import { type DnsServer, startDnsServer, txtContent } from "../../../support/dnsServer";

let server: DnsServer;
beforeAll(async () => {
  server = await startDnsServer();
  await server.createZone("example.com");
}, 60_000);
afterAll(() => server?.close());

/** A fresh resolver per query: node's resolver then holds no answer of its own between two queries. */
function resolver(): dns.promises.Resolver {
  const r = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  r.setServers([server.address]);
  return r;
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "answered",
    (e: { code?: string }) => e.code,
  );

describe("startDnsServer", () => {
  test("serves on 127.0.0.1 and its API answers with the key only", async () => {
    expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(server.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/servers\/localhost$/);
    const withKey = await fetch(server.apiUrl, { headers: { "X-API-Key": server.apiKey } });
    expect([withKey.status, ((await withKey.json()) as { version: string }).version]).toEqual([200, "4.7.3"]);
    expect((await fetch(server.apiUrl)).status).toBe(401);
  });

  test("createZone is idempotent and serves SOA and NS", async () => {
    await server.createZone("example.com");
    expect(await resolver().resolveNs("example.com")).toEqual(["ns1.example.com"]);
    expect((await resolver().resolveSoa("example.com")).minttl).toBe(1);
  });

  test("a changed record is what the next query sees (no cache in the server)", async () => {
    // Changed five times in a row, each queried at once: a cache of any length would serve an older value.
    for (const n of [1, 2, 3, 4, 5]) {
      await server.setRecord("Fresh.example.com", "CNAME", [`target-${n}.example.net`]);
      expect(await resolver().resolveCname("fresh.example.com")).toEqual([`target-${n}.example.net`]);
      await server.setRecord("fresh-txt.example.com", "TXT", [`v=${n}`]);
      expect(await resolver().resolveTxt("fresh-txt.example.com")).toEqual([[`v=${n}`]]);
    }
    // A zone created after a query for a name in it: the server's packet cache would keep
    // answering REFUSED (PowerDNS purges its caches on a record change through the API, but not on
    // a new zone), so this is what the cache settings are for.
    expect(await codeOf(resolver().resolveTxt("a.late.example.org"))).toBe(dns.REFUSED);
    await server.createZone("late.example.org");
    expect(await codeOf(resolver().resolveTxt("a.late.example.org"))).toBe(dns.NOTFOUND);
    await server.setRecord("a.late.example.org", "TXT", ["now"]);
    expect(await resolver().resolveTxt("a.late.example.org")).toEqual([["now"]]);
    await server.deleteRecord("fresh-txt.example.com", "TXT");
    expect(await codeOf(resolver().resolveTxt("fresh-txt.example.com"))).toBe(dns.NOTFOUND);
    // Deleted and put back: the negative answer was not cached either.
    await server.setRecord("fresh-txt.example.com", "TXT", ["back"]);
    expect(await resolver().resolveTxt("fresh-txt.example.com")).toEqual([["back"]]);
  });

  test("a long TXT value is split into strings of at most 255 bytes; quotes and backslashes survive", async () => {
    const long = `v=DKIM1; k=rsa; p=${"A".repeat(600)}`;
    const odd = 'say "hi" \\ bye; é';
    await server.setRecord("long.example.com", "TXT", [long, odd]);
    const got = await resolver().resolveTxt("long.example.com");
    const byFirst = new Map(got.map((strings) => [strings[0]!.slice(0, 3), strings]));
    const longStrings = byFirst.get("v=D")!;
    expect(longStrings.map((s) => s.length)).toEqual([255, 255, long.length - 510]);
    expect(longStrings.join("")).toBe(long);
    // Node's resolver hands TXT bytes over as latin1: the server kept the UTF-8 bytes.
    expect(Buffer.from(byFirst.get("say")!.join(""), "latin1").toString("utf8")).toBe(odd);
  });

  test("txtContent: quoted strings of 255 bytes, escapes", () => {
    expect(txtContent("")).toBe('""');
    expect(txtContent('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(txtContent("x".repeat(256))).toBe(`"${"x".repeat(255)}" "x"`);
    expect(txtContent("é")).toBe('"\\195\\169"');
  });

  test("the record goes to the longest zone that contains its name", async () => {
    await server.createZone("sub.example.com");
    await server.setRecord("x.sub.example.com", "TXT", ["in sub"]);
    const res = await fetch(`${server.apiUrl}/zones/sub.example.com.`, { headers: { "X-API-Key": server.apiKey } });
    const zone = (await res.json()) as { rrsets: Array<{ name: string; type: string }> };
    expect(zone.rrsets.map((r) => `${r.name} ${r.type}`)).toContain("x.sub.example.com. TXT");
    expect(await resolver().resolveTxt("x.sub.example.com")).toEqual([["in sub"]]);
    await expect(server.setRecord("x.elsewhere.org", "TXT", ["no"])).rejects.toThrow(/no zone contains/);
  });

  test("answers over TCP too", async () => {
    await server.setRecord("tcp.example.com", "TXT", ["over tcp", "x".repeat(300)]);
    const answers = await queryTxtOverTcp(server.address, "tcp.example.com");
    expect(answers.map((strings) => strings.join("")).sort()).toEqual(["over tcp", "x".repeat(300)]);
  });

  test("close() stops the server and removes its directory", async () => {
    const other = await startDnsServer();
    expect(fs.existsSync(other.dir)).toBe(true);
    await other.close();
    await other.close(); // twice is fine
    // The port no longer answers: the query times out or is refused.
    const r = new dns.promises.Resolver({ timeout: 300, tries: 1 });
    r.setServers([other.address]);
    expect(await codeOf(r.resolveSoa("example.com"))).toMatch(/^(ETIMEOUT|ECONNREFUSED)$/);
    expect(fs.existsSync(other.dir)).toBe(false);
  }, 60_000);
});

/** One TXT query over TCP (RFC 1035 4.2.2: a two-byte length before each message); the TXT answers' strings. */
async function queryTxtOverTcp(address: string, name: string): Promise<string[][]> {
  const [host, port] = address.split(":") as [string, string];
  const id = 0x4242;
  const question = Buffer.concat([
    ...name.split(".").map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "ascii")])),
    Buffer.from([0, 0, 16, 0, 1]), // root, QTYPE TXT, QCLASS IN
  ]);
  const header = Buffer.from([id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]); // RD, one question
  const message = Buffer.concat([header, question]);
  const framed = Buffer.concat([Buffer.from([message.length >> 8, message.length & 0xff]), message]);
  const response = await new Promise<Buffer>((resolve, reject) => {
    const socket = net.connect(Number(port), host);
    socket.setTimeout(5000, () => socket.destroy(new Error("no TCP answer in 5 s")));
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        socket.end();
        resolve(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      }
    });
    socket.on("error", reject);
    socket.write(framed);
  });
  expect(response.readUInt16BE(0)).toBe(id);
  expect(response.readUInt16BE(2) & 0x000f).toBe(0); // RCODE NOERROR
  const answerCount = response.readUInt16BE(6);
  let at = 12 + question.length; // the question, echoed
  const skipName = () => {
    for (;;) {
      const len = response[at]!;
      if ((len & 0xc0) === 0xc0) return void (at += 2); // a compression pointer ends the name
      at += 1 + len;
      if (len === 0) return;
    }
  };
  const answers: string[][] = [];
  for (let i = 0; i < answerCount; i++) {
    skipName();
    const type = response.readUInt16BE(at);
    const rdLength = response.readUInt16BE(at + 8);
    const rdata = response.subarray(at + 10, at + 10 + rdLength);
    at += 10 + rdLength;
    if (type !== 16) continue;
    const strings: string[] = [];
    for (let p = 0; p < rdata.length; p += 1 + rdata[p]!)
      strings.push(rdata.subarray(p + 1, p + 1 + rdata[p]!).toString());
    answers.push(strings);
  }
  return answers;
}
