// A removed tenant's domain under a new name without formerNames: a warning with the line to add.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ShardStack } from "../../../fleet/census";
import type { PlacedFleet } from "../../../fleet/command";
import { renamesWithoutFormerNames } from "../../../fleet/placeFleet";
import { emptyPlacement, place } from "../../../fleet/placement";
import { loadTenantsFile } from "../../../sdk/nodejs/tenantsFile";

describe("a rename without formerNames", () => {
  it("is warned about with the tenants file's line and the line to add", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-rename-"));
    const file = path.join(dir, "tenants.yaml");
    fs.writeFileSync(
      file,
      "tenants:\n  - name: b\n    website: b.example.com\n  - name: acme-corp\n    website: acme.example.com\n    domain: Mail.Acme.example.com\n",
    );
    const entries = new Map(loadTenantsFile(file).tenants.map((t) => [t.name, t]));
    const held = new Map([
      ["acme", 1],
      ["b", 1],
    ]);
    const change = place(emptyPlacement(4, "native"), [...entries.keys()], 4, new Map(), held);
    const fleet = { tenantsFile: file, placementFile: "", entries, previous: undefined, shardSize: 4, change };
    const stacks: ShardStack[] = [
      { shard: 1, name: "shard-001", domains: new Map([["acme", "mail.acme.example.com"]]) },
    ];
    const [warning, ...rest] = renamesWithoutFormerNames(fleet as PlacedFleet, stacks);
    expect(rest).toEqual([]);
    expect(warning).toBe(
      `${file}:4:5: new tenant 'acme-corp' has the domain mail.acme.example.com of removed tenant 'acme' (shard-001): ` +
        "as written, its up deletes 'acme''s objects and keys and makes new ones. If it is a rename, add to its entry: formerNames: [acme]",
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
