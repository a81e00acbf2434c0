"""Rule 1, ``temporal`` — times that cannot all be true.

Three checks, each over the times the claims state (times of day, ISO instants, timestamp citations):

* **Same event, different times.** Two claims are about the same event when they cite the same log
  line or HAR entry, or name the same event with the definite article ("the outage", "the deploy",
  "the failover") or the same quoted message, without words that make them different occurrences
  ("first", "last", "another", "again", "each", ...). Their times must agree within
  ``temporal_tolerance_s`` (default 10 s).
* **Order words.** "X at t1 before/then Y at t2" needs t1 < t2, "X at t1 after Y at t2" needs t1 > t2;
  a claim that calls its event the first failure ("was the first", "the first error", "began with") at
  t1 is contradicted by another claim reporting a failure earlier than t1 (by more than a second).
* **A claim's time against its own evidence.** A claim whose stated time differs from the time on
  the line or entry it cites (found by the support check) is reported here too.

Passing (no finding): "The first 429 arrived at 10:30:12" and "The last 429 arrived at 10:31:52".
Failing: "The timeout at 10:30:45Z was the first failure" and "An error appeared at 10:30:42Z".
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..evidence.timestamps import parse_iso
from ..model import ClaimStatus, ContradictionFinding
from ..support.events import events_in
from ..support.facts import extract
from .base import ClaimView, Found, Rule, RuleContext

_DISTINCT = re.compile(
    r"\b(?:first|last|second|third|final|initial|another|again|next|later|earlier|previous|subsequent|each|every|all|"
    r"repeated|multiple|several|other|also|more|new|one of)\b",
    re.I,
)
_FIRST = re.compile(
    r"\b(?:(?:was|were|is|came)\s(?:the\s)?first\b(?!\s\w+\s(?:of|to|in)\b)|first\s(?:failure|error|event|symptom|sign|problem|issue)s?\b(?!\s(?:of|after|in|from)\b)|"
    r"initially|began with|started with|kicked off)",
    re.I,
)
_FAILURE = frozenset({"fail", "crash", "deny", "unavailable", "stop", "disconnect"})
_EVENT_NOUNS = (
    "outage|incident|deploy|deployment|release|rollout|rollback|restart|reboot|failover|crash|upgrade|migration|"
    "cutover|timeout|spike|shutdown|startup|outbreak|breach|alert|page"
)
_DEFINITE = re.compile(r"\bthe\s(?:\w+\s)?(" + _EVENT_NOUNS + r")\b", re.I)
_ORDER = re.compile(r"\b(before|after|then|followed by|preceded|preceding|prior to|later than|earlier than)\b", re.I)


@dataclass(frozen=True)
class Stated:
    seconds: float  # time of day, UTC when the claim names a zone, else as written
    instant: dt.datetime | None  # full instant when the claim gives a date
    raw: str
    start: int  # position in the claim text (for order words)


def _stated(view: ClaimView) -> list[Stated]:
    out: list[Stated] = []
    for t in view.facts.times:
        secs = t.seconds
        if t.zone and t.zone not in ("Z", "UTC", "GMT"):
            sign = -1 if t.zone[0] == "-" else 1
            digits = t.zone[1:].replace(":", "")
            secs = (secs - sign * (int(digits[:2]) * 3600 + int(digits[2:4] or 0) * 60)) % 86400
        out.append(Stated(secs, None, t.raw, view.text.find(t.raw)))
    resolved = {c.citation for c in view.result.citations if c.citation_format == "timestamp" and c.citation_exists}
    for ref in view.claim.citations:
        if ref.format_id != "timestamp" or ref.raw not in resolved:
            continue
        instant = parse_iso(str(ref.fields.get("value", "")))
        if instant is not None:
            utc = instant.astimezone(dt.UTC)
            secs = utc.hour * 3600 + utc.minute * 60 + utc.second + utc.microsecond / 1e6
            out.append(Stated(secs, utc, str(ref.fields["value"]), view.claim.text.find(ref.raw)))
    return out


def _diff(a: Stated, b: Stated) -> float:
    if a.instant and b.instant:
        return (a.instant - b.instant).total_seconds()
    d = a.seconds - b.seconds
    if d > 43200:
        d -= 86400
    elif d < -43200:
        d += 86400
    return d


def _locations(view: ClaimView) -> set[str]:
    return {c.location for c in view.result.citations if c.location and c.citation_exists and c.citation_format != "timestamp"}


def _event_keys(view: ClaimView) -> list[tuple[str, str]]:
    """What names this claim's event: the lines/entries it cites, "the <event>", a quoted message + its event."""
    if _DISTINCT.search(view.text):
        return []
    keys = [("cite", loc) for loc in sorted(_locations(view))]
    keys += [("the", m.group(1).lower()) for m in _DEFINITE.finditer(view.text)]
    events = sorted(events_in(view.text))
    keys += [("quote", f"{q.lower()}|{e}") for q in view.facts.quotes for e in events]
    return list(dict.fromkeys(keys))


_WHY = {"cite": "both cite {}", "the": "both describe the {}", "quote": "both report '{}'"}


def _fmt(seconds: float) -> str:
    s = round(seconds) % 86400
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


def check(ctx: RuleContext) -> list[Found]:
    tol = ctx.options.temporal_tolerance_s
    views = [v for v in ctx.claims if v.result.status is not ClaimStatus.UNCITED or v.facts.times]
    times = {v.id: _stated(v) for v in views}
    out: list[Found] = []
    buckets: dict[tuple[str, str], list[ClaimView]] = {}
    for v in views:
        if len(times[v.id]) == 1:
            for key in _event_keys(v):
                buckets.setdefault(key, []).append(v)
    reported: set[tuple[str, str]] = set()
    for key, members in sorted(buckets.items()):
        if len(members) < 2:
            continue  # one bucket, sorted by time: its earliest and latest claims are the widest disagreement
        ordered = sorted(members, key=lambda v: (times[v.id][0].seconds, v.id))
        a, b = ordered[0], ordered[-1]
        gap = _diff(times[b.id][0], times[a.id][0])
        pair = (min(a.id, b.id), max(a.id, b.id))
        if abs(gap) > tol and pair not in reported:
            reported.add(pair)
            why = _WHY[key[0]].format(key[1].split("|")[0])
            out.append(_found(a, b, f"{a.id} puts the event at {times[a.id][0].raw}, {b.id} at {times[b.id][0].raw} "
                                    f"({abs(gap):g} s apart; {why})",
                              "Check which time the evidence shows and correct the other claim"))
    out += _order_within(views, times)
    out += _first_across(views, times, 1.0)  # order needs only the times' own precision
    out += _own_evidence(views)
    return out


def _found(a: ClaimView, b: ClaimView | None, detail: str, resolution: str) -> Found:
    ids = [a.id] if b is None else [a.id, b.id]
    return Found(ContradictionFinding(rule="temporal", claims=ids, detail=detail, resolution=resolution))


def _order_within(views: list[ClaimView], times: dict[str, list[Stated]]) -> list[Found]:
    out = []
    for v in views:
        ts = sorted((t for t in times[v.id] if t.start >= 0), key=lambda t: t.start)
        if len(ts) != 2:
            continue
        m = _ORDER.search(v.text)
        if not m:
            continue
        word = m.group(1).lower()
        first, second = ts
        later = word in ("after", "later than", "preceded")  # "X at t1 after Y at t2": t1 > t2
        if word == "preceded" or word == "preceding":
            later = m.start() < first.start
        gap = _diff(first, second)
        wrong = gap < 0 if later else gap > 0
        if wrong and abs(gap) >= 1:
            order = "after" if later else "before"
            out.append(_found(v, None, f"{v.id} says {first.raw} is {order} {second.raw}, but it is {abs(gap):g} s "
                                       f"{'earlier' if later else 'later'}",
                              f"Reorder the events of {v.id}: {_fmt(min(first.seconds, second.seconds))} comes first"))
    return out


def _first_across(views: list[ClaimView], times: dict[str, list[Stated]], tol: float) -> list[Found]:
    """A claim that calls its event the first failure, against the earliest failure another claim reports."""
    failures = sorted(
        ((times[b.id][0].seconds, b.id, b) for b in views if len(times[b.id]) == 1 and set(events_in(b.text)) & _FAILURE),
        key=lambda item: (item[0], item[1]),
    )
    out = []
    for a in views:
        if not _FIRST.search(a.text) or len(times[a.id]) != 1:
            continue
        t_first = times[a.id][0]
        earliest = next((b for _, bid, b in failures if bid != a.id), None)
        if earliest is None:
            continue
        t_b = times[earliest.id][0]
        gap = _diff(t_first, t_b)
        if gap > tol:
            what = " ".join(extract(earliest.text).quotes[:1]) or earliest.text.split(" at ")[0][:60]
            out.append(_found(a, earliest, f"{a.id} says its event at {t_first.raw} came first, but {earliest.id} reports an event at "
                                           f"{t_b.raw}, {gap:g} s earlier",
                              f"{what} ({t_b.raw}) came first, then the event of {a.id} {gap:g} s later"))
    return out


def _own_evidence(views: list[ClaimView]) -> list[Found]:
    """Claims whose own cited evidence carries another time (the support check's ``time.mismatch``)."""
    out = []
    for v in views:
        verdict = next((c for c in v.result.checks if c.decides and c.code == "time.mismatch"), None)
        if verdict is not None:
            out.append(_found(v, None, f"{v.id}: the claim says {verdict.claimed}, the cited evidence shows {verdict.evidence}",
                              f"Use the time its cited evidence shows, or cite the line that carries {v.id}'s time"))
    return out


RULE = Rule("temporal", "times that cannot all be true: same event, order words, the claim's own evidence", check)
