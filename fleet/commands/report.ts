// `txmail-fleet report --from RUN.json --html FILE [--compare PREVIOUS.json]`: a run's JSON report
// as one HTML page. Reads that file only: no tenants file, no stack.
import type { FleetCommand } from "../command";
import type * as HtmlWrite from "../html/write";

export const reportCommand: FleetCommand = {
  name: "report",
  // --html and --compare are the runs' too; --from is checked with its own words (fleet/args.ts).
  flags: [],
  needs: "nothing",
  // Loaded on use, as after a run with --html: no other command needs the page's renderer.
  run: (opts, io) => (require("../html/write") as typeof HtmlWrite).runReportCommand(opts, io.out),
};
