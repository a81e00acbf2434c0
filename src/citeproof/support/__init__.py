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
  (the event table is data: ``citeproof/data/events.json``).

Every other content word of the claim must then be anchored in the cited evidence (:mod:`.anchor`):
an unanchored event word, or more unanchored words than ``anchor_slack``, makes it "unsupported", and
the reason names those words. Sharing one term with the evidence is never enough.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..evidence import Bundle
from ..evidence.timestamps import stamps_in
from ..model import Claim, Evidence
from ..text import ordered_terms, parse_quantity, same_number, same_quantity, size_from_key, stem, terms, unit_from_key
from .anchor import Anchor, anchor_claim, is_predicate, is_weak
from .events import conflict, events_in
from .facts import QUOTE_PATTERNS, ClaimTime, Facts, Number, extract, split_negation

__all__ = ["Facts", "Support", "check_support", "claim_facts", "strip_citations", "suggest_lines"]

claim_facts = extract
_COUNT_NOUNS = frozenset(stem(w) for w in "request requests response responses entry entries call calls error errors time times "
                         "failure failures occurrence occurrences line lines message messages attempt attempts".split())


@dataclass(frozen=True)
class Support:
    ok: bool
    reason: str
    statuses: tuple[int, ...] = ()
    contradicted: bool = False  # the evidence shows the opposite (SPEC §6.4), not merely nothing
    anchors: tuple[Anchor, ...] = ()  # how each content word of the claim is anchored in the evidence


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def check_support(
    claim_text: str,
    evidence: Iterable[Evidence],
    tz: dt.tzinfo = dt.UTC,
    time_tolerance_s: float = 0.0,
    cited_times: tuple[ClaimTime, ...] = (),
    slack: int = 2,
    strict_verbs: bool = False,
) -> Support:
    """Whether the union of ``evidence`` supports ``claim_text`` (citations removed).

    ``time_tolerance_s`` widens the comparison of the claim's times (the tolerance its timestamp
    citations give, e.g. ``±5s``); ``cited_times`` are the instants of its timestamp citations, which
    must also match the claim's other cited lines or entries when those carry times.
    """
    items = list(evidence)
    positive, negated = split_negation(claim_text)
    http = any(e.kind == "har" for e in items)
    facts = extract(positive, http)
    if cited_times and any(e.kind in ("log", "har") for e in items):
        facts = replace(facts, times=facts.times + cited_times)
    union = _norm("\n".join(e.text for e in items))
    refuted = _negated(negated, items, union, http) if negated else None
    if refuted:
        return Support(False, refuted, facts.statuses, contradicted=True)
    contradiction = _count_conflict(facts, items) or _status_conflict(facts, items)
    if contradiction:
        return Support(False, contradiction, facts.statuses, contradicted=True)
    checks = (
        _quotes(facts, items, union),
        _statuses(facts, items),
        _identifiers(facts, union, items),
        _versions(facts, items),
        _numbers(facts, items),
        _times(facts, items, tz, time_tolerance_s),
        _dates(facts, items, tz),
        _events(positive, items),
    )
    for problem in checks:
        if problem:
            return Support(False, problem, facts.statuses)
    anchors = tuple(anchor_claim(residual(positive, facts), [e for e in items if e.kind != "context"]))
    loose = [a.word for a in anchors if a.evidence_word is None and not is_weak(a.word)]
    # an event word of the event table ("crashed", "deleted", "failed") is never let pass unanchored
    strict = [w for w in loose if events_in(w) or (strict_verbs and is_predicate(w))]
    if loose and (len(loose) > slack or strict):
        return Support(False, "unsupported: the cited evidence does not show " + ", ".join(f"'{w}'" for w in loose[:6]),
                       facts.statuses, anchors=anchors)
    if negated and not facts.hard:
        return Support(True, "the cited evidence does not show what the claim says is absent", anchors=anchors)
    shown = _describe(facts) if facts.hard else ""
    words = ", ".join(f"{a.word}~{a.evidence_word}" for a in anchors
                      if a.evidence_word is not None and (a.via != "lemma" or a.word != a.evidence_word))
    unshown = ", ".join(f"'{a.word}'" for a in anchors if a.evidence_word is None)
    detail = "; ".join(p for p in (shown, f"anchored: {words}" if words else "",
                                   f"not shown (within the anchor slack): {unshown}" if unshown else "") if p)
    return Support(True, "cited evidence shows " + (detail or "every claim word"), anchors=anchors)


_UNIT_WORDS = frozenset(
    "ms msec millisecond milliseconds s sec secs second seconds m min mins minute minutes h hr hrs hour hours d day days "
    "b byte bytes kb mb gb tb kib mib gib tib k g percent pct rps rpm qps req reqs "
    "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october "
    "nov november dec december mon monday tue tuesday wed wednesday thu thursday fri friday sat saturday sun sunday".split())


def residual(text: str, facts: Facts) -> str:
    """The claim without its hard facts (checked on their own): quotes, identifiers, versions, numbers and units."""
    for pattern in QUOTE_PATTERNS:
        text = pattern.sub(" ", text)
    for value in sorted((*facts.identifiers, *facts.versions), key=len, reverse=True):
        text = text.replace(value, " ")
    text = re.sub(r"(?<![A-Za-z])\d[\w.:,%/+\-]*", " ", text)
    return " ".join(w for w in text.split() if w.lower().strip(".,;:()") not in _UNIT_WORDS)


def _describe(facts: Facts) -> str:
    shown = [f"'{q}'" for q in facts.quotes] + [f"HTTP {s}" for s in facts.statuses]
    shown += list(facts.identifiers) + list(facts.versions) + [n.raw for n in facts.numbers if not n.spelled]
    shown += [t.raw for t in facts.times]
    return ", ".join(shown[:8])


def _quotes(facts: Facts, items: list[Evidence], union: str) -> str | None:
    for q in facts.quotes:
        if _norm(q) not in union:
            return f"quoted text '{q}' is not in the cited evidence"
    if facts.universal and facts.quotes:
        for group in _universal_groups(items):
            for n, item in enumerate(group):
                if any(_norm(q) not in _norm(item) for q in facts.quotes):
                    return (f"the claim says every cited item shows '{facts.quotes[0]}', "
                            f"but cited item {n + 1} of {len(group)} does not")
    return None


_ACCESS_STATUS = re.compile(r'"\s([1-5]\d{2})\s(?:\d+|-)')


def _line_statuses(items: list[Evidence]) -> list[int]:
    """Statuses of cited access-log lines (combined/common log format)."""
    out = []
    for e in items:
        if e.kind == "log":
            for line in e.items:
                m = _ACCESS_STATUS.search(line)
                if m:
                    out.append(int(m.group(1)))
    return out


def _status_conflict(facts: Facts, items: list[Evidence]) -> str | None:
    """Cited HAR entries or access-log lines that carry another status than the one claimed."""
    claimed = set(facts.statuses) | {s for c in facts.status_classes for s in range(c * 100, c * 100 + 100)}
    if not claimed:
        return None
    label = "/".join([str(s) for s in facts.statuses] + [f"{c}xx" for c in facts.status_classes])
    har = [s for e in items if e.kind == "har" for s in e.statuses]
    if har and not facts.universal and not facts.statuses and facts.status_classes:
        return None if any(s in claimed for s in har) else f"no cited HAR entry returned {label} (they returned {_seen(har)})"
    odd = [s for s in har if s not in claimed]
    if odd and len(odd) == len(har):
        return f"the cited HAR entr{'y' if len(har) == 1 else 'ies'} returned {_seen(har)}, not {label}"
    lines = _line_statuses(items)
    if lines and not any(s in claimed for s in lines):
        return f"the cited line records HTTP {lines[0]}, not {label}"
    return None


def _seen(statuses: list[int]) -> str:
    return ", ".join(str(s) for s in dict.fromkeys(statuses))


def _count_conflict(facts: Facts, items: list[Evidence]) -> str | None:
    for n in facts.numbers:
        problem = _count(n, facts, items)
        if problem:
            return problem
    return None


def _statuses(facts: Facts, items: list[Evidence]) -> str | None:
    if not facts.statuses:
        return None
    har_statuses = [s for e in items if e.kind == "har" for s in e.statuses]
    text = "\n".join(e.text for e in items if e.kind != "har")
    for status in facts.statuses:
        if status not in har_statuses and not re.search(rf"(?<!\d){status}(?!\d)", text):
            seen = _seen(har_statuses)
            return f"HTTP {status} is not in the cited evidence" + (f" (cited entries returned {seen})" if seen else "")
    for e in items:
        odd = [(n, s) for n, s in enumerate(e.statuses, 1) if s not in facts.statuses] if e.kind == "har" else []
        if odd:
            n, s = odd[0]
            return f"not every cited entry returned {'/'.join(map(str, facts.statuses))}: cited entry {n} of {len(e.statuses)} returned {s}"
    return None


_GENERIC_VERBS = frozenset(stem(w) for w in (
    "appear appears appeared seen found recorded logged returned occurred occur happened shown show present contain contains "
    "observed reported request requests response responses entry entries line lines cited any".split()))


def _negated(scope: str, items: list[Evidence], union: str, http: bool) -> str | None:
    """The evidence shows what the claim says is absent ("No HTTP 5xx errors", "never returned 503")."""
    facts = extract(scope, http)
    har = [s for e in items if e.kind == "har" for s in e.statuses]
    lines = _line_statuses(items)
    text = "\n".join(e.text for e in items if e.kind != "har")
    claimed = set(facts.statuses) | {s for c in facts.status_classes for s in range(c * 100, c * 100 + 100)}
    for status in sorted(claimed):
        if status in har or status in lines or (facts.statuses and re.search(rf"(?<!\d){status}(?!\d)", text)):
            return f"the claim says there is none, but the cited evidence shows HTTP {status}"
    for q in facts.quotes:
        if _norm(q) in union:
            return f"the claim says there is none, but the cited evidence shows '{q}'"
    for ident in (*facts.identifiers, *facts.keywords):
        if re.search(rf"(?<![a-z0-9]){re.escape(ident.lower())}", union):
            return f"the claim says there is none, but the cited evidence shows '{ident}'"
    if claimed or facts.quotes or facts.identifiers or facts.keywords:
        return None
    shown = events_in(_event_text(items), skip_negated=False)
    for name, word in events_in(scope, skip_negated=False).items():
        if name in shown:
            return f"the claim says there was no such event, but the cited evidence says '{shown[name]}' ({word})"
    content = [t for t in ordered_terms(scope) if t not in _GENERIC_VERBS]
    evidence_terms = terms(_event_text(items))
    hit = next((t for t in content[:1] if t in evidence_terms), None)
    if hit:
        return f"the claim says there is none, but the cited evidence mentions '{hit}'"
    return None


def _probe(ident: str) -> str:
    probe = _norm(ident)
    if probe.startswith(("http://", "https://")):
        probe = probe.split("://", 1)[1].rstrip("/")
    return probe


def _identifiers(facts: Facts, union: str, items: list[Evidence]) -> str | None:
    for ident in facts.identifiers:
        if _probe(ident) not in union:
            return f"'{ident}' does not occur in the cited evidence"
    where = union + "\n" + _norm(" ".join(e.source for e in items))
    only_har = bool(items) and all(e.kind == "har" for e in items)  # HAR entries name their servers
    for name in facts.software if only_har else ():
        if name not in where:
            return f"the claim names {name}, which the cited evidence does not mention"
    if facts.universal:
        for group in _universal_groups(items):
            for n, item in enumerate(group, 1):
                for ident in facts.identifiers:
                    if _probe(ident) not in _norm(item):
                        return f"the claim says it holds for every cited item, but '{ident}' is not in cited item {n} of {len(group)}"
    return None


def _universal_groups(items: list[Evidence]) -> list[tuple[str, ...]]:
    """The separately cited items an "all"/"every" claim speaks of: HAR entries, and single cited lines."""
    groups = [e.items for e in items if e.kind == "har" and len(e.items) > 1]
    singles = tuple(e.items[0] for e in items if e.kind == "log" and len(e.items) == 1)
    if len(singles) > 1:
        groups.append(singles)
    return groups


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
            q = size_from_key(key, value) or (parse_quantity(f"{value} {unit}") if unit else parse_quantity(value))
            try:
                number = float(value.replace(",", ""))
            except ValueError:
                if q is None:
                    continue
                number = q.value
            out.append(Number(value, number, q if q and q.unit else None, frozenset(terms(key.replace(".", " ")))))
            continue
        if e.kind in ("timestamp", "context"):
            continue  # the whole environment is context for names, not a source of the claim's numbers
        out.extend(extract(e.text).numbers)
    return out


def _numbers(facts: Facts, items: list[Evidence]) -> str | None:
    if not facts.numbers:
        return None
    seen = _evidence_numbers(items)
    raw_union = "\n".join(e.text for e in items if e.kind != "timestamp")
    for n in facts.numbers:
        if _count(n, facts, items) is not None or n.spelled:
            continue
        equal = _close if n.approx else same_number
        if n.quantity is not None:
            q = n.quantity
            if q.unit == "s" and _between_instants(q.value, n.approx, items):
                continue
            if any(s.quantity and (same_quantity(s.quantity, q) if not n.approx else s.quantity.unit == q.unit
                                   and equal(s.quantity.value, q.value)) for s in seen):
                continue
            if any(equal(s.value, n.value) for s in seen):
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


MAX_INSTANTS = 200  # instants of the cited evidence compared pairwise for a stated duration


def _between_instants(seconds: float, approx: bool, items: list[Evidence]) -> bool:
    """A duration the cited evidence computes: the time between two of its instants ("13 minutes later",
    "six seconds apart", "within 30 ms"), to the precision the claim gives it."""
    stamps = sorted({s.instant.timestamp() for e in items if e.kind in ("log", "har", "timestamp")
                     for _, s in stamps_in(e.text, dt.UTC)})[:MAX_INSTANTS]
    if len(stamps) < 2:
        return False
    # a value written in whole units of its size is rounded to that unit: "13 minutes" is 12.5-13.5 min
    unit = 3600.0 if seconds >= 3600 else 60.0 if seconds >= 60 else 1.0 if seconds >= 1 else 0.001
    slack = max(unit / 2, (0.1 if approx else 0.02) * seconds)
    return any(abs((b - a) - seconds) <= slack for i, a in enumerate(stamps) for b in stamps[i + 1:])


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 0.02 * max(abs(a), abs(b), 1.0)


def _count(n: Number, facts: Facts, items: list[Evidence]) -> str | None:
    """A count the evidence can compute: None when not a count, "" when right, else the problem."""
    if n.quantity is not None or n.value != int(n.value):
        return None
    words = n.counts
    status_words = {int(w[:3]) for w in words if re.fullmatch(r"[1-5]\d{2}s", w)}
    counted = {stem(w) for w in words} & _COUNT_NOUNS or status_words or (n.spelled and any(w.endswith("s") for w in words))
    if not counted:
        return None
    want = int(n.value)
    statuses = tuple(facts.statuses) or tuple(sorted(status_words))
    har = [s for e in items if e.kind == "har" for s in e.statuses]
    lines = [line for e in items if e.kind == "log" for line in e.items]
    codes = "/".join(str(s) for s in statuses)
    if statuses and har:
        actual = sum(1 for s in har if s in statuses)
        what, total = f"cited entries returned {codes}", len(har)
    elif statuses and lines:
        access = _line_statuses(items)
        actual = sum(1 for s in access if s in statuses) if access else sum(
            1 for line in lines if any(re.search(rf"(?<!\d){s}(?!\d)", line) for s in statuses))
        what, total = f"cited lines record HTTP {codes}", len(lines)
    elif facts.quotes and lines and (n.quoted or (len(facts.quotes) == 1 and n.spelled)):
        actual = sum(1 for line in lines if all(_norm(q) in _norm(line) for q in facts.quotes))
        what, total = f"cited lines show '{facts.quotes[0]}'", len(lines)
    elif n.about and lines:
        probe = _probe(n.about[0])
        actual = sum(1 for line in lines if probe in _norm(line))
        what, total = f"cited lines show {n.about[0]}", len(lines)
    else:
        return None
    if facts.universal and want == total:
        return None  # "all four entries were 304": a universal claim, checked item by item
    if actual != want:
        return f"the claim counts {want}, but {actual} of the {total} {what}"
    return ""


def _times(facts: Facts, items: list[Evidence], tz: dt.tzinfo, tolerance: float) -> str | None:
    if not facts.times:
        return None
    stamps = [s for e in items if e.kind in ("log", "har") for _, s in stamps_in(e.text, tz)]
    if not stamps:
        stamps = [s for e in items if e.kind == "timestamp" for _, s in stamps_in(e.text, tz)]
    if not stamps:
        return None
    for t in facts.times:
        if not any(_same_time(t, s.instant, tolerance) for s in stamps):
            shown = stamps[0].instant
            when = shown.astimezone(_zone(t.zone)) if t.zone else shown
            return f"the claim says {t.raw}, the cited evidence shows {when.strftime('%H:%M:%S')}"
    return None


_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})")


def _dates(facts: Facts, items: list[Evidence], tz: dt.tzinfo) -> str | None:
    if not facts.dates:
        return None
    days: set[dt.date] = set()
    for e in items:
        for _, stamp in stamps_in(e.text, tz):
            if stamp.has_year:
                days.update((stamp.instant.date(), stamp.instant.astimezone(dt.UTC).date()))
        for m in _ISO_DATE.finditer(e.text):
            try:
                days.add(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
            except ValueError:
                continue
    if not days:
        return None
    for raw, day in facts.dates:
        if day not in days:
            return f"the claim says {raw}, the cited evidence shows {min(days, key=lambda d: abs(d - day)).isoformat()}"
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


def _event_text(items: list[Evidence]) -> str:
    """Where events are read: log lines, and each HAR entry's summary (a failed request reads 'failed')."""
    parts = [e.text for e in items if e.kind == "log"]
    for e in items:
        if e.kind == "har":
            for item, status in zip(e.items, e.statuses, strict=False):
                head = item.split("\n", 1)[0]
                parts.append(head + (" failed" if status == 0 else " error" if status >= 400 else ""))
    return "\n".join(parts).replace("_", " ")


def _events(claim_text: str, items: list[Evidence]) -> str | None:
    text = _event_text(items)
    if not text.strip():
        return None
    found = conflict(claim_text, text)
    if found:
        return f"the claim says '{found[0]}', the cited evidence says '{found[1]}'"
    return None


SUGGEST_REACH = 8 * 1024 * 1024  # bytes searched on each side of the cited line in a large file


def suggest_lines(bundle: Bundle, rel: str, cited_line: int, quote: str, limit: int = 3) -> list[int]:
    """Lines of ``rel`` containing ``quote``, nearest to ``cited_line`` first.

    A file up to 2 x :data:`SUGGEST_REACH` is searched whole; in a larger one only the bytes within
    :data:`SUGGEST_REACH` of the cited line, so a suggestion never costs a pass over a huge log.
    """
    file = bundle.files.get(rel)
    if file is None or not quote:
        return []
    lf = bundle.lines(file)
    lo, hi = 0, lf.size
    if lf.size > 2 * SUGGEST_REACH:
        anchor = lf.line_start(min(max(cited_line, 1), lf.line_count)) if lf.line_count else 0
        lo, hi = max(0, anchor - SUGGEST_REACH), min(lf.size, anchor + SUGGEST_REACH)
    found = bundle.memo(("suggest", f"{rel}|{lo}|{hi}|{quote}"),
                        lambda: sorted({lf.line_of(p) for p in lf.find_all(quote.encode("utf-8"), limit=200, start=lo, end=hi)}))
    return sorted(found, key=lambda n: (abs(n - cited_line), n))[:limit]


def strip_citations(claim: Claim) -> str:
    """The claim's text with its in-text citation tokens removed."""
    out, pos = [], 0
    for ref in sorted((r for r in claim.citations if r.start >= 0), key=lambda r: r.start):
        if ref.start < pos:
            continue
        out.append(claim.text[pos : ref.start])
        pos = ref.end
    out.append(claim.text[pos:])
    text = re.sub(r"\(\s*[,;]?\s*\)|\[\s*\]|``|\[\^[^\]\s]+\]", " ", "".join(out))
    if any(r.start < 0 for r in claim.citations):  # cited through notes: "[1]", "[1, 2]" and "¹" are markers
        text = _NOTE_MARKER.sub(" ", text)
    return text


_NOTE_MARKER = re.compile(r"\[\d{1,3}(?:\s?,\s?\d{1,3})*\]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
