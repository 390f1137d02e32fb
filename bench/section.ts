// How a benchmark that owns a section of bench/RESULTS.md ends: the section printed, its raw result
// kept in bench/out/<name>.json, the section written in place of its last run's.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/root";

/** Replaces (or appends) this benchmark's section of RESULTS.md, leaving the others' sections as they are. */
export function writeSection(file: string, section: string[]): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmark results\n";
  const heading = section[0]!;
  const start = text.indexOf(`\n${heading}\n`);
  const body = section.join("\n");
  if (start < 0) {
    fs.writeFileSync(file, `${text.trimEnd()}\n\n${body}`);
    return;
  }
  const next = text.indexOf("\n## ", start + heading.length + 1);
  fs.writeFileSync(file, `${text.slice(0, start + 1)}${body}${next < 0 ? "" : `\n${text.slice(next + 1)}`}`);
}

/** Prints the section, keeps the raw result (when given) and writes the section into RESULTS.md. */
export function publishSection(lines: string[], raw?: { name: string; result: unknown }): void {
  process.stdout.write(`${lines.join("\n")}\n`);
  if (raw) {
    const out = path.join(REPO_ROOT, "bench", "out");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, `${raw.name}.json`), JSON.stringify(raw.result, null, 2));
  }
  writeSection(path.join(REPO_ROOT, "bench", "RESULTS.md"), lines);
}

/** Runs a benchmark's main and exits: 0 when it finished, 1 (with its stack) when it threw. */
export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
