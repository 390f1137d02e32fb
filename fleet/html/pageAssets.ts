// The HTML report's style and script (page.ts inlines them). Plain browser JavaScript, no library:
// the tenants' table renders only the rows in view (a virtualised table: 10 000 tenants scroll and
// filter as 100 do), the shards' chart is SVG. The script reads the report from the page's JSON
// (inflating it first when gzipped) and builds its rows with tenantView (view.ts), defined before it.

export const PAGE_STYLE = `
:root{--fg:#1b1f24;--muted:#4d5560;--bg:#fff;--line:#d0d7de;--head:#f3f5f7;--accent:#0b5cad;
--changed:#0b5cad;--drifted:#8a4b00;--failed:#b3261e;--dns:#6b3fa0;--leftovers:#5c5c00;--ok:#1a7f37}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:1280px;margin:0 auto;padding:0 20px}
header{padding-top:16px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:20px 0 8px}h3{font-size:15px;margin:14px 0 6px}
.run{display:flex;flex-wrap:wrap;gap:4px 20px;margin:0}.run div{display:flex;gap:6px}.run dt{color:var(--muted)}.run dd{margin:0;font-weight:600}
.statuses{display:flex;flex-wrap:wrap;gap:8px}
.statuses button{font:inherit;border:1px solid var(--line);background:#fff;border-radius:6px;padding:6px 12px;cursor:pointer;color:var(--fg)}
.statuses button[aria-pressed=true]{background:var(--fg);color:#fff;border-color:var(--fg)}
.statuses .n{font-weight:700;margin-left:6px}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin-bottom:8px}
.controls input,.controls select{font:inherit;padding:4px 8px;border:1px solid #6e7781;border-radius:4px}
.controls input{width:240px}.shown{margin:0 0 0 auto;color:var(--muted)}
.scroller{height:min(60vh,520px);overflow:auto;border:1px solid var(--line);border-radius:6px;position:relative}
table{border-collapse:collapse;width:100%}
#tenants{table-layout:fixed}
#tenants td,#tenants th{height:32px;padding:0 10px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;text-align:left;border-bottom:1px solid var(--line)}
#tenants thead th{position:sticky;top:0;background:var(--head);z-index:1}
#tenants th button{font:inherit;font-weight:600;border:0;background:none;padding:0;cursor:pointer;color:var(--fg)}
#tenants th[aria-sort=ascending] button::after{content:" \\25B2"}#tenants th[aria-sort=descending] button::after{content:" \\25BC"}
#tenants td.num{text-align:right}
#tenants tr.spacer td{border:0;padding:0}
#tenants td button{font:inherit;border:0;background:none;padding:0;color:var(--accent);text-decoration:underline;cursor:pointer}
.b{display:inline-block;border-radius:10px;padding:0 7px;margin-right:4px;font-size:12px;font-weight:600;color:#fff}
.b.changed{background:var(--changed)}.b.drifted{background:var(--drifted)}.b.failed{background:var(--failed)}.b.dns{background:var(--dns)}.b.leftovers{background:var(--leftovers)}
.ok{color:var(--ok)}.muted{color:var(--muted)}
.detail table{margin:4px 0 8px}.detail td,.detail th{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
.detail th{background:var(--head)}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;border-radius:4px}
code{padding:1px 4px;word-break:break-all}pre{padding:8px;white-space:pre-wrap;word-break:break-all;margin:4px 0}
.chartbox{max-height:420px;overflow:auto;border:1px solid var(--line);border-radius:6px}
.legend{display:flex;gap:16px;margin:6px 0}.legend span::before{content:"";display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px;background:var(--c)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{color:var(--muted);padding-bottom:24px;margin-top:24px}
`;

export const PAGE_SCRIPT = String.raw`
(function () {
  var ROW_H = 32, OVERSCAN = 12;
  var LABEL = { changed: "Changed", drifted: "Drifted", failed: "Failed", dns: "DNS not seen", leftovers: "Leftovers" };
  var KEYS = ["changed", "drifted", "failed", "dns", "leftovers"];
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function $(id) { return document.getElementById(id); }
  function secs(ms) { return ms == null ? "-" : (ms / 1000).toFixed(1) + " s"; }
  function readData(id) {
    var el = $(id);
    if (!el) return Promise.resolve(null);
    var text = JSON.parse(el.textContent);
    if (el.getAttribute("data-encoding") !== "gzip+base64") return Promise.resolve(text);
    var bin = atob(text), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  Promise.all([readData("report"), readData("comparison")]).then(function (got) {
    start(got[0], got[1]);
  }).catch(function (e) {
    $("shown").textContent = "The report could not be read: " + e;
    throw e;
  });

  function start(report, comparison) {
    var view = tenantView(report);
    var state = { status: "", shard: "", q: "", key: "tenant", dir: 1, rows: [] };
    var index = null;

    function header() {
      var ok = view.rows.length - new Set(view.rows.filter(function (r) { return r.statuses.length; }).map(function (r) { return r.tenant; })).size;
      var items = [
        ["Command", report.command],
        ["Started", report.startedAt ? new Date(report.startedAt).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") : "-"],
        ["Duration", report.durationMs ? secs(report.durationMs) : "-"],
        ["Fleet", report.fleet.tenants + " tenants in " + report.fleet.shards + " shards"],
        ["In this report", view.rows.length + " tenants"],
        ["Without findings", ok],
        ["Exit code", report.exitCode]
      ];
      $("run").innerHTML = items.map(function (kv) {
        return "<div><dt>" + esc(kv[0]) + "</dt><dd data-field=\"" + esc(kv[0].toLowerCase().replace(/ /g, "-")) + "\">" + esc(kv[1]) + "</dd></div>";
      }).join("");
    }

    function statusButtons() {
      var html = "<button type=\"button\" data-status=\"\" aria-pressed=\"true\">All<span class=\"n\">" + view.rows.length + "</span></button>";
      KEYS.forEach(function (k) {
        html += "<button type=\"button\" data-status=\"" + k + "\" aria-pressed=\"false\">" + LABEL[k] + "<span class=\"n\" data-count=\"" + k + "\">" + view.counts[k] + "</span></button>";
      });
      $("statuses").innerHTML = html;
      $("statuses").addEventListener("click", function (e) {
        var b = e.target.closest("button");
        if (!b) return;
        var s = b.getAttribute("data-status");
        state.status = state.status === s ? "" : s;
        Array.prototype.forEach.call($("statuses").querySelectorAll("button"), function (x) {
          x.setAttribute("aria-pressed", String(x.getAttribute("data-status") === state.status));
        });
        refilter();
      });
    }

    function shardSelect() {
      var sel = $("shard");
      sel.insertAdjacentHTML("beforeend", view.shards.map(function (s) { return "<option>" + esc(s) + "</option>"; }).join(""));
      sel.addEventListener("change", function () { state.shard = sel.value; refilter(); });
      var timer = 0;
      $("search").addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () { state.q = $("search").value.trim().toLowerCase(); refilter(); }, 60);
      });
    }

    function cmp(a, b) {
      var k = state.key, x = a[k], y = b[k];
      if (k === "statuses") { x = x.length; y = y.length; }
      var c = typeof x === "number" ? x - y : x < y ? -1 : x > y ? 1 : 0;
      if (c === 0 && k !== "tenant") c = a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0;
      return c * state.dir;
    }

    function refilter() {
      var q = state.q, st = state.status, sh = state.shard;
      state.rows = view.rows.filter(function (r) {
        return (!st || r.statuses.indexOf(st) >= 0) && (!sh || r.shard === sh) &&
          (!q || r.tenant.toLowerCase().indexOf(q) >= 0 || r.shard.toLowerCase().indexOf(q) >= 0);
      });
      state.rows.sort(cmp);
      $("tenants").setAttribute("aria-rowcount", String(state.rows.length + 1));
      $("shown").textContent = "Showing " + state.rows.length + " of " + view.rows.length + " tenants";
      $("shown").setAttribute("data-shown", String(state.rows.length));
      $("scroller").scrollTop = 0;
      paint();
    }

    function badges(r) {
      if (!r.statuses.length) return "<span class=\"ok\">ok</span>";
      return r.statuses.map(function (s) { return "<span class=\"b " + s + "\">" + LABEL[s] + "</span>"; }).join("");
    }

    var painted = "";
    function paint() {
      var sc = $("scroller"), n = state.rows.length;
      var first = Math.max(0, Math.floor(sc.scrollTop / ROW_H) - OVERSCAN);
      var last = Math.min(n, Math.ceil((sc.scrollTop + sc.clientHeight) / ROW_H) + OVERSCAN);
      var key = first + ":" + last + ":" + n + ":" + state.key + state.dir + state.status + state.shard + state.q;
      if (key === painted) return;
      painted = key;
      var html = "";
      if (first > 0) html += "<tr class=\"spacer\" aria-hidden=\"true\"><td colspan=\"7\" style=\"height:" + first * ROW_H + "px\"></td></tr>";
      for (var i = first; i < last; i++) {
        var r = state.rows[i];
        html += "<tr data-tenant=\"" + esc(r.tenant) + "\" aria-rowindex=\"" + (i + 2) + "\">" +
          "<td><button type=\"button\" data-open=\"" + esc(r.tenant) + "\">" + esc(r.tenant) + "</button></td>" +
          "<td>" + esc(r.shard) + "</td><td>" + badges(r) + "</td>" +
          "<td class=\"num\">" + r.changed + "</td><td class=\"num\">" + r.drifted + "</td>" +
          "<td>" + esc(r.dns || "-") + "</td><td class=\"num\">" + r.leftovers + "</td></tr>";
      }
      if (last < n) html += "<tr class=\"spacer\" aria-hidden=\"true\"><td colspan=\"7\" style=\"height:" + (n - last) * ROW_H + "px\"></td></tr>";
      if (n === 0) html = "<tr><td colspan=\"7\">No tenant matches.</td></tr>";
      $("rows").innerHTML = html;
    }

    function sorting() {
      var ths = document.querySelectorAll("#tenants thead th");
      Array.prototype.forEach.call(ths, function (th) {
        th.querySelector("button").addEventListener("click", function () {
          var k = th.getAttribute("data-key");
          state.dir = state.key === k ? -state.dir : (k === "tenant" || k === "shard" || k === "dns" ? 1 : -1);
          state.key = k;
          Array.prototype.forEach.call(ths, function (x) { x.removeAttribute("aria-sort"); });
          th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
          refilter();
        });
      });
      ths[0].setAttribute("aria-sort", "ascending");
      var pending = false;
      $("scroller").addEventListener("scroll", function () {
        if (pending) return;
        pending = true;
        requestAnimationFrame(function () { pending = false; paint(); });
      });
      window.addEventListener("resize", paint);
      $("rows").addEventListener("click", function (e) {
        var b = e.target.closest("button[data-open]");
        if (b) openTenant(b.getAttribute("data-open"));
      });
    }

    function buildIndex() {
      var idx = new Map();
      function of(t) { var x = idx.get(t); if (!x) { x = { changes: [], drift: [], dns: null, leftovers: [], unmanaged: [] }; idx.set(t, x); } return x; }
      report.changes.forEach(function (c) { of(c.tenant).changes.push(c); });
      report.leftovers.forEach(function (l) { of(l.tenant).leftovers.push(l); });
      if (report.drift) {
        report.drift.drift.forEach(function (d) { of(d.tenant).drift.push(d); });
        report.drift.unmanaged.forEach(function (u) { of(u.tenant || "").unmanaged.push(u); });
      }
      (report.dns || []).forEach(function (t) { of(t.tenant).dns = t; });
      return idx;
    }

    function shown(v) { var t = typeof v === "string" ? v : JSON.stringify(v); return t.length > 120 ? t.slice(0, 119) + "\u2026" : t; }

    function table(head, rows) {
      return "<table><thead><tr>" + head.map(function (h) { return "<th scope=\"col\">" + esc(h) + "</th>"; }).join("") +
        "</tr></thead><tbody>" + rows.map(function (r) { return "<tr>" + r.map(function (c) { return "<td>" + c + "</td>"; }).join("") + "</tr>"; }).join("") + "</tbody></table>";
    }

    function leftoverHtml(list, unmanaged) {
      var items = list.map(function (l) {
        return "<li>" + esc(l.kind) + " <code>" + esc(l.id) + "</code>" +
          (l.deleteLine ? "<pre>" + esc(l.deleteLine) + "</pre>" : "") + (l.importLine ? "<pre>" + esc(l.importLine) + "</pre>" : "") + "</li>";
      }).concat(unmanaged.map(function (u) {
        return "<li>" + esc(u.kind) + " <code>" + esc(u.id) + "</code> " + esc(u.title) + (u.policy ? " <span class=\"muted\">(" + esc(u.policy) + ")</span>" : "") +
          "<pre>" + esc(u.importLine) + "</pre></li>";
      }));
      return "<ul class=\"leftovers\">" + items.join("") + "</ul>";
    }

    function openTenant(t) {
      index = index || buildIndex();
      var x = index.get(t) || { changes: [], drift: [], dns: null, leftovers: [], unmanaged: [] };
      var row = view.rows.find(function (r) { return r.tenant === t; });
      var html = "<h2 id=\"h-detail\">Tenant " + esc(t) + "</h2><p>Shard " + esc(row ? row.shard : "-") + " \u00b7 " + (row ? badges(row) : "") + "</p>";
      html += "<h3>Resources</h3>";
      var res = x.changes.map(function (c) {
        return [esc(c.resource), esc(c.kind), "<span class=\"b " + (c.op === "failed" ? "failed" : "changed") + "\">" + esc(c.op) + "</span>",
          esc(c.fields.join(", ") || "-"), esc(c.error || "")];
      }).concat(x.drift.map(function (d) {
        var what = d.status === "failed" ? (d.error || "its refresh failed") : d.status === "deleted" ? "deleted at the service" :
          d.fields.map(function (f) { return f.field + ": " + shown(f.recorded) + " \u2192 " + shown(f.service); }).join("; ");
        return [esc(d.resource), esc(d.kind), "<span class=\"b " + (d.status === "failed" ? "failed" : "drifted") + "\">drift: " + esc(d.status) + "</span>",
          esc(d.fields.map(function (f) { return f.field; }).join(", ") || "-"), esc(what)];
      }));
      html += res.length ? "<div class=\"detail\">" + table(["Resource", "Kind", "Step", "Fields changed", "Detail"], res) + "</div>" : "<p>No resource changed or drifted.</p>";
      html += "<h3>DNS</h3>";
      if (!x.dns) html += "<p>Not read in this run (txmail-fleet dns reads it).</p>";
      else {
        var d = x.dns;
        html += "<p>" + esc(d.domain || "no domain") + " \u00b7 " + esc(d.status) + (d.lastCheckedAt ? " \u00b7 last checked " + esc(d.lastCheckedAt) : "") + (d.note ? " \u00b7 " + esc(d.note) : "") + "</p>";
        if (d.records.length) html += "<div class=\"detail\">" + table(["Label", "Type", "Host", "Value", "Required", "Seen by the service"], d.records.map(function (r) {
          return [esc(r.label || "-"), esc(r.type), "<code>" + esc(r.host) + "</code>", "<code>" + esc(r.value) + "</code>", r.required ? "yes" : "no",
            r.propagated ? "<span class=\"ok\">seen</span>" : "<strong>not seen</strong>"];
        })) + "</div>";
      }
      html += "<h3>Likely leftovers</h3>";
      html += x.leftovers.length + x.unmanaged.length ? leftoverHtml(x.leftovers, x.unmanaged) : "<p>None.</p>";
      $("detail").innerHTML = html;
      $("detail").classList.add("detail");
    }

    function chart() {
      var shards = report.shards.filter(function (s) { return s.runningMs != null; });
      if (!shards.length) { $("chart").innerHTML = "<p>This report has no shard times (the JSON of a dns or drift run alone).</p>"; return; }
      var measuredLimit = shards.some(function (s) { return s.limitWaitMs != null; });
      var max = Math.max.apply(null, shards.map(function (s) { return (s.queuedMs || 0) + (s.limitWaitMs || 0) + s.runningMs; })) || 1;
      var W = 1000, L = 110, BH = 12, G = 4, H = shards.length * (BH + G) + 24, scale = (W - L - 10) / max;
      var svg = "";
      shards.forEach(function (s, i) {
        var y = i * (BH + G), x = L;
        svg += "<text x=\"" + (L - 6) + "\" y=\"" + (y + BH - 2) + "\" text-anchor=\"end\">" + esc(s.shard) + "</text>";
        [["queued", s.queuedMs || 0, "#6e7781"], ["limit", s.limitWaitMs || 0, "#b35900"], ["running", s.runningMs, s.ok ? "#0b5cad" : "#b3261e"]].forEach(function (p) {
          if (!p[1]) return;
          var w = Math.max(1, p[1] * scale);
          svg += "<rect x=\"" + x.toFixed(1) + "\" y=\"" + y + "\" width=\"" + w.toFixed(1) + "\" height=\"" + BH + "\" fill=\"" + p[2] + "\"><title>" + esc(s.shard + " " + p[0] + ": " + secs(p[1])) + "</title></rect>";
          x += w;
        });
      });
      var ticks = "";
      for (var t = 0; t <= 4; t++) {
        var tx = L + (W - L - 10) * t / 4;
        ticks += "<text x=\"" + tx.toFixed(1) + "\" y=\"" + (H - 6) + "\" text-anchor=\"middle\">" + secs(max * t / 4) + "</text>";
      }
      var total = shards.reduce(function (a, s) { return a + s.runningMs; }, 0), queued = shards.reduce(function (a, s) { return a + (s.queuedMs || 0); }, 0);
      $("chart").innerHTML =
        "<p>" + shards.length + " shards ran: " + secs(total) + " running in all, " + secs(queued) + " queued for a free lane" +
        (measuredLimit ? "" : "; time waiting on the service's rate limit is not measured by this run") + ".</p>" +
        "<div class=\"legend\"><span style=\"--c:#6e7781\">queued</span>" + (measuredLimit ? "<span style=\"--c:#b35900\">waiting on the service's limit</span>" : "") +
        "<span style=\"--c:#0b5cad\">running</span><span style=\"--c:#b3261e\">running, failed</span></div>" +
        "<div class=\"chartbox\"><svg role=\"img\" aria-label=\"Each shard's time queued and running, longest " + esc(secs(max)) + "\" viewBox=\"0 0 " + W + " " + H + "\" width=\"100%\" font-size=\"11\" fill=\"#1b1f24\">" + svg + ticks + "</svg></div>";
    }

    function compare() {
      if (!comparison) return;
      var c = comparison, sec = $("compare");
      var rows = KEYS.map(function (k) {
        var n = c.counts[k], d = n.now - n.before;
        var names = function (list) { return list.length ? esc(list.slice(0, 20).join(", ")) + (list.length > 20 ? " and " + (list.length - 20) + " more" : "") : "-"; };
        return [LABEL[k], String(n.before), String(n.now), (d > 0 ? "+" : "") + d, names(c.entered[k]), names(c.left[k])];
      });
      sec.innerHTML = "<h2 id=\"h-compare\">Since the previous run</h2><p>Previous: " + esc(c.previous.command) + " at " + esc(c.previous.startedAt || "-") +
        "; tenants added: " + c.added.length + ", removed: " + c.removed.length + ".</p><div class=\"detail\">" +
        table(["Status", "Before", "Now", "Change", "New", "Cleared"], rows) + "</div>";
      sec.hidden = false;
    }

    function account() {
      var x = (index = index || buildIndex()).get("");
      var notListed = report.drift ? report.drift.notListed.length : 0;
      var unchecked = report.drift ? report.drift.unchecked : [];
      var failedShards = report.shards.filter(function (s) { return !s.ok && s.error; });
      if (!x && !notListed && !unchecked.length && !failedShards.length) return;
      var html = "<h2 id=\"h-account\">Account and fleet-wide findings</h2>";
      if (x && x.leftovers.length + x.unmanaged.length) html += "<h3>Objects no tenant holds</h3>" + leftoverHtml(x.leftovers, x.unmanaged);
      if (unchecked.length) html += "<h3>Shards not checked</h3><ul>" + unchecked.map(function (u) { return "<li>" + esc(u.shard) + ": " + esc(u.error) + "</li>"; }).join("") + "</ul>";
      if (failedShards.length) html += "<h3>Shards that failed</h3><ul>" + failedShards.map(function (s) { return "<li>" + esc(s.shard) + ": " + esc(s.error) + "</li>"; }).join("") + "</ul>";
      if (notListed) html += "<p>" + notListed + " families of objects were not listed by the inventory (not a failure; see the JSON report).</p>";
      $("account").innerHTML = html;
      $("account").hidden = false;
    }

    header();
    statusButtons();
    shardSelect();
    sorting();
    refilter();
    chart();
    compare();
    account();
    document.body.setAttribute("data-ready", "1");
    performance.mark("txmail-ready");
  }
})();
`;
