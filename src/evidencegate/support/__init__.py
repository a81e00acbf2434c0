"""Does the cited evidence support the claim?

Existence is not support. The claim's citation tokens are removed first (``server.log:4521`` must
not make 4521 a fact); its checkable facts (:mod:`.facts`) are then looked for in the union of the
evidence its citations resolved to. Each evidence type is searched where its facts live: log lines as
written; HAR entries by status, statusText, URL, headers, body and custom fields such as ``_error``;
configs and env metadata by key and value; patterns and JIRA tickets by their text.

The claim is supported when every fact holds:

* each quoted string occurs in the evidence (case and white space ignored); with "all"/"each"/
  "every" over several cited lines, in each of them;
* each HTTP status is a status of a cited HAR entry or occurs in a cited line, and every cited HAR
  entry has one of the statuses the claim states;
* each identifier (URL, IP, host, exception class, CamelCase/snake_case name, error code, path) occurs;
* each version matches a version in the evidence (as a prefix on component boundaries);
* each number bound to a noun or unit occurs in the evidence, and the same noun is not shown with a
  different number ("pool size 20" against "pool size 10"); quantities compare across units
  ("30 s" = "30000 ms"); counts of HAR entries with a status, or of lines with a quoted string, are
  counted ("3 requests returned 404");
* each time of day matches an instant in the cited evidence (in the claim's zone when it names one);
* the event the claim names is not contradicted: "crashed" where the evidence says "started"
  (the event table is data: ``evidencegate/data/events.json``).

A claim with none of these facts needs a significant term (stemmed: "failed" ~ "failure") in common
with the evidence; otherwise it is "unsupported: the cited evidence shares no terms with the claim".
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..evidence import Bundle
from ..evidence.timestamps import stamps_in
from ..model import Claim, Evidence
from ..text import parse_quantity, same_number, stem, terms, unit_from_key
from .events import conflict
from .facts import ClaimTime, Facts, Number, extract

__all__ = ["Facts", "Support", "check_support", "claim_facts", "strip_citations", "suggest_lines"]

claim_facts = extract
_COUNT_NOUNS = frozenset(stem(w) for w in "request requests response responses entry entries call calls error errors time times "
                         "failure failures occurrence occurrences line lines message messages attempt attempts".split())


@dataclass(frozen=True)
class Support:
    ok: bool
    reason: str
    statuses: tuple[int, ...] = ()


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def check_support(claim_text: str, evidence: Iterable[Evidence], tz: dt.tzinfo = dt.UTC, time_tolerance_s: float = 0.0) -> Support:
    """Whether the union of ``evidence`` supports ``claim_text`` (citations removed).

    ``time_tolerance_s`` widens the comparison of the claim's times (the tolerance its timestamp
    citations give, e.g. ``±5s``).
    """
    items = list(evidence)
    facts = extract(claim_text)
    union = _norm("\n".join(e.text for e in items))
    checks = (
        _quotes(facts, items, union),
        _statuses(facts, items),
        _identifiers(facts, union),
        _versions(facts, items),
        _numbers(facts, items),
        _times(facts, items, tz, time_tolerance_s),
        _events(claim_text, items),
    )
    for problem in checks:
        if problem:
            return Support(False, problem, facts.statuses)
    if facts.hard:
        return Support(True, "cited evidence shows " + _describe(facts))
    textual = [e for e in items if e.kind != "timestamp"]
    if not textual:
        return Support(True, "the cited instant is in the evidence")
    shared = terms(claim_text) & terms("\n".join(e.text for e in textual))
    if not shared:
        return Support(False, "unsupported: the cited evidence shares no terms with the claim")
    return Support(True, "cited evidence shares terms with the claim: " + ", ".join(sorted(shared)[:5]))


def _describe(facts: Facts) -> str:
    shown = [f"'{q}'" for q in facts.quotes] + [f"HTTP {s}" for s in facts.statuses]
    shown += list(facts.identifiers) + list(facts.versions) + [n.raw for n in facts.numbers] + [t.raw for t in facts.times]
    return ", ".join(shown[:8])


def _quotes(facts: Facts, items: list[Evidence], union: str) -> str | None:
    for q in facts.quotes:
        if _norm(q) not in union:
            return f"quoted text '{q}' is not in the cited evidence"
    if facts.universal and facts.quotes:
        for e in items:
            if e.kind == "log" and len(e.items) > 1:
                for n, line in enumerate(e.items):
                    if any(_norm(q) not in _norm(line) for q in facts.quotes):
                        return (f"the claim says every cited line shows '{facts.quotes[0]}', "
                                f"but cited line {n + 1} of {len(e.items)} does not")
    return None


def _statuses(facts: Facts, items: list[Evidence]) -> str | None:
    if not facts.statuses:
        return None
    har_statuses = [s for e in items if e.kind == "har" for s in e.statuses]
    text = "\n".join(e.text for e in items if e.kind != "har")
    for status in facts.statuses:
        if status not in har_statuses and not re.search(rf"(?<!\d){status}(?!\d)", text):
            seen = ", ".join(str(s) for s in dict.fromkeys(har_statuses))
            return f"HTTP {status} is not in the cited evidence" + (f" (cited entries returned {seen})" if seen else "")
    for e in items:
        if e.kind == "har":
            odd = [s for s in e.statuses if s not in facts.statuses]
            if odd:
                return f"a cited HAR entry returned {odd[0]}, not {'/'.join(str(s) for s in facts.statuses)}"
    return None


def _identifiers(facts: Facts, union: str) -> str | None:
    for ident in facts.identifiers:
        probe = _norm(ident)
        if probe.startswith(("http://", "https://")):
            probe = probe.split("://", 1)[1].rstrip("/")
        if probe not in union:
            return f"'{ident}' does not occur in the cited evidence"
    return None


_EVIDENCE_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+(?:[-+][\w.]+)?)")


def _versions(facts: Facts, items: list[Evidence]) -> str | None:
    if not facts.versions:
        return None
    found = [m.group(1).lower() for e in items for m in _EVIDENCE_VERSION.finditer(e.text)]
    for version in facts.versions:
        v = version.lower().lstrip("v")
        if not any(a == v or (a.startswith(v) and a[len(v)] in ".-_+") for a in found):
            shown = f" (the evidence shows {found[0]})" if found else ""
            return f"version {version} is not in the cited evidence{shown}"
    return None


def _evidence_numbers(items: list[Evidence]) -> list[Number]:
    out: list[Number] = []
    for e in items:
        if e.kind in ("config", "env"):
            key, _, value = e.text.partition(" = ") if " = " in e.text else e.text.partition(": ")
            unit = unit_from_key(key)
            q = parse_quantity(f"{value} {unit}") if unit else parse_quantity(value)
            try:
                number = float(value.replace(",", ""))
            except ValueError:
                continue
            out.append(Number(value, number, q if q and q.unit else None, frozenset(terms(key.replace(".", " ")))))
            continue
        if e.kind == "timestamp":
            continue
        out.extend(extract(e.text).numbers)
    return out


def _numbers(facts: Facts, items: list[Evidence]) -> str | None:
    if not facts.numbers:
        return None
    seen = _evidence_numbers(items)
    raw_union = "\n".join(e.text for e in items if e.kind != "timestamp")
    for n in facts.numbers:
        counted = _count(n, facts, items)
        if counted is not None:
            if counted:
                return counted
            continue
        if n.quantity is not None:
            if any(s.quantity and s.quantity.unit == n.quantity.unit and same_number(s.quantity.value, n.quantity.value) for s in seen):
                continue
            if any(same_number(s.value, n.value) for s in seen):
                continue
            return f"'{n.raw}' is not in the cited evidence"
        bound = [s for s in seen if s.nouns & n.nouns]
        if any(same_number(s.value, n.value) for s in bound):
            continue
        present = any(same_number(s.value, n.value) for s in seen) or re.search(
            rf"(?<![\d.]){re.escape(n.raw.split()[0])}(?![\d])", raw_union
        )
        if bound and not present:
            return f"the claim says '{n.raw}', the cited evidence says '{bound[0].raw}'"
        if not present:
            return f"'{n.raw}' is not in the cited evidence"
    return None


def _count(n: Number, facts: Facts, items: list[Evidence]) -> str | None:
    """A count the evidence can compute: None when not a count, "" when right, else the problem."""
    if not (n.nouns & _COUNT_NOUNS) or n.quantity is not None or n.value != int(n.value) or n.value > 100_000:
        return None
    har = [s for e in items if e.kind == "har" for s in e.statuses]
    if facts.statuses and har:
        actual = sum(1 for s in har if s in facts.statuses)
        if actual != int(n.value):
            codes = "/".join(str(s) for s in facts.statuses)
            return f"the claim counts {int(n.value)}, but {actual} of the {len(har)} cited entries returned {codes}"
        return ""
    lines = [line for e in items if e.kind == "log" for line in e.items]
    if facts.quotes and lines:
        actual = sum(1 for line in lines if all(_norm(q) in _norm(line) for q in facts.quotes))
        if actual != int(n.value):
            return f"the claim counts {int(n.value)}, but {actual} of the {len(lines)} cited lines show '{facts.quotes[0]}'"
        return ""
    return None


def _times(facts: Facts, items: list[Evidence], tz: dt.tzinfo, tolerance: float) -> str | None:
    if not facts.times:
        return None
    stamps = [s for e in items if e.kind in ("log", "har", "timestamp") for _, s in stamps_in(e.text, tz)]
    if not stamps:
        return None
    for t in facts.times:
        if not any(_same_time(t, s.instant, tolerance) for s in stamps):
            shown = stamps[0].instant
            when = shown.astimezone(_zone(t.zone)) if t.zone else shown
            return f"the claim says {t.raw}, the cited evidence shows {when.strftime('%H:%M:%S')}"
    return None


def _zone(zone: str | None) -> dt.tzinfo:
    if not zone or zone in ("Z", "UTC", "GMT"):
        return dt.UTC
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0)))


def _same_time(t: ClaimTime, instant: dt.datetime, tolerance: float) -> bool:
    candidates = [instant.astimezone(_zone(t.zone))] if t.zone else [instant, instant.astimezone(dt.UTC)]
    for c in candidates:
        secs = c.hour * 3600 + c.minute * 60 + c.second + c.microsecond / 1e6
        if t.precision >= 60 and int(secs // 60) == int(t.seconds // 60):
            return True
        diff = abs(secs - t.seconds)
        if min(diff, 86400 - diff) <= max(t.precision, 1.0, tolerance):
            return True
    return False


def _events(claim_text: str, items: list[Evidence]) -> str | None:
    text = "\n".join(e.text for e in items if e.kind in ("log", "timestamp"))
    text += "\n".join(line.split("\n", 1)[0] for e in items if e.kind == "har" for line in e.items)
    if not text.strip():
        return None
    found = conflict(claim_text, text)
    if found:
        return f"the claim says '{found[0]}', the cited evidence says '{found[1]}'"
    return None


def suggest_lines(bundle: Bundle, rel: str, cited_line: int, quote: str, limit: int = 3) -> list[int]:
    """Lines of ``rel`` containing ``quote``, nearest to ``cited_line`` first."""
    file = bundle.files.get(rel)
    if file is None or not quote:
        return []
    lf = bundle.lines(file)
    lines = sorted({lf.line_of(pos) for pos in lf.find_all(quote.encode("utf-8"), limit=200)})
    return sorted(lines, key=lambda n: (abs(n - cited_line), n))[:limit]


def strip_citations(claim: Claim) -> str:
    """The claim's text with its in-text citation tokens removed."""
    out, pos = [], 0
    for ref in sorted((r for r in claim.citations if r.start >= 0), key=lambda r: r.start):
        if ref.start < pos:
            continue
        out.append(claim.text[pos : ref.start])
        pos = ref.end
    out.append(claim.text[pos:])
    return re.sub(r"\(\s*[,;]?\s*\)|\[\s*\]|``", " ", "".join(out))
