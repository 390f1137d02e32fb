// `--shapes public` answers the service's public description exactly (docs/contract/shapes.md): a
// whole lifecycle of every kind — create, read, list, update, delete where the kind has them; sub
// accounts (suspend, unsuspend, usage too), API keys, sub-account keys, domains (and their DNS check),
// routes, webhooks, SMTP credentials, members, suppressions, and a message sent — over real HTTP on
// loopback, every answer held against the strict public schema (provider/api/publicShapes.ts) by a
// validating wrapper (./publicValidator.ts), not a sample. The default shapes (the contract) are
// shapes.test.ts's.
import { type Emu, start, uniq } from "./helpers";
import { byField, validating, type ValidatingEmu } from "./publicValidator";
import { ENDPOINTS, endpointKey } from "../../../provider/api";

let emu: Emu;
let api: ValidatingEmu;
beforeAll(async () => {
  emu = await start({ shapes: "public" });
  api = validating(emu);
});
afterAll(() => emu.close());

const EXPIRES_AT = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");

/** The call's answer, which must have `status` (a lifecycle that fails early validates nothing). */
async function call(method: string, path: string, status: number, opts: Parameters<ValidatingEmu["req"]>[2] = {}) {
  const r = await api.req(method, path, opts);
  if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} (expected ${status}) ${r.text}`);
  return r.body;
}

/** Every kind's lifecycle through the validating wrapper, in the parent account and in a sub account. */
async function walkEveryKind(): Promise<void> {
  const a = (rest: string, account?: string) => emu.acct(rest, account);
  await call("GET", "/v2/ping", 200);

  // Sub accounts: create, get, list, update, suspend, unsuspend, usage (delete at the end).
  const sub = await call("POST", a("/sub-accounts"), 201, {
    body: { name: uniq("tenant"), website: "tenant.example.com" },
    idem: uniq("idem"),
  });
  const subPath = a(`/sub-accounts/${sub.id}`);
  await call("GET", subPath, 200);
  await call("GET", a("/sub-accounts"), 200);
  await call("PUT", subPath, 200, { body: { monthly_credit: 500 } });
  await call("POST", `${subPath}/suspend`, 200, { body: { reason: "audit" } });
  await call("POST", `${subPath}/unsuspend`, 200);
  await call("GET", a("/sub-accounts/usage"), 200);

  // Sub-account keys: create, get, list, update; the key works inside the sub account; delete.
  const boot = await call("POST", a(`/sub-accounts/${sub.id}/api-keys`), 201, {
    body: { label: uniq("bootstrap"), scopes: ["domains:read", "domains:write", "accounts:members:read"] },
    idem: uniq("idem"),
  });
  const bootPath = a(`/sub-accounts/${sub.id}/api-keys/${boot.id}`);
  await call("GET", bootPath, 200);
  await call("GET", a(`/sub-accounts/${sub.id}/api-keys`), 200);
  await call("PUT", bootPath, 200, { body: { label: uniq("bootstrap-2") } });
  await call("POST", a("/domains", sub.id), 201, {
    body: { domain: `${uniq("in")}.tenant.example.com` },
    key: boot.secret_key,
  });
  await call("GET", a("/domains", sub.id), 200, { key: boot.secret_key });
  await call("GET", a("/members", sub.id), 200, { key: boot.secret_key });
  await call("GET", bootPath, 200); // now used: last_used_at set
  await call("DELETE", bootPath, 200);

  // Domains: create (every optional setting unset), get, list, update, DNS check (before and after
  // the records are published), delete at the end.
  const name = `${uniq("mail")}.example.com`;
  const domain = await call("POST", a("/domains"), 201, { body: { domain: name }, idem: uniq("idem") });
  const domainPath = a(`/domains/${name}`);
  await call("GET", domainPath, 200);
  await call("GET", a("/domains"), 200);
  await call("POST", `${domainPath}/check-dns`, 200);
  await call("PUT", domainPath, 200, { body: { tracking_subdomain: "track", dkim_selector: "s2026" } });
  await emu.control.setDomainVerified(name, true, { apply: false });
  await emu.control.advanceClock(61_000); // past check-dns's 60-second cache
  await call("POST", `${domainPath}/check-dns`, 200);

  // API keys: one over every domain, one scoped to the domain (a scope object with its domain_id).
  const key = await call("POST", a("/api-keys"), 201, {
    body: { label: uniq("ci"), scopes: ["routes:read:all", `routes:read:${name}`, "messages:send:all"] },
    idem: uniq("idem"),
  });
  // The strict schema takes any id or null for domain_id; the right one is the domain's.
  expect(key.scopes).toEqual([
    expect.objectContaining({ api_key_id: key.id, scope: "routes:read:all", domain_id: null }),
    expect.objectContaining({ api_key_id: key.id, scope: `routes:read:${name}`, domain_id: domain.id }),
    expect.objectContaining({ api_key_id: key.id, scope: "messages:send:all", domain_id: null }),
  ]);
  const keyPath = a(`/api-keys/${key.id}`);
  await call("GET", keyPath, 200);
  await call("GET", a("/api-keys"), 200);
  await call("PUT", keyPath, 200, { body: { label: uniq("ci-2"), ip_allow_list: ["127.0.0.1"] } });
  await call("GET", a("/routes"), 200, { key: key.secret_key });
  await call("GET", keyPath, 200); // now used

  // Routes: create, get, list, update, delete.
  const route = await call("POST", a("/routes"), 201, {
    body: { name: uniq("inbound"), url: "https://example.com/in", recipient: `*@${name}` },
    idem: uniq("idem"),
  });
  const routePath = a(`/routes/${route.id}`);
  await call("GET", routePath, 200);
  await call("GET", a("/routes"), 200);
  await call("PUT", routePath, 200, { body: { enabled: false, recipient: "" } });

  // Webhooks: scoped to the domain, then global.
  const webhook = await call("POST", a("/webhooks"), 201, {
    body: { name: uniq("events"), url: "https://example.com/events", scope: "scoped", domains: [name] },
    idem: uniq("idem"),
  });
  const webhookPath = a(`/webhooks/${webhook.id}`);
  await call("GET", webhookPath, 200);
  await call("GET", a("/webhooks"), 200);
  await call("PUT", webhookPath, 200, { body: { scope: "global", on_delivered: true } });

  // SMTP credentials (no update): a scoped and a global one.
  const smtp = await call("POST", a("/smtp-credentials"), 201, {
    body: { name: uniq("relay"), scope: "scoped", domains: [name] },
    idem: uniq("idem"),
  });
  const smtpGlobal = await call("POST", a("/smtp-credentials"), 201, {
    body: { name: uniq("relay"), scope: "global" },
  });
  await call("GET", a(`/smtp-credentials/${smtp.id}`), 200);
  await call("GET", a("/smtp-credentials"), 200);

  // Members (no get, no update): add, list, remove.
  const member = await call("POST", a("/members"), 201, {
    body: { email: `${uniq("dev")}@example.com`, role: "Developer" },
    idem: uniq("idem"),
  });
  await call("GET", a("/members"), 200);

  // Suppressions (no get, no update): one for every domain without a reason, one for the domain.
  const gone = `${uniq("gone")}@example.com`;
  await call("POST", a("/suppressions"), 201, { body: { email: gone, expires_at: EXPIRES_AT }, idem: uniq("idem") });
  await call("POST", a("/suppressions"), 201, {
    body: { email: `${uniq("bounced")}@example.com`, domain: name, reason: "bounce", expires_at: EXPIRES_AT },
  });
  await call("GET", a("/suppressions"), 200);
  await call("GET", `${a("/suppressions")}?limit=1`, 200); // a page with a next cursor

  // A message from the verified domain, with the key that may send.
  await call("POST", a("/messages"), 202, {
    body: {
      from: { email: `news@${name}`, name: "News" },
      recipients: [{ email: "reader@example.org" }],
      subject: "Hello",
      text_content: "Hello",
    },
    key: key.secret_key,
    idem: uniq("idem"),
  });
  await call("POST", a("/messages/conversation"), 202, {
    body: { from: { email: `news@${name}` }, to: [{ email: "reader@example.org" }], subject: "Hi", text_content: "Hi" },
  });

  // An error answer is the public error body too.
  await call("GET", a("/routes/7c9e6679-7425-40de-944b-e07fc1f90ae7"), 404);

  // Deletes, every kind.
  await call("DELETE", `${a("/suppressions")}?email=${encodeURIComponent(gone)}`, 200);
  await call("DELETE", a("/suppressions/all"), 200);
  await call("DELETE", a(`/members/${member.user_id}`), 200);
  await call("DELETE", a(`/smtp-credentials/${smtp.id}`), 200);
  await call("DELETE", a(`/smtp-credentials/${smtpGlobal.id}`), 200);
  await call("DELETE", webhookPath, 200);
  await call("DELETE", routePath, 200);
  await call("DELETE", keyPath, 200);
  await call("DELETE", domainPath, 200);
  await call("DELETE", subPath, 200);
}

describe("--shapes public: the service's public description, exactly", () => {
  it("every answer of every kind's whole lifecycle matches the strict public schema", async () => {
    await walkEveryKind();
    const report = byField(api.violations)
      .map(([field, n]) => `${n} ${field}`)
      .join("\n");
    process.stderr.write(
      `public shapes: ${[...api.requests.values()].reduce((s, n) => s + n, 0)} requests, ` +
        `${api.violations.length} violations${report ? `:\n${report}` : ""}\n`,
    );
    expect(api.violations).toEqual([]);
  });

  it("walked every endpoint the emulator serves", () => {
    // A new endpoint must join the walk, or its public shape goes unchecked.
    const walked = new Set(api.requests.keys());
    expect(
      Object.values(ENDPOINTS)
        .map(endpointKey)
        .filter((e) => !walked.has(e)),
    ).toEqual([]);
  });
});
