"""The HTML report's timeline: the instants the claims cite, against the evidence's events, as inline SVG.

For each claim (counted claims, then unverified observations) two kinds of instants are collected:

* **stated**: what the claim says, read from its text and its ``timestamp:`` citations: ISO
  instants (``2026-01-15T10:30:45Z``) and times of day (``at 10:30:45 UTC``), the latter placed on the
  date of the claim's own evidence, or the date most of the report's evidence is from;
* **evidence**: the event times on the lines and HAR entries its citations resolved to, read from
  each excerpt line with the log timestamp formats of :mod:`citeproof.evidence.timestamps`.

A claim with neither has no row. Times without a zone are read as UTC (the default ``assume_tz``).
The SVG is static (no script): each row links to its claim, and each marker has a tooltip naming the
instant and its source; the same data is given as a table for screen readers and copying.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from html import escape

from ..evidence.timestamps import stamps_in
from ..model import ClaimResult, ClaimStatus, Report
from .common import STATUS_LABEL, evidence_spot, one_line

_TIME_OF_DAY = re.compile(
    r"(?<![\d:.\-T/])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:[.,](\d{1,6}))?)?(?![\d:])(?:\s*(?:UTC|GMT|Z)\b)?"
)
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?")
_LINE_NO = re.compile(r"^(\d+): ")
_HAR_ENTRY = re.compile(r"^entry (\d+)\b")
_CITED_LINE = re.compile(r"^(\S+?:\d+): ")
_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800)


@dataclass(frozen=True)
class Instant:
    """One point of the timeline."""

    claim: str
    status: ClaimStatus
    when: dt.datetime
    kind: str  # "stated" or "evidence"
    source: str
    text: str


def collect(report: Report) -> list[Instant]:
    """Every instant of the report, per claim in reading order, each claim's sorted by time."""
    claims = [*report.claims, *report.unverified_observations]
    evidence = {c.id: _evidence_instants(c) for c in claims}
    years = Counter(i.when.year for found in evidence.values() for i in found if i.when.year != 2000)
    dates = Counter(i.when.date() for found in evidence.values() for i in found)
    out: list[Instant] = []
    for claim in claims:
        own = [i for i in evidence[claim.id] if i.when.year != 2000 or not years]
        if years:  # evidence without a year (syslog): put it in the year most of the evidence is from
            year = years.most_common(1)[0][0]
            own += [_with_year(i, year) for i in evidence[claim.id] if i.when.year == 2000]
        own_dates = Counter(i.when.date() for i in own)
        anchor = (own_dates or dates).most_common(1)[0][0] if (own_dates or dates) else None
        stated = _stated_instants(claim, anchor)
        found = {(i.kind, i.when, i.source): i for i in [*stated, *own]}
        out += sorted(found.values(), key=lambda i: (i.when, i.kind != "stated", i.source))
    return out


def _with_year(instant: Instant, year: int) -> Instant:
    try:
        when = instant.when.replace(year=year)
    except ValueError:  # Feb 29 in a common year
        when = instant.when
    return Instant(instant.claim, instant.status, when, instant.kind, instant.source, instant.text)


def _evidence_instants(claim: ClaimResult) -> list[Instant]:
    out: list[Instant] = []
    for c in claim.citations:
        if not c.excerpt or not c.citation_exists:
            continue
        spot = evidence_spot(c.location)
        for line in c.excerpt.splitlines():
            stamp = next((s for _, s in stamps_in(line, dt.UTC)), None)
            if stamp is None:
                continue
            out.append(Instant(claim.id, claim.status, stamp.instant.astimezone(dt.UTC), "evidence",
                               _source(line, spot.file if spot else None, c.location or c.citation), one_line(line, 240)))
    return out


def _source(line: str, file: str | None, fallback: str) -> str:
    if file and (m := _LINE_NO.match(line)):
        return f"{file}:{m.group(1)}"
    if file and (m := _HAR_ENTRY.match(line)):
        return f"{file} entry {m.group(1)}"
    if m := _CITED_LINE.match(line):
        return m.group(1)
    return fallback


def _stated_instants(claim: ClaimResult, anchor: dt.date | None) -> list[Instant]:
    text = " ".join([claim.claim, *(c.citation for c in claim.citations if c.citation_format == "timestamp")])
    out: list[Instant] = []
    for _, stamp in stamps_in(text, dt.UTC):
        if stamp.has_year:
            out.append(Instant(claim.id, claim.status, stamp.instant.astimezone(dt.UTC), "stated", "the claim", stamp.instant.isoformat()))
    taken = [m.span() for m in _DATE_TIME.finditer(text)]
    if anchor is not None:
        for m in _TIME_OF_DAY.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            hh, mm, ss, frac = m.group(1), m.group(2), m.group(3) or "0", (m.group(4) or "0")[:6].ljust(6, "0")
            when = dt.datetime.combine(anchor, dt.time(int(hh), int(mm), int(ss), int(frac)), dt.UTC)
            out.append(Instant(claim.id, claim.status, when, "stated", "the claim", m.group(0)))
    return out


def render(instants: list[Instant], anchors: dict[str, str]) -> str:
    """The timeline section body: the SVG and its table, or a sentence when no claim cites a time."""
    if not instants:
        return '<p class="muted">No claim states or cites a time.</p>'
    rows = list(dict.fromkeys(i.claim for i in instants))
    start, end = min(i.when for i in instants), max(i.when for i in instants)
    span = max((end - start).total_seconds(), 10.0)
    middle = (start.timestamp() + end.timestamp()) / 2
    t0 = middle - span * 0.54
    t1 = middle + span * 0.54
    width, left, right, top, row_h = 960, 72, 20, 34, 26
    height = top + row_h * len(rows) + 14

    def x(when: dt.datetime) -> float:
        return round(left + (when.timestamp() - t0) / (t1 - t0) * (width - left - right), 1)

    step = next((s for s in _STEPS if (t1 - t0) / s <= 8), _STEPS[-1])
    fmt = "%H:%M:%S" if step < 60 else "%H:%M" if step < 86400 else "%m-%d"
    parts = [f'<svg class="timeline" viewBox="0 0 {width} {height}" role="img" aria-labelledby="tl-title tl-desc" '
             f'xmlns="http://www.w3.org/2000/svg"><title id="tl-title">Timeline of cited instants</title>'
             f'<desc id="tl-desc">{len(instants)} instants for {len(rows)} claims, from {_fmt(start)} to {_fmt(end)}.</desc>']
    tick = (int(t0) // step + 1) * step
    while tick < t1:
        tx = x(dt.datetime.fromtimestamp(tick, dt.UTC))
        label = dt.datetime.fromtimestamp(tick, dt.UTC).strftime(fmt)
        parts.append(f'<line class="grid" x1="{tx}" y1="{top - 8}" x2="{tx}" y2="{height - 8}"/>'
                     f'<text class="tick" x="{tx}" y="{top - 14}" text-anchor="middle">{label}</text>')
        tick += step
    by_claim = {cid: [i for i in instants if i.claim == cid] for cid in rows}
    for n, cid in enumerate(rows):
        y = top + row_h * n + row_h / 2
        status = by_claim[cid][0].status
        label = f"{cid} {STATUS_LABEL[status].lower()}: {len(by_claim[cid])} instant{'s' if len(by_claim[cid]) != 1 else ''}"
        parts.append(f'<a href="#{escape(anchors.get(cid, ""))}" class="row st-{status.value}" aria-label="{escape(label)}">'
                     f'<rect class="band" x="0" y="{y - row_h / 2}" width="{width}" height="{row_h}"/>'
                     f'<text class="rowlabel" x="{left - 12}" y="{y + 4}" text-anchor="end">{escape(cid)}</text>'
                     f'<line class="base" x1="{left}" y1="{y}" x2="{width - right}" y2="{y}"/>')
        for i in by_claim[cid]:
            tip = escape(f"{cid} · {'stated in the claim' if i.kind == 'stated' else i.source} · {_fmt(i.when)}\n{i.text}")
            cx = x(i.when)
            shape = (f'<path class="stated" d="M{cx} {y - 7}L{cx + 7} {y}L{cx} {y + 7}L{cx - 7} {y}Z"/>' if i.kind == "stated"
                     else f'<circle class="event" cx="{cx}" cy="{y}" r="5"/>')
            parts.append(f"<g><title>{tip}</title>{shape}</g>")
        parts.append("</a>")
    parts.append("</svg>")
    return "".join(parts) + _legend(start, end) + _table(instants, anchors)


def _fmt(when: dt.datetime) -> str:
    text = when.strftime("%Y-%m-%d %H:%M:%S")
    return text + (f".{when.microsecond // 1000:03d}" if when.microsecond else "") + "Z"


def _legend(start: dt.datetime, end: dt.datetime) -> str:
    days = start.strftime("%Y-%m-%d") + ("" if start.date() == end.date() else " – " + end.strftime("%Y-%m-%d"))
    return ('<p class="legend"><span class="key"><svg width="14" height="14" aria-hidden="true"><path class="stated" '
            'd="M7 1L13 7L7 13L1 7Z"/></svg> time stated in the claim</span> <span class="key"><svg width="14" height="14" '
            'aria-hidden="true"><circle class="event" cx="7" cy="7" r="5"/></svg> event in the cited evidence</span> '
            f'<span class="muted">{escape(days)}, UTC · colour = claim status · hover a marker for details</span></p>')


def _table(instants: list[Instant], anchors: dict[str, str]) -> str:
    rows = "".join(
        f'<tr><td class="mono">{escape(_fmt(i.when))}</td><td><a href="#{escape(anchors.get(i.claim, ""))}">{escape(i.claim)}</a></td>'
        f'<td>{escape(STATUS_LABEL[i.status])}</td><td>{"stated" if i.kind == "stated" else "evidence"}</td>'
        f'<td class="mono">{escape(i.source)}</td><td class="mono wrap">{escape(i.text)}</td></tr>'
        for i in sorted(instants, key=lambda i: (i.when, i.claim))
    )
    return ('<details class="tl-table"><summary>Timeline as a table</summary><table><thead><tr><th>Instant (UTC)</th>'
            '<th>Claim</th><th>Status</th><th>Kind</th><th>Source</th><th>Text</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></details>")
