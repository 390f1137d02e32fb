// The contract pages (docs/contract/endpoints/) name exactly the endpoints of the service's table
// (provider/api/endpoints.ts), and mark "(Key)" exactly on its idempotency-keyed creates; so does the
// emulator README's table of scopes. The pages
// stay hand-written — each endpoint's row carries query parameters, notes and citations the table
// does not hold — so this test keeps them and the table in step instead of generating them.
import * as fs from "node:fs";
import * as path from "node:path";
import { ENDPOINT_LIST, endpointKey } from "../../../provider/api/endpoints";
import { REPO_ROOT } from "../../../support/root";

const PAGES_DIR = path.join(REPO_ROOT, "docs", "contract", "endpoints");
const ACCOUNT = "/v2/accounts/{account_id}";

/** The pages' endpoint names, `METHOD /template`, and those marked (Key). Paths without /v2 are under the account. */
export function documentedEndpoints(markdown: string): { named: string[]; keyed: string[] } {
  const named: string[] = [];
  const keyed: string[] = [];
  // `GET /routes` (Key), and the short form `GET` / `PUT` / `DELETE /routes/{route_id}`.
  const mention =
    /((?:`(?:GET|POST|PUT|PATCH|DELETE)` \/ )*)`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)[^`]*`( \(Key\))?/g;
  for (const m of markdown.matchAll(mention)) {
    const [, more, method, rawPath, key] = m;
    // The legacy send API and the emulator's control surface are not endpoints of v2's table.
    if (rawPath!.startsWith("/v1/") || rawPath!.startsWith("/_emulator/")) continue;
    const template = rawPath!.startsWith("/v2/") ? rawPath! : `${ACCOUNT}${rawPath}`;
    const methods = [...more!.matchAll(/`([A-Z]+)`/g)].map((x) => x[1]!).concat(method!);
    for (const verb of methods) {
      named.push(`${verb} ${template}`);
      if (key) keyed.push(`${verb} ${template}`);
    }
  }
  return { named, keyed };
}

const pages = fs
  .readdirSync(PAGES_DIR)
  .filter((f) => f.endsWith(".md") && f !== "README.md")
  .map((f) => documentedEndpoints(fs.readFileSync(path.join(PAGES_DIR, f), "utf8")));
const named = new Set(pages.flatMap((p) => p.named));
const keyed = new Set(pages.flatMap((p) => p.keyed));
const table = ENDPOINT_LIST.map(endpointKey);

describe("docs/contract/endpoints and the endpoint table", () => {
  test("the pages name every endpoint of the table", () => {
    expect(table.filter((k) => !named.has(k))).toEqual([]);
  });

  test("the pages name no endpoint the table lacks", () => {
    expect([...named].filter((k) => !table.includes(k)).sort()).toEqual([]);
  });

  test("(Key) marks exactly the creates that take Idempotency-Key", () => {
    const keyedCreates = ENDPOINT_LIST.filter((e) => e.retry === "keyed-create").map(endpointKey);
    expect([...keyed].sort()).toEqual(keyedCreates.sort());
  });

  // The contract pages are where each endpoint is documented (a kind's fifth file); the README's
  // table is the emulator's summary of scopes, so it may not name an endpoint the service lacks,
  // and it names every endpoint of the kinds it summarises (a kind added later may wait for it).
  test("the emulator's README lists only the table's endpoints, every one of each collection it lists", () => {
    const listed = new Set(
      documentedEndpoints(fs.readFileSync(path.join(REPO_ROOT, "emulator", "README.md"), "utf8")).named,
    );
    /** `/routes` for every route endpoint (under the account), `/v2/ping` for the ping. */
    const collection = (key: string) =>
      key
        .split(" ")[1]!
        .replace(ACCOUNT, "")
        .replace(/\/\{[a-z_]+\}.*$/, "");
    const summarised = new Set([...listed].map(collection));
    expect([...listed].filter((k) => !table.includes(k)).sort()).toEqual([]);
    expect(table.filter((k) => summarised.has(collection(k)) && !listed.has(k))).toEqual([]);
  });

  test("the reader finds both forms of a mention", () => {
    const { named: found, keyed: marked } = documentedEndpoints(
      "| `POST /routes` (Key) | x |\n| `GET` / `DELETE /routes/{route_id}` | — |\n`GET /v2/ping`; `POST /v1/email/send`; `GET /_emulator/state`",
    );
    expect(found).toEqual([
      `POST ${ACCOUNT}/routes`,
      `GET ${ACCOUNT}/routes/{route_id}`,
      `DELETE ${ACCOUNT}/routes/{route_id}`,
      "GET /v2/ping",
    ]);
    expect(marked).toEqual([`POST ${ACCOUNT}/routes`]);
  });
});
