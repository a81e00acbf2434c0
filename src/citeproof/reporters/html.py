"""``--format html``: one self-contained page for an engineer reviewing an agent's findings.

* **Summary**: PASSED or BLOCKED, the decision's message, the verification rate against the
  threshold, and the counts (claims, verified, failed, contradictions, uncited, unverified observations).
* **Findings and claims**: the findings file with each claim highlighted by status (colour, a ✔/✘/?
  mark and its id; the status in words for screen readers and on hover), next to one card per claim.
  A card shows the status in words and why; opening it (click, or Enter/Space on the focused card)
  shows each citation with its check result, the evidence excerpt, the suggested correction and the
  sub-checks, then how to fix the claim. Following a highlighted claim opens its card.
* **Contradictions**, each linked to its claims; **a timeline** (inline SVG) of the instants the
  claims state against the event times of the evidence they cite; **recovery options**, unverified
  observations and warnings.

The page is one file: inline CSS and a small inline script, no network access (a Content-Security-
Policy forbids it and allows only that style sheet and script). Without JavaScript everything is still
there (cards open natively); the script only opens the card a link points at and adds expand/collapse
buttons. All claim and evidence text is HTML-escaped: a ``<script>`` in a log line is shown, never run.

The findings view needs the findings text: it is given to the constructor (``findings_text=``) or read
from the findings file the report names (``Report.source``) when the claims are still at their
recorded positions; otherwise the claims are listed in reading order.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import TextIO

from ..model import CitationResult, ClaimResult, ClaimStatus, ContradictionFinding, Report, Verdict
from . import html_document, html_timeline
from .base import Reporter
from .common import STATUS_LABEL, failing, one_line, report_context, split_command, status_counts
from .html_assets import CSP, CSS, JS
from .html_document import GLYPH

_CODE = re.compile(r"`([^`]+)`")
_SAFE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


def inline(text: str) -> str:
    """Escaped text with `code spans` as <code>."""
    out, pos = [], 0
    for m in _CODE.finditer(text):
        out.append(escape(text[pos:m.start()]))
        out.append(f"<code>{escape(m.group(1))}</code>")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def option(text: str) -> str:
    """A recovery option, escaped, with the shell command in it (if any) as <code>."""
    parts = split_command(text)
    if parts is None:
        return inline(text)
    lead, cmd, tail = parts
    return f"{escape(lead)}<code>{escape(cmd)}</code>" + (f" {escape(tail)}" if tail else "")


def anchors_for(claims: list[ClaimResult]) -> dict[str, str]:
    """A unique, URL-safe element id per claim id (``claim-c5``; by position when the id is unusual)."""
    out: dict[str, str] = {}
    for n, claim in enumerate(claims, 1):
        wanted = f"claim-{claim.id}" if _SAFE_ID.match(claim.id) else f"claim-{n}"
        out.setdefault(claim.id, wanted if wanted not in out.values() else f"claim-{n}")
    return out


class HtmlReporter(Reporter):
    name = "html"
    description = "self-contained HTML page: findings highlighted by status, evidence on demand, timeline"

    def __init__(self, color: bool = False, *, findings_text: str | None = None, title: str | None = None) -> None:
        super().__init__(color)
        self.findings_text = findings_text
        self.title = title

    def write(self, report: Report, stream: TextIO) -> None:
        stream.write(self.page(report))

    def page(self, report: Report) -> str:
        source = report_context(report).source
        claims = [*report.claims, *report.unverified_observations]
        anchors = anchors_for(claims)
        text = self.findings_text if self.findings_text is not None else _read_findings(source, claims)
        name = self.title or (Path(source).name if source else "")
        verdict = report.status.value
        doc = html_document.render(text, claims, anchors) if text is not None else ""
        cards = "".join(_card(c, anchors, report.contradiction_findings) for c in claims)
        left = f'<div class="panel doc" aria-label="Findings file">{doc}</div>' if doc else ""
        body = (
            f"{_summary(report, name)}<main>"
            f'<section id="claims" aria-labelledby="h-claims"><h2 id="h-claims">Findings and claims</h2>'
            f'<div class="{"split" if doc else ""}">{left}<div>{_tools()}<div class="claims">{cards}</div></div></div></section>'
            f"{_contradictions(report.contradiction_findings, anchors)}"
            f'<section id="timeline" aria-labelledby="h-timeline"><h2 id="h-timeline">Timeline</h2><div class="panel">'
            f"{html_timeline.render(html_timeline.collect(report), anchors)}</div></section>"
            f"{_list_section('recovery', 'Recovery options', report.recovery_options, ordered=True)}"
            f"{_list_section('warnings', 'Warnings', report.warnings)}"
            f"</main><footer>citeproof {escape(report.tool_version)} · threshold {report.threshold:.2f} · "
            f"generated offline; this file loads nothing from the network.</footer>"
        )
        return (
            "<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="referrer" content="no-referrer">'
            f"<title>{escape(verdict)} · {escape(name or 'findings')} · citeproof</title><style>{CSS}</style></head>"
            f'<body class="{verdict.lower()}">{body}<script>{JS}</script></body></html>\n'
        )


def _read_findings(source: str | None, claims: list[ClaimResult]) -> str | None:
    """The findings file the report names, if it still holds every located claim where the report says."""
    if not source:
        return None
    try:
        text = Path(source).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    starts = [0] + [m.end() for m in re.finditer("\n", normalized)]
    placed = [c for c in claims if c.line > 0]
    ok = all(html_document.locate(normalized, c, starts) is not None for c in placed)
    return text if placed and ok else None


def _summary(report: Report, name: str) -> str:
    verdict = report.status.value
    cls = "passed" if report.status is Verdict.PASSED else "blocked"
    failed = len(failing(report))
    rate = report.verification_rate
    bar = (f'<svg width="160" height="8" aria-hidden="true"><rect class="track" width="160" height="8" rx="4"/>'
           f'<rect class="fill {cls}" width="{round(160 * min(max(rate, 0.0), 1.0), 1)}" height="8" rx="4"/>'
           f'<line class="thr" x1="{round(160 * report.threshold, 1)}" x2="{round(160 * report.threshold, 1)}" y1="0" y2="8"/></svg>')
    stats = [
        ("Verification rate", f'{rate:.1%} <small>threshold {report.threshold:.0%}</small>{bar}', "rate"),
        ("Verified", f"{report.verified_claims} <small>of {report.total_claims} claims</small>", ""),
        ("Failed", str(failed), ""),
        ("Contradictions", str(report.contradictions), ""),
        ("Uncited", str(report.uncited_claims), ""),
        ("Unverified observations", str(len(report.unverified_observations)), ""),
    ]
    dl = "".join(f'<div class="{c}"><dt>{label}</dt><dd>{value}</dd></div>' for label, value, c in stats)
    chips = "".join(
        f'<li><span class="badge st-{status.value}"><span aria-hidden="true">{GLYPH[status]}</span> {n} '
        f"{escape(STATUS_LABEL[status].lower())}</span></li>"
        for status, n in status_counts(report).items()
    )
    links = ['<a href="#claims">Claims</a>']
    links += ['<a href="#contradictions">Contradictions</a>'] if report.contradiction_findings else []
    links += ['<a href="#timeline">Timeline</a>']
    links += ['<a href="#recovery">Recovery options</a>'] if report.recovery_options else []
    links += ['<a href="#warnings">Warnings</a>'] if report.warnings else []
    return (
        f'<header class="summary" aria-label="Summary"><div class="top"><span class="verdict {cls}" id="verdict" '
        f'role="status">{escape(verdict)}</span><h1>Evidence check{" of " + escape(name) if name else ""}</h1></div>'
        f'<p class="message">{escape(report.message.split(": ", 1)[-1])}</p><dl class="stats">{dl}</dl>'
        f'<ul class="chips" aria-label="Claims by status">{chips}</ul>'
        f'<nav class="toc" aria-label="Sections">{" ".join(links)}</nav></header>'
    )


def _tools() -> str:
    return ('<div class="tools"><label><input type="checkbox" id="only-failing"> Only claims that failed</label>'
            '<button type="button" data-all="open" hidden>Expand all</button>'
            '<button type="button" data-all="close" hidden>Collapse all</button></div>')


def _card(claim: ClaimResult, anchors: dict[str, str], findings: list[ContradictionFinding]) -> str:
    status = claim.status
    where = f"line {claim.line}" if claim.line else "no line"
    why = "" if status is ClaimStatus.VERIFIED else f'<span class="why">{escape(one_line(claim.reason, 240))}</span>'
    n = len(claim.citations)
    shown = f"Show {n} citation{'s' if n != 1 else ''} and evidence" if n else "Show how to fix"
    more = (f'<span class="more"><span class="closed">{shown}</span><span class="opened">Hide details</span></span>'
            if n or claim.recovery else "")
    summary = (
        f'<summary><span class="head"><span class="badge st-{status.value}"><span aria-hidden="true">{GLYPH[status]}</span> '
        f'{escape(STATUS_LABEL[status])}</span>'
        f'<span><span class="cid">{escape(claim.id)}</span> <span class="where">{where}</span></span></span>'
        f'<span class="text">{inline(claim.claim)}</span>{why}{more}</summary>'
    )
    cites = "".join(_citation(c) for c in claim.citations)
    body = f'<ol class="cites">{cites}</ol>' if cites else '<p class="muted">No citation.</p>'
    if claim.recovery:
        fixes = "".join(f"<li>{option(r)}</li>" for r in claim.recovery)
        body += f'<div class="fix"><h3>How to fix</h3><ul>{fixes}</ul></div>'
    related = [(k, f) for k, f in enumerate(findings, 1) if claim.id in f.claims]
    if related:
        links = ", ".join(f'<a href="#contra-{k}">{escape(f.rule)} contradiction with '
                          f'{escape(", ".join(c for c in f.claims if c != claim.id) or "its evidence")}</a>' for k, f in related)
        body += f'<p class="fix">In {links}.</p>'
    return (f'<details class="claim st-{status.value}" id="{escape(anchors[claim.id])}" data-status="{status.value}">'
            f'{summary}<div class="body">{body}</div></details>')


def _citation(c: CitationResult) -> str:
    state = ('<span class="ok">✔ supports the claim</span>' if c.evidence_supports else
             '<span class="no">✘ malformed</span>' if not c.format_valid else
             '<span class="no">✘ not found in the bundle</span>' if not c.citation_exists else
             '<span class="no">✘ does not support the claim</span>')
    where = f'<span class="muted mono">{escape(c.location)}</span>' if c.location else ""
    parts = [f'<li class="cite"><div class="ch"><code>{escape(c.citation)}</code><span class="muted">{escape(c.citation_format)}</span>'
             f"{state}{where}</div><p>{escape(c.reason)}</p>"]
    if c.excerpt:
        parts.append(f'<pre class="excerpt" aria-label="Evidence excerpt">{escape(c.excerpt)}</pre>')
    if c.suggestion:
        parts.append(f'<p><span class="suggest">Suggested citation: <code>{escape(c.suggestion)}</code></span></p>')
    if c.checks:
        marks = " · ".join(f"{'✔' if s.ok else '✘' if s.ok is False else '–'} {escape(s.name)}"
                           + (f" ({escape(one_line(s.detail, 80))})" if s.detail else "") for s in c.checks)
        parts.append(f'<div class="checks">Checks: {marks}</div>')
    return "".join(parts) + "</li>"


def _contradictions(findings: list[ContradictionFinding], anchors: dict[str, str]) -> str:
    if not findings:
        return ""
    items = []
    for k, f in enumerate(findings, 1):
        links = ", ".join(f'<a href="#{escape(anchors[c])}">{escape(c)}</a>' if c in anchors else escape(c) for c in f.claims)
        evidence = f'<pre class="excerpt">{escape(f.evidence)}</pre>' if f.evidence else ""
        items.append(f'<li class="contra" id="contra-{k}"><span class="rule">{escape(f.rule)}</span> · claims {links}'
                     f"<p>{escape(f.detail)}</p><p><strong>Resolution:</strong> {escape(f.resolution)}</p>{evidence}</li>")
    return (f'<section id="contradictions" aria-labelledby="h-contra"><h2 id="h-contra">Contradictions ({len(findings)})</h2>'
            f'<ol class="contras">{"".join(items)}</ol></section>')


def _list_section(anchor: str, title: str, items: list[str], ordered: bool = False) -> str:
    if not items:
        return ""
    tag = "ol" if ordered else "ul"
    lis = "".join(f"<li>{option(i)}</li>" for i in items)
    return (f'<section id="{anchor}" aria-labelledby="h-{anchor}"><h2 id="h-{anchor}">{title}</h2>'
            f'<div class="panel"><{tag} class="recovery">{lis}</{tag}></div></section>')
