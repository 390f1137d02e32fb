// Writing the HTML report: after a run with `--html FILE`, and `txmail-fleet report --from RUN.json
// --html FILE [--compare PREVIOUS.json]`, which writes it from a run's JSON report.
import * as fs from "node:fs";
import type { FleetOptions } from "../options";
import { renderPage } from "./page";
import { type FleetRunReport, loadReport, ReportFileError } from "./runReport";
import { compareViews, tenantView } from "./view";

export function readReportFile(file: string): FleetRunReport {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new ReportFileError(`${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ReportFileError(`${file}: not JSON (${(e as Error).message})`);
  }
  return loadReport(raw, file);
}

/** Writes the page of `report` to `htmlFile` (with what changed since `compareFile`); returns its size. */
export function writeHtmlReport(report: FleetRunReport, htmlFile: string, compareFile?: string): number {
  const previous = compareFile ? readReportFile(compareFile) : undefined;
  const compare = previous
    ? compareViews(
        { command: previous.command, startedAt: previous.startedAt },
        tenantView(previous),
        tenantView(report),
      )
    : undefined;
  const html = renderPage(report, { compare });
  fs.writeFileSync(htmlFile, html);
  return Buffer.byteLength(html);
}

/** `txmail-fleet report`: the page of a run's JSON report. */
export function runReportCommand(opts: FleetOptions, out: (line: string) => void): number {
  const report = readReportFile(opts.fromFile!);
  const bytes = writeHtmlReport(report, opts.htmlFile!, opts.compareFile);
  out(`report: ${opts.htmlFile} (${(bytes / 1024).toFixed(0)} KiB, ${report.command} of ${report.startedAt || "?"})`);
  return 0;
}
