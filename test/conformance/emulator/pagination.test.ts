// Pagination (docs/contract/limits.md#pagination) and the list envelope
// (docs/contract/conventions.md#list-envelope): opaque cursors, after/before mutually exclusive, limit
// 1–100 (default 100), stable order, complete traversal in both directions.
import { type Emu, expectError, start } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
  for (let i = 0; i < 23; i++) {
    await emu.req("POST", emu.acct("/suppressions"), {
      body: { email: `p${i}@page.example.com`, expires_at: "2099-01-01T00:00:00Z" },
    });
  }
});
afterAll(() => emu.close());

const list = (q: string) => emu.req("GET", emu.acct(`/suppressions${q}`));
const emails = (r: { body: { data: { email: string }[] } }) => r.body.data.map((s) => s.email);

describe("Pagination", () => {
  test("Pagination: limit defaults to 100 and must be 1–100", async () => {
    const all = await list("");
    expect(all.body.data).toHaveLength(23);
    expect(all.body.pagination.has_more).toBe(false);
    for (const bad of ["0", "101", "-1", "abc", "1.5", ""]) {
      expectError(await list(`?limit=${bad}`), 400, "limit must be between 1 and 100");
    }
    expect((await list("?limit=100")).status).toBe(200);
  });

  test("Pagination: after walks forward with next_cursor until has_more is false, in stable order", async () => {
    const seen: string[] = [];
    let q = "?limit=5";
    let pages = 0;
    for (; pages < 10; pages++) {
      const r = await list(q);
      expect(r.body.object).toBe("list");
      seen.push(...emails(r));
      if (!r.body.pagination.has_more) break;
      q = `?limit=5&after=${encodeURIComponent(r.body.pagination.next_cursor)}`;
    }
    expect(pages + 1).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => `p${i}@page.example.com`));
  });

  test("Pagination: before walks back with previous_cursor (absent at the start)", async () => {
    const first = await list("?limit=10");
    const second = await list(`?limit=10&after=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(second.body.pagination.previous_cursor).toBeTruthy();
    const back = await list(`?limit=10&before=${encodeURIComponent(second.body.pagination.previous_cursor)}`);
    expect(emails(back)).toEqual(emails(first));
    expect(back.body.pagination.previous_cursor).toBeUndefined();
    expect(back.body.pagination.has_more).toBe(false);
    const back3 = await list(`?limit=3&before=${encodeURIComponent(second.body.pagination.previous_cursor)}`);
    expect(emails(back3)).toEqual(emails(first).slice(7));
    expect(back3.body.pagination.has_more).toBe(true);
  });

  test("Pagination: after and before are mutually exclusive; bad or foreign cursors are 400", async () => {
    const first = await list("?limit=2");
    const c = encodeURIComponent(first.body.pagination.next_cursor);
    expectError(await list(`?after=${c}&before=${c}`), 400, "after and before are mutually exclusive");
    expectError(await list("?after=garbage"), 400, /after: invalid cursor/);
    expectError(await emu.req("GET", emu.acct(`/routes?after=${c}`)), 400, /different list/);
    expectError(await list(`?domain=page.example.com&after=${c}`), 400, /different list or filter/);
  });

  test("Pagination: a deleted item does not break a walk; new items appear at the end", async () => {
    const first = await list("?limit=5");
    await emu.req("DELETE", emu.acct(`/suppressions?email=${encodeURIComponent(first.body.data[4].email)}`));
    await emu.req("POST", emu.acct("/suppressions"), {
      body: { email: "late@page.example.com", expires_at: "2099-01-01T00:00:00Z" },
    });
    const next = await list(`?limit=100&after=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(emails(next)[0]).toBe("p5@page.example.com");
    expect(emails(next).at(-1)).toBe("late@page.example.com");
  });
});
