"""Format 3, ``timestamp`` — an instant that some evidence in the bundle must carry.

Canonical: ``timestamp:2026-01-15T10:30:45Z``, ``timestamp:2026-01-15T10:30:45Z±5s``.
Variants: ``time:10:30:45`` (a time of day in UTC, or in ``assume_tz``; evidence instants are
converted before comparing), ``+/-5s``,
``±500ms``, ``±2m``, offsets (``+02:00``), fractional seconds, and a bare ISO-8601 instant with date
and time anywhere in a claim (``at 2026-01-15T10:30:45Z``).

Sub-checks: ``format`` (ISO-8601 or ``HH:MM:SS``), ``reasonable_date`` (not before 1990, not after the
validation time), ``in_evidence`` (a log line or HAR entry carries an instant inside the window:
±1 s by default, or the citation's own tolerance). Log timestamp formats are listed in
:mod:`citeproof.evidence.timestamps`; naive times are taken in ``assume_tz``.

Passing: ``timestamp:2018-03-27T20:53:27Z`` against ``har/pagexray/304.har``.
Failing: ``timestamp:2031-01-01T00:00:00Z`` ("in the future"), or an instant no evidence carries.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..evidence import FileKind, UnreadableEvidence
from ..evidence.har import load_har
from ..evidence.timestamps import Window, find_in_lines, parse_iso
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, invalid, missing

if TYPE_CHECKING:
    pass

_TOL = r"(?:\s?(?:±|\+/-|\+-)\s?(?P<tol>\d{1,6}(?:\.\d+)?)\s?(?P<unit>ms|s|secs?|seconds?|m|mins?|minutes?)?\b)?"
_ISO = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?"
PATTERNS = (
    re.compile(r"\btimestamp:\s?(?P<value>" + _ISO + r"|\S+?)" + _TOL + r"(?=[\s,;)\]`'\"]|\.(?:\s|$)|$)", re.I),
    re.compile(r"\btime:\s?(?P<value>\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?)" + _TOL, re.I),
    re.compile(r"(?<![\w:/-])(?P<value>" + _ISO + r")" + _TOL + r"(?![\w:])"),
)
_UNIT = {"ms": 0.001, "m": 60.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0}
_TIME_ONLY = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?$")


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for kind, pattern in zip(("timestamp", "time", "bare"), PATTERNS, strict=True):
        for m in pattern.finditer(text):
            raw_value = m.group("value").rstrip(".,;")
            tol = None
            if m.group("tol"):
                tol = float(m.group("tol")) * _UNIT.get((m.group("unit") or "s").lower(), 1.0)
            yield CitationRef(
                "timestamp", m.group(0).rstrip(".,;"), m.start(), m.start() + len(m.group(0).rstrip(".,;")),
                {"value": raw_value, "tolerance_s": tol, "style": kind},
            )


def _window(value: str, tol: float, tz: dt.tzinfo) -> tuple[Window | None, str]:
    tolerance = dt.timedelta(seconds=tol)
    m = _TIME_ONLY.match(value)
    if m:
        hh, mm, ss, frac = m.groups()
        try:
            t = dt.datetime(2000, 1, 1, int(hh), int(mm), int(ss or 0), int((frac or "0").ljust(6, "0")), tzinfo=tz)
        except ValueError:
            return None, f"'{value}' is not a valid time of day"
        return Window(t, tolerance, time_only=True), ""
    instant = parse_iso(value, tz)
    if instant is None:
        return None, f"'{value}' is not an ISO-8601 instant (expected e.g. 2026-01-15T10:30:45Z)"
    if not _HAS_SECONDS.search(value):  # "2026-10-05 22:14": any instant of that minute
        return Window(instant + dt.timedelta(seconds=30), max(tolerance, dt.timedelta(seconds=30))), ""
    return Window(instant, tolerance), ""


_HAS_SECONDS = re.compile(r"\d{1,2}:\d{2}:\d{2}")


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    value = ref.fields["value"]
    tol = ref.fields.get("tolerance_s")
    tol = ctx.options.default_time_window_s if tol is None else tol
    window, problem = _window(value, tol, ctx.options.tzinfo)
    if window is None:
        steps.fail("format", problem)
        return invalid(ref, problem, steps)
    steps.ok("format", "time of day" if window.time_only else window.center.isoformat())
    if not window.time_only:
        now = ctx.options.current_time()
        if window.center.year < 1990:
            steps.fail("reasonable_date", f"{window.center.date()} is before 1990")
            return invalid(ref, f"implausible date {window.center.date()} (before 1990)", steps)
        if window.center > now + dt.timedelta(minutes=1):
            steps.fail("reasonable_date", f"{window.center.isoformat()} is after the validation time {now.isoformat()}")
            return invalid(ref, f"{value} is in the future", steps)
        steps.ok("reasonable_date")
    hits = _search(ctx, window)
    span = f"±{tol:g}s"
    if not hits:
        detail = f"no log line or HAR entry in the bundle carries an instant within {span} of {value}"
        steps.fail("in_evidence", detail)
        return missing(ref, detail, steps, recovery=(f"Search for the time: grep -rn '{_grep_key(value)}' {ctx.bundle.shown()}",))
    _, location, excerpt = hits[0]
    more = f" (+{len(hits) - 1} more within {span})" if len(hits) > 1 else ""
    steps.ok("in_evidence", location + more)
    texts = tuple(text for _, _, text in hits)
    evidence = Evidence(kind="timestamp", text="\n".join(texts), items=texts)
    return found(ref, f"instant found in {location}{more}", steps, f"{location}: {excerpt}", location, (evidence,))


def _grep_key(value: str) -> str:
    m = re.search(r"\d{2}:\d{2}:\d{2}", value)
    return m.group(0) if m else value


MAX_HITS = 50


def _search(ctx: CheckContext, window: Window) -> list[tuple[float, str, str]]:
    key = ("timestamp", f"{window.center.isoformat()}|{window.tolerance}|{window.time_only}")
    return ctx.bundle.memo(key, lambda: _scan(ctx, window))  # type: ignore[no-any-return]


def _scan(ctx: CheckContext, window: Window) -> list[tuple[float, str, str]]:
    """(distance in seconds, location, text) of evidence inside the window, closest first."""
    import numpy as np
    bundle = ctx.bundle
    tz = ctx.options.tzinfo
    base = ctx.options.har_index_base
    hits: list[tuple[float, str, str]] = []
    for file in sorted(bundle.of_kind(FileKind.HAR), key=lambda f: f.rel):
        doc = load_har(bundle, file)
        if doc.error:
            continue
        reach = window.tolerance.total_seconds() + (0.0 if window.center.microsecond else 0.999999)
        if window.time_only:
            c = window.center
            target = c.hour * 3600 + c.minute * 60 + c.second + c.microsecond / 1e6
            offset = (c.utcoffset() or dt.timedelta(0)).total_seconds()
            diff = np.abs((doc.instants() + offset) % 86400 - target)
            diff = np.minimum(diff, 86400 - diff)
            reach = window.tolerance.total_seconds() + 0.999
        else:
            diff = np.abs(doc.instants() - window.center.timestamp())
        for i in np.flatnonzero(diff <= reach)[:MAX_HITS].tolist():
            hits.append((float(diff[i]), f"{file.rel} entry {i + base}", doc.entry(i).summary()))
    for file in sorted(bundle.of_kind(FileKind.LOG), key=lambda f: f.rel):
        try:
            for hit in find_in_lines(bundle.lines(file), window, tz, limit=20):
                hits.append((window.distance(hit.stamp), f"{file.rel}:{hit.line}", hit.text))
        except UnreadableEvidence:
            continue  # reported as a warning of the run
    hits.sort(key=lambda h: (h[0], h[1]))
    return hits[:MAX_HITS]


FORMAT = CitationFormat(
    id="timestamp",
    summary="an instant the evidence carries: timestamp:2026-01-15T10:30:45Z±5s, time:10:30:45",
    find=find,
    check=check,
    examples=("timestamp:2026-01-15T10:30:45Z", "timestamp:2026-01-15T10:30:45Z±5s", "time:10:30:45"),
)
