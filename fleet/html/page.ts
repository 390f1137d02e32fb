// `--html FILE`: the run's report as one self-contained HTML page — its style, script and charts
// inline, no request of any kind (a Content-Security-Policy of `default-src 'none'` makes sure), for
// a CI artifact or a nightly run's link. The page's data is the report's JSON itself, embedded in a
// <script type="application/json">; the page's script computes every row and count from it with
// the same tenantView Node uses (view.ts). A large report (10 000 tenants with their DNS records) is
// embedded gzipped (base64) and inflated in the page by the browser's DecompressionStream.
import { gzipSync } from "node:zlib";
import type { FleetRunReport } from "./runReport";
import { PAGE_SCRIPT, PAGE_STYLE } from "./pageAssets";
import { type Comparison, tenantView } from "./view";

/** Above this many bytes of JSON the data is embedded gzipped (a 1 000-tenant run stays plain). */
export const COMPRESS_ABOVE = 1_500_000;

export interface PageOptions {
  compare?: Comparison;
  /** Bytes of JSON above which the data is gzipped (tests force it with 0). */
  compressAbove?: number;
}

/** JSON safe inside a <script> element: no `<` can close it or open a comment. */
const scriptSafe = (json: string) => json.replace(/</g, "\\u003c");

function dataElement(id: string, value: unknown, compressAbove: number): string {
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) <= compressAbove) {
    return `<script type="application/json" id="${id}">${scriptSafe(json)}</script>`;
  }
  const packed = gzipSync(json, { level: 9 }).toString("base64");
  return `<script type="application/json" id="${id}" data-encoding="gzip+base64">"${packed}"</script>`;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function renderPage(report: FleetRunReport, opts: PageOptions = {}): string {
  const compressAbove = opts.compressAbove ?? COMPRESS_ABOVE;
  const title = `txmail-fleet ${report.command} — ${report.startedAt || "report"}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="txmail-fleet">
<title>${esc(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header><h1 id="title">${esc(`txmail-fleet ${report.command}`)}</h1><dl id="run" class="run"></dl></header>
<main>
<noscript><p>This report needs JavaScript to show its tenants; its data is the JSON in this file.</p></noscript>
<section aria-labelledby="h-result"><h2 id="h-result">Result</h2><div id="statuses" class="statuses" role="group" aria-label="Filter tenants by status"></div></section>
<section aria-labelledby="h-tenants"><h2 id="h-tenants">Tenants</h2>
<div class="controls">
<label for="search">Search tenants</label> <input id="search" type="search" autocomplete="off" placeholder="tenant or shard">
<label for="shard">Shard</label> <select id="shard"><option value="">all shards</option></select>
<p id="shown" class="shown" aria-live="polite"></p>
</div>
<div id="scroller" class="scroller" tabindex="0" role="region" aria-label="Tenants table (scrolls)">
<table id="tenants"><caption class="sr">Tenants of the run: one row each; the tenant's name opens its details below the table</caption>
<thead><tr>
<th scope="col" data-key="tenant"><button type="button">Tenant</button></th>
<th scope="col" data-key="shard"><button type="button">Shard</button></th>
<th scope="col" data-key="statuses"><button type="button">Status</button></th>
<th scope="col" data-key="changed"><button type="button">Changes</button></th>
<th scope="col" data-key="drifted"><button type="button">Drift</button></th>
<th scope="col" data-key="dns"><button type="button">DNS</button></th>
<th scope="col" data-key="leftovers"><button type="button">Leftovers</button></th>
</tr></thead><tbody id="rows"></tbody></table>
</div>
</section>
<section id="detail" aria-labelledby="h-detail"><h2 id="h-detail">Tenant details</h2><p>Choose a tenant in the table.</p></section>
<section aria-labelledby="h-shards"><h2 id="h-shards">Shards' time</h2><div id="chart"></div></section>
<section id="compare" aria-labelledby="h-compare" hidden><h2 id="h-compare">Since the previous run</h2></section>
<section id="account" aria-labelledby="h-account" hidden><h2 id="h-account">Account and fleet-wide findings</h2></section>
</main>
<footer><p>Written by txmail-fleet; self-contained: it makes no network request. Secrets are shown as [secret], as in the JSON report.</p></footer>
${dataElement("report", report, compressAbove)}
${opts.compare ? dataElement("comparison", opts.compare, compressAbove) : ""}
<script>
"use strict";
var tenantView = (${tenantView.toString()});
${PAGE_SCRIPT}
</script>
</body>
</html>
`;
}
