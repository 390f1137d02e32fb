// Domain request bodies as the public description states them (docs/contract/endpoints/domains.md#records,
// CreateDomain and UpdateDomain), over real HTTP. The emulator validates with the shared contract schemas
// (provider/api/domain.ts), so these are also the provider's rules:
// - "In requests the four subdomains and the rotation interval are omitted or given, never `null`
//   (only the selector may be `null`)" — in a create; in an update `null` means unchanged;
// - "`dkim_selector` is trimmed (whitespace-only = empty = the default selector), lower-cased, and
//   must be one DNS label: 1–62 characters of lowercase letters, digits and hyphens, no leading or
//   trailing hyphen".
import { type Emu, expectError, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const name = () => `${uniq("dr")}.example.com`;
const create = (body: Record<string, unknown>) => emu.req("POST", emu.acct("/domains"), { body });

describe("CreateDomain / UpdateDomain", () => {
  test.each(["tracking_subdomain", "return_path_subdomain", "subscription_subdomain", "media_subdomain"])(
    "CreateDomain: %s is omitted or given, never null",
    async (field) => {
      expectError(await create({ domain: name(), [field]: null }), 400, `${field}: must be omitted or given, not null`);
      const given = await create({ domain: name(), [field]: "x1" });
      expect([given.status, given.body[field]]).toEqual([201, "x1"]);
    },
  );

  test("CreateDomain: dkim_rotation_interval_days is omitted or given, never null; dkim_selector may be null", async () => {
    expectError(
      await create({ domain: name(), dkim_rotation_interval_days: null }),
      400,
      "dkim_rotation_interval_days: must be omitted or given, not null",
    );
    const r = await create({ domain: name(), dkim_rotation_interval_days: 30, dkim_selector: null });
    expect([r.status, r.body.dkim_rotation_interval_days, r.body.dkim_selector]).toEqual([201, 30, null]);
  });

  test("UpdateDomain: null leaves a subdomain and the rotation interval unchanged", async () => {
    const n = name();
    await create({ domain: n, tracking_subdomain: "trk", dkim_rotation_interval_days: 30 });
    const u = await emu.req("PUT", emu.acct(`/domains/${n}`), {
      body: { tracking_subdomain: null, dkim_rotation_interval_days: null, media_subdomain: "img" },
    });
    expect(u.body).toMatchObject({
      tracking_subdomain: "trk",
      dkim_rotation_interval_days: 30,
      media_subdomain: "img",
    });
  });

  test.each([
    [" Sel-1 ", "sel-1"],
    ["MAIL2026", "mail2026"],
    ["a".repeat(62), "a".repeat(62)],
    ["", null],
    ["   ", null],
  ])("dkim_selector %j is accepted and stored as %j", async (given, stored) => {
    const r = await create({ domain: name(), dkim_selector: given });
    expect([r.status, r.body.dkim_selector]).toEqual([201, stored]);
  });

  test.each([["a".repeat(63)], ["-sel"], ["sel-"], ["se l"], ["sel.x"], ["sel_1"]])(
    "dkim_selector %j is not one DNS label of 1–62 characters: 400 naming the field",
    async (given) => {
      expectError(
        await create({ domain: name(), dkim_selector: given }),
        400,
        /^dkim_selector: must be empty \(the default/,
      );
    },
  );

  test("UpdateDomain: the selector is canonicalised the same way; whitespace only clears it", async () => {
    const n = name();
    await create({ domain: n, dkim_selector: "sel1" });
    const u = await emu.req("PUT", emu.acct(`/domains/${n}`), { body: { dkim_selector: " SEL2 " } });
    expect(u.body.dkim_selector).toBe("sel2");
    const cleared = await emu.req("PUT", emu.acct(`/domains/${n}`), { body: { dkim_selector: "  " } });
    expect(cleared.body.dkim_selector).toBeNull();
  });
});
