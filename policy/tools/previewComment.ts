#!/usr/bin/env node
// The pull-request comment of examples/ci/pull-request.yml: reads the text of `pulumi preview
// --policy-pack …` and writes a compact Markdown summary — counts per rule (mandatory first), one
// line per finding (the pack reports one finding per resource per rule), the raw output folded
// away. `pulumi preview --json` carries no policy violations (CLI 3.259, still so in 3.274.1), hence the text output.
//
//   node node_modules/pulumi-txmail/dist/policy/tools/previewComment.js preview.txt \
//     --outcome success|failure [--stack prod] [--commit 0123abc] > comment.md
import * as fs from "node:fs";

export const COMMENT_MARKER = "<!-- txmail-policy-preview -->";

export interface Violation {
  level: string;
  severity: string;
  policy: string;
  /** What the CLI names: `<type token>: <name>`, or empty for a stack-wide finding. */
  resource: string;
  message: string;
}

const PACK_LINE = /^\s+(?:❌|⚠️|✅|⚠|ℹ️)?\s*(\S+@v\S+)/u;
const VIOLATION = /^\s+- \[(\w+)\] \[severity: (\w+)\]\s+(\S+)(?:\s+\((.*)\))?\s*$/;

/** The violations of the `Policies:` section of a preview's text output, in the order printed. */
export function parseViolations(output: string): Violation[] {
  const lines = output.replace(/\r\n/g, "\n").split("\n");
  const start = lines.findIndex((l) => l === "Policies:");
  if (start < 0) return [];
  const out: Violation[] = [];
  let current: (Violation & { body: string[] }) | undefined;
  const flush = () => {
    if (!current) return;
    // The first line under a violation is the policy's description; the rest is the message.
    const { body, ...v } = current;
    out.push({ ...v, message: body.slice(1).join(" ").trim() });
    current = undefined;
  };
  for (const line of lines.slice(start + 1)) {
    if (line !== "" && !/^\s/.test(line)) break; // the next section (Diagnostics:, Outputs:, …)
    const v = VIOLATION.exec(line);
    if (v) {
      flush();
      current = { level: v[1], severity: v[2], policy: v[3], resource: v[4] ?? "", message: "", body: [] };
    } else if (PACK_LINE.test(line) && !line.trimStart().startsWith("-")) flush();
    else if (current && line.trim() !== "") current.body.push(line.trim());
  }
  flush();
  return out;
}

/** `pulumi-nodejs:dynamic/txmail:ApiKey: ci` → `ApiKey ci`. */
function shortResource(resource: string): string {
  const m = /^(?:.*:)?([A-Za-z]+):\s*(.+)$/.exec(resource);
  return m ? `${m[1]} \`${m[2]}\`` : resource ? `\`${resource}\`` : "the stack";
}

const MAX_MESSAGE = 400;
const MAX_RAW = 30_000;

/** Markdown for the pull request: title, counts per rule, one line per finding, the raw output folded. */
export function renderComment(
  output: string,
  opts: { outcome: string; stack?: string; commit?: string; packName?: string },
): string {
  const violations = parseViolations(output);
  const rank = (level: string) => (level === "mandatory" ? 0 : 1);
  const ordered = [...violations].sort((a, b) => rank(a.level) - rank(b.level));
  const mandatory = violations.filter((v) => v.level === "mandatory").length;
  const advisory = violations.length - mandatory;
  const ok = opts.outcome === "success";
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const title = !ok
    ? mandatory > 0
      ? `❌ preview failed: ${plural(mandatory, "mandatory policy violation")}`
      : "❌ preview failed (an error, not a policy: see the output)"
    : advisory > 0
      ? `⚠️ preview passed with ${plural(advisory, "advisory finding")}`
      : "✅ preview passed, no policy findings";
  const where = [
    opts.stack ? `Stack \`${opts.stack}\`` : undefined,
    opts.commit ? `commit ${opts.commit.slice(0, 7)}` : undefined,
    `policy pack \`${opts.packName ?? "txmail-policies"}\``,
  ].filter(Boolean);

  const parts = [COMMENT_MARKER, `### ${title}`, `${where.join(", ")}.`];
  if (ordered.length > 0) {
    const counts = new Map<string, { level: string; n: number }>();
    for (const v of ordered) {
      const c = counts.get(v.policy) ?? { level: v.level, n: 0 };
      c.n++;
      counts.set(v.policy, c);
    }
    parts.push(
      ["| policy | level | resources |", "| --- | --- | ---: |"]
        .concat([...counts].map(([policy, c]) => `| \`${policy}\` | ${c.level} | ${c.n} |`))
        .join("\n"),
    );
    parts.push(
      ordered
        .map((v) => {
          const message = v.message.length > MAX_MESSAGE ? `${v.message.slice(0, MAX_MESSAGE)}…` : v.message;
          return `- **${v.level}** \`${v.policy}\` — ${shortResource(v.resource)}: ${message}`;
        })
        .join("\n"),
    );
  }
  // GitHub caps comments at 65,536 characters; keep the end, where violations and errors are.
  const raw = output.length > MAX_RAW ? `…(truncated)\n${output.slice(-MAX_RAW)}` : output;
  parts.push(
    `<details${ok || mandatory > 0 ? "" : " open"}><summary>pulumi preview output</summary>\n\n\`\`\`\n` +
      `${raw.replace(/```/g, "`\u200b``").trimEnd()}\n\`\`\`\n</details>`,
  );
  return `${parts.join("\n\n")}\n`;
}

function main(argv: string[]): void {
  const [file, ...rest] = argv;
  const flag = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (!file) {
    process.stderr.write(
      "usage: previewComment <preview output file> --outcome success|failure [--stack S] [--commit SHA]\n",
    );
    process.exit(2);
  }
  const output = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "(no output)";
  process.stdout.write(
    renderComment(output, { outcome: flag("outcome") ?? "failure", stack: flag("stack"), commit: flag("commit") }),
  );
}

if (require.main === module) main(process.argv.slice(2));
