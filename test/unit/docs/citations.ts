// What the citation checks read: the repository's text files, the headings of its Markdown pages (as
// GitHub turns them into anchors), and the citations of docs/ pages found in code, tests and docs.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";

const SKIPPED_DIRS = new Set(["node_modules", "dist", "dist-plugin", ".tools", ".git", ".state", "coverage", "out"]);
const TEXT_FILE = /\.(ts|js|cjs|mjs|go|py|md|sh|ya?ml|toml)$|^run$/;

/** Every text file of the repository (relative paths), build output and dependencies excluded. */
export function textFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !e.name.startsWith(".txmail")) walk(rel);
      } else if (TEXT_FILE.test(e.name) && !e.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  walk(".");
  return out.map((f) => path.normalize(f)).sort();
}

export function read(file: string): string {
  return fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
}

/** The anchor GitHub gives a heading: formatting dropped, lower case, punctuation removed, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown page: its headings' (outside code fences; repeats get -1, -2, …) and explicit ids. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const h = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id[1]!);
  }
  return found;
}

export interface Citation {
  /** Where the citation is written. */
  from: string;
  /** The cited page, relative to the repository root. */
  page: string;
  anchor?: string;
}

/** `docs/….md#anchor` written anywhere (code, tests, comments, messages, pages). */
export function docsCitations(file: string, text: string): Citation[] {
  return [...text.matchAll(/(?<![\w./-])(docs\/[\w./-]+?\.md)(?:#([\w-]+))?/g)].map((m) => ({
    from: file,
    page: m[1]!,
    anchor: m[2],
  }));
}

/** Relative Markdown links of a page, resolved against its directory (external and pure-anchor links excluded). */
export function markdownLinks(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [rel, anchor] = target.split("#");
    const page = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
    out.push({ from: file, page, anchor });
  }
  return out;
}

/** "idempotency rule 6" and the like: a numbered rule of a contract page. */
const RULE_PAGES: Record<string, string> = {
  idempotency: "docs/contract/idempotency.md",
  authentication: "docs/contract/authentication.md",
  "allow-list": "docs/contract/allow-lists.md",
  error: "docs/contract/errors.md",
};

export function ruleCitations(file: string, text: string): Citation[] {
  return [...text.matchAll(/\b(idempotency|authentication|allow-list|error) rules? (\d+)/gi)].map((m) => ({
    from: file,
    page: RULE_PAGES[m[1]!.toLowerCase()]!,
    anchor: `rule-${m[2]}`,
  }));
}
