// The pull-request comment of examples/ci: parsed from previews captured from the real CLI (3.259,
// this pack) — a failing one (a mandatory finding next to advisory ones), a passing one with
// advisory findings, and the demo stack's clean one.
import * as fs from "node:fs";
import * as path from "node:path";
import { COMMENT_MARKER, parseViolations, renderComment } from "../../../policy/tools/previewComment";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", `preview-${name}.txt`), "utf8");

describe("examples/ci/pull-request.yml", () => {
  it("runs this script, as the package ships it compiled, and posts what it writes", () => {
    const root = path.join(__dirname, "../../..");
    const yml = fs.readFileSync(path.join(root, "examples/ci/pull-request.yml"), "utf8");
    const script = /node node_modules\/pulumi-txmail\/(dist\/policy\/tools\/\w+)\.js preview\.txt/.exec(yml)?.[1];
    expect(script).toBe("dist/policy/tools/previewComment");
    expect(fs.existsSync(path.join(root, "policy/tools/previewComment.ts"))).toBe(true);
    expect(yml).toContain('readFileSync("comment.md"');
    expect(yml).toContain(COMMENT_MARKER);
  });
});

describe("parseViolations", () => {
  it("reads every violation of a failing preview: level, policy, resource and the whole message", () => {
    const v = parseViolations(fixture("mandatory"));
    expect(v.map((x) => [x.level, x.policy, x.resource])).toEqual([
      ["mandatory", "ip-allow-list-no-allow-all", "pulumi-nodejs:dynamic/txmail:ApiKey: ci"],
      ["advisory", "endpoint-https", "pulumi-nodejs:dynamic/txmail:Webhook: acme-webhook-events"],
      ["advisory", "api-key-broad-scopes", "pulumi-nodejs:dynamic/txmail:SubAccountApiKey: acme-app"],
      ["advisory", "ip-allow-list-broad-prefix", "pulumi-nodejs:dynamic/txmail:ApiKey: ci"],
      ["advisory", "ip-allow-list-broad-prefix", "pulumi-nodejs:dynamic/txmail:SubAccountApiKey: acme-app"],
    ]);
    expect(v[0].message).toMatch(/^ApiKey 'ci': ipAllowList: together the entries cover every IPv4 address/);
    expect(v[0].message).not.toMatch(/must not allow every/); // the policy's description is not the message
    expect(v[2].message).toMatch(/^SubAccountApiKey 'acme-app': 2 scopes broader than they need: 'routes:write:all'/);
  });

  it("finds nothing in a clean preview", () => {
    expect(parseViolations(fixture("clean"))).toEqual([]);
  });
});

describe("renderComment", () => {
  it("puts the verdict, counts per rule with mandatory first, then one line per resource", () => {
    const md = renderComment(fixture("mandatory"), { outcome: "failure", stack: "prod", commit: "0123456789" });
    expect(md.startsWith(`${COMMENT_MARKER}\n\n### ❌ preview failed: 1 mandatory policy violation`)).toBe(true);
    expect(md).toContain("Stack `prod`, commit 0123456, policy pack `txmail-policies`.");
    const table = md.slice(md.indexOf("| policy |"), md.indexOf("\n\n", md.indexOf("| policy |")));
    expect(table.split("\n").slice(2)).toEqual([
      "| `ip-allow-list-no-allow-all` | mandatory | 1 |",
      "| `endpoint-https` | advisory | 1 |",
      "| `api-key-broad-scopes` | advisory | 1 |",
      "| `ip-allow-list-broad-prefix` | advisory | 2 |",
    ]);
    const lines = md.split("\n").filter((l) => l.startsWith("- **"));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^- \*\*mandatory\*\* `ip-allow-list-no-allow-all` — ApiKey `ci`: ApiKey 'ci': /);
    expect(lines.slice(1).every((l) => l.startsWith("- **advisory**"))).toBe(true);
    expect(md).toMatch(/<details><summary>pulumi preview output<\/summary>[\s\S]*Resources:|error: preview failed/);
  });

  it("says passed with advisory findings, or passed clean, or failed without a policy", () => {
    expect(renderComment(fixture("advisory"), { outcome: "success" })).toContain(
      "### ⚠️ preview passed with 3 advisory findings",
    );
    const clean = renderComment(fixture("clean"), { outcome: "success" });
    expect(clean).toContain("### ✅ preview passed, no policy findings");
    expect(clean).not.toContain("| policy |");
    const broken = renderComment("error: could not load plugin\n", { outcome: "failure" });
    expect(broken).toContain("### ❌ preview failed (an error, not a policy: see the output)");
    expect(broken).toContain("<details open>");
  });

  it("keeps the comment under GitHub's size limit and cannot be broken out of the code block", () => {
    const md = renderComment(`${"x".repeat(100_000)}\n\`\`\`\nnot code\n`, { outcome: "failure" });
    expect(md.length).toBeLessThan(65_536);
    expect(md.match(/^```$/gm)).toHaveLength(2);
  });
});
