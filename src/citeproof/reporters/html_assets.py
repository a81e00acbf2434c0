"""The HTML report's inline style sheet and script, and the Content-Security-Policy that allows only them.

The page loads nothing: no fonts, images or scripts from anywhere. The policy names the exact style
sheet and script by their SHA-256 hashes, so even text that escaped escaping could not run or style
anything. The script only adds conveniences (open a claim's card when a link to it is followed,
expand or collapse all cards); everything else works without it.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
:root{color-scheme:light dark;--bg:#f6f8fa;--fg:#1f2328;--muted:#59636e;--card:#fff;--line:#d1d9e0;--soft:#eef1f4;
--accent:#0969da;--code:#eff2f5;--ok:#1a7f37;--bad:#cf222e;
--st-verified:#1a7f37;--st-verified-bg:#dafbe1;--st-uncited:#9a6700;--st-uncited-bg:#fff8c5;
--st-invalid_citation:#8250df;--st-invalid_citation-bg:#fbefff;--st-missing_evidence:#cf222e;--st-missing_evidence-bg:#ffebe9;
--st-unsupported:#bc4c00;--st-unsupported-bg:#fff1e5;--st-contradicted:#a40e26;--st-contradicted-bg:#ffe3e6;
--st-unverified_observation:#57606a;--st-unverified_observation-bg:#eaeef2}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#151b23;--line:#3d444d;--soft:#212830;
--accent:#4493f8;--code:#262c36;--st-verified:#3fb950;--st-verified-bg:#12261e;--st-uncited:#d29922;--st-uncited-bg:#272115;
--st-invalid_citation:#ab7df8;--st-invalid_citation-bg:#231c33;--st-missing_evidence:#f85149;--st-missing_evidence-bg:#2d1519;
--st-unsupported:#db6d28;--st-unsupported-bg:#2b1d14;--st-contradicted:#ff7b72;--st-contradicted-bg:#33161b;
--st-unverified_observation:#9198a1;--st-unverified_observation-bg:#212830}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);
font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent)}
code,.mono,pre{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
code{background:var(--code);border-radius:4px;padding:.1em .35em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted{color:var(--muted)}
header.summary{background:var(--card);border-bottom:1px solid var(--line);padding:24px 32px 20px}
.top{display:flex;align-items:center;gap:14px;flex-wrap:wrap}
.top h1{font-size:20px;margin:0;font-weight:600}
.verdict{font-weight:700;letter-spacing:.06em;padding:5px 14px;border-radius:6px;color:#fff;font-size:15px}
.verdict.passed{background:var(--ok)}.verdict.blocked{background:var(--bad)}
.message{margin:10px 0 16px;font-size:15px}
.stats{display:flex;flex-wrap:wrap;gap:12px;margin:0}
.stats>div{background:var(--soft);border-radius:8px;padding:8px 16px;min-width:120px}
.stats dt{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.stats dd{margin:0;font-size:22px;font-weight:600}
.stats dd small{font-size:12px;font-weight:400;color:var(--muted)}
.rate svg{display:block;margin-top:4px}
.rate .track{fill:var(--line)}.rate .fill.passed{fill:var(--ok)}.rate .fill.blocked{fill:var(--bad)}
.rate .thr{stroke:var(--fg);stroke-width:2}
.chips{display:flex;flex-wrap:wrap;gap:8px;margin:14px 0 0;padding:0;list-style:none}
nav.toc{margin-top:14px;font-size:13px}nav.toc a{margin-right:14px}
main{padding:20px 32px 40px;max-width:1600px}
section{margin:0 0 28px}
h2{font-size:17px;margin:0 0 10px;font-weight:600}
.panel{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 16px}
.split{display:grid;grid-template-columns:minmax(0,5fr) minmax(0,6fr);gap:20px;align-items:start}
@media (max-width:1100px){.split{grid-template-columns:minmax(0,1fr)}}
.doc{padding:8px 0;max-height:80vh;overflow:auto;position:sticky;top:12px}
.ln{display:flex;gap:10px;padding:1px 12px 1px 0;font-size:13.5px;line-height:1.65}
.ln .lno{flex:0 0 40px;text-align:right;color:var(--muted);font:12px/2 ui-monospace,monospace;user-select:none}
.ln .src{white-space:pre-wrap;overflow-wrap:anywhere;min-width:0}
.ln.h1 .src{font-size:18px;font-weight:700}.ln.h2 .src,.ln.h3 .src{font-weight:650;font-size:15px}
.ln:target{background:var(--soft)}
.mark{color:inherit;text-decoration:none;border-radius:3px;padding:1px 0;background:var(--st-bg);box-shadow:inset 0 -2px 0 var(--st)}
.mark:hover,.mark:focus-visible{outline:2px solid var(--st);outline-offset:1px}
.mark-label{text-decoration:none}
.tag{display:inline-block;font:600 11px/1.5 system-ui,sans-serif;color:#fff;background:var(--st);border-radius:9px;padding:0 6px;
margin-right:4px;vertical-align:1px;white-space:nowrap}
.st-verified{--st:var(--st-verified);--st-bg:var(--st-verified-bg)}
.st-uncited{--st:var(--st-uncited);--st-bg:var(--st-uncited-bg)}
.st-invalid_citation{--st:var(--st-invalid_citation);--st-bg:var(--st-invalid_citation-bg)}
.st-missing_evidence{--st:var(--st-missing_evidence);--st-bg:var(--st-missing_evidence-bg)}
.st-unsupported{--st:var(--st-unsupported);--st-bg:var(--st-unsupported-bg)}
.st-contradicted{--st:var(--st-contradicted);--st-bg:var(--st-contradicted-bg)}
.st-unverified_observation{--st:var(--st-unverified_observation);--st-bg:var(--st-unverified_observation-bg)}
.badge{display:inline-flex;align-items:center;gap:4px;font-weight:600;font-size:12px;border-radius:12px;padding:1px 9px;
color:var(--st);background:var(--st-bg);border:1px solid var(--st);white-space:nowrap}
.tools{display:flex;gap:8px;align-items:center;margin:0 0 10px;flex-wrap:wrap;font-size:13px}
.tools button{font:inherit;background:var(--card);color:var(--fg);
border:1px solid var(--line);border-radius:6px;padding:3px 10px;cursor:pointer}
body:has(#only-failing:checked) .claim.st-verified{display:none}
.claims{display:flex;flex-direction:column;gap:8px}
details.claim{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--st);border-radius:8px}
details.claim:target{box-shadow:0 0 0 3px var(--st-bg),0 0 0 4px var(--st)}
details.claim>summary{cursor:pointer;padding:10px 14px;list-style:none;display:grid;grid-template-columns:auto 1fr;gap:4px 10px}
details.claim>summary::-webkit-details-marker{display:none}
details.claim>summary:focus-visible{outline:2px solid var(--accent);outline-offset:-2px;border-radius:8px}
summary .head{grid-row:1 / span 3;display:flex;flex-direction:column;align-items:flex-start;gap:4px;min-width:150px}
summary .cid{font-weight:700}summary .where{font-size:12px;color:var(--muted)}
summary .text{overflow-wrap:anywhere}
summary .why{grid-column:2;font-size:13px;color:var(--st)}
summary .more{grid-column:2;font-size:12px;color:var(--accent)}
details[open]>summary .more .closed,details:not([open])>summary .more .opened{display:none}
.body{padding:0 14px 12px 14px;border-top:1px solid var(--line)}
.cites{list-style:none;margin:10px 0 0;padding:0;display:flex;flex-direction:column;gap:10px}
.cite{border:1px solid var(--line);border-radius:6px;padding:8px 10px}
.cite .ch{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center}
.cite .ok{color:var(--ok);font-weight:600}.cite .no{color:var(--bad);font-weight:600}
.cite p{margin:6px 0 0}
pre.excerpt{margin:8px 0 0;padding:8px 10px;background:var(--code);border-radius:6px;
white-space:pre-wrap;overflow-wrap:anywhere;max-height:320px;overflow:auto}
.checks{font-size:12px;color:var(--muted);margin-top:6px}
.suggest{background:var(--st-verified-bg);border-radius:6px;padding:4px 8px;display:inline-block}
.fix{margin:10px 0 0}.fix h3{font-size:13px;margin:0 0 4px}.fix ul{margin:0;padding-left:20px}
.contras{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:8px}
.contra{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:8px;padding:10px 14px}
.contra:target{box-shadow:0 0 0 3px var(--st-contradicted-bg)}
.contra .rule{font-weight:700;text-transform:capitalize}
.contra p{margin:4px 0 0}
svg.timeline{width:100%;height:auto;display:block;font:12px system-ui,sans-serif}
svg .grid{stroke:var(--line);stroke-dasharray:2 3}svg .tick{fill:var(--muted)}
svg .base{stroke:var(--line)}svg .band{fill:transparent}svg a.row:hover .band,svg a.row:focus .band{fill:var(--soft)}
svg .rowlabel{fill:var(--st);font-weight:700}
svg .event{fill:var(--st,var(--muted));stroke:var(--card);stroke-width:1.5}
svg .stated{fill:var(--card);stroke:var(--st,var(--fg));stroke-width:2.2}
.legend{font-size:12.5px;display:flex;gap:18px;flex-wrap:wrap;align-items:center;margin:8px 0 0}
.legend .key{display:inline-flex;gap:6px;align-items:center}.legend svg{--st:var(--fg)}
.tl-table{margin-top:8px;font-size:13px}
table{border-collapse:collapse;width:100%;margin-top:6px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
td.wrap{overflow-wrap:anywhere}
ol.recovery{margin:0;padding-left:22px}ol.recovery li{margin:3px 0}
footer{color:var(--muted);font-size:12px;padding:0 32px 24px}
@media print{.tools,nav.toc{display:none}.doc{max-height:none;position:static}}
"""

JS = """
(function () {
  function openClaim(id) {
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  function fromHash() { openClaim(decodeURIComponent(location.hash.slice(1))); }
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("a[href^='#']");
    if (link) { openClaim(decodeURIComponent(link.getAttribute("href").slice(1))); }
  });
  document.querySelectorAll("[data-all]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var open = button.getAttribute("data-all") === "open";
      document.querySelectorAll("details.claim").forEach(function (d) { d.open = open; });
    });
  });
  fromHash();
})();
"""


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


CSP = (
    f"default-src 'none'; style-src {_sha256(CSS)}; script-src {_sha256(JS)}; img-src data:; "
    "base-uri 'none'; form-action 'none'"
)
