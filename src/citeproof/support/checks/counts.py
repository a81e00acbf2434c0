"""Counts: a number that counts cited items ("3 requests returned 404", "two of the lines show
'timeout'") equals the number of cited HAR entries or lines that show the counted thing.

What is counted: HAR entries or access-log lines with the claim's status, lines with its quoted string,
or lines naming the identifier between the number and its noun ("four ``RedisTimeoutException``
errors"). A count of entities ("ten backends", "3 clients", "two pods") may instead be the number of
distinct pids, addresses or ``pod=`` names the cited lines give. A universal claim ("all four entries
were 304") is checked item by item instead.

Passing::

    evidence access.log: 203.0.113.7 - - [02/Mar/2026:14:02:11 +0000] "GET /a HTTP/1.1" 404 0 "-" "curl/8.5"
    evidence access.log: 203.0.113.7 - - [02/Mar/2026:14:02:12 +0000] "GET /b HTTP/1.1" 404 0 "-" "curl/8.5"
    claim: Two requests returned 404 (access.log:1-2).
    verdict: supported

Failing::

    evidence access.log: 203.0.113.7 - - [02/Mar/2026:14:02:11 +0000] "GET /a HTTP/1.1" 404 0 "-" "curl/8.5"
    evidence access.log: 203.0.113.7 - - [02/Mar/2026:14:02:12 +0000] "GET /b HTTP/1.1" 200 0 "-" "curl/8.5"
    claim: Two requests returned 404 (access.log:1-2).
    verdict: contradicted
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from ...model import Evidence
from ...text import stem
from ..anchor import anchor_claim, claim_words
from ..events import events_in
from ..facts import WORD_NUMBERS, Number
from .base import Check, FactVerdict, Outcome, Subject, har_statuses, line_status, norm, probe, where

_COUNT_NOUNS = frozenset(stem(w) for w in "request requests response responses entry entries call calls error errors time times "
                         "failure failures occurrence occurrences line lines message messages attempt attempts".split())


_ITEM_NOUNS = frozenset(stem(w) for w in "entry entries request requests response responses line lines call calls".split())
_WHOLE = re.compile(r"\b(?:all|across|of|over|among|in)\s+(?:the\s+|all\s+|these\s+|those\s+)?$", re.I)


_METHODS = {f"{m.lower()}s": m for m in ("GET", "PUT", "POST", "PATCH", "DELETE", "HEAD")}  # "32 PUTs": requests by method


@dataclass(frozen=True)
class Tally:
    want: int
    actual: int
    total: int
    what: str


def _counted(n: Number, s: Subject, by_phrase: bool = True) -> tuple[int, str, int] | None:
    """(how many cited items show the counted thing, what that is, how many items) or None when not countable."""
    facts = s.facts
    status_words = {int(w[:3]) for w in n.counts if re.fullmatch(r"[1-5]\d{2}s", w)}
    statuses = tuple(c for c in facts.statuses if _attached(n, c, s.positive)) or tuple(sorted(status_words))
    har = har_statuses(s.items)
    lines = [line for e in s.items if e.kind == "log" for line in e.items]
    codes = "/".join(str(c) for c in statuses)
    method = next((_METHODS[w.lower()] for w in n.counts if w.lower() in _METHODS), None)
    if statuses and method:  # "34 responses with status 503: 32 PUTs and 2 GETs"
        entries: list[tuple[str, int | None]] = [(text, c) for e in s.items if e.kind == "har"
                                                 for text, c in zip(e.items, e.statuses, strict=False)]
        pairs = [(text, c) for text, c in entries or [(line, line_status(line)) for line in lines]
                 if re.search(rf"\b{method}\s", text)]
        return sum(1 for _, c in pairs if c in statuses), f"cited {method} requests returned {codes}", len(pairs)
    named = _scope(n, s, [*lines, *(t for e in s.items if e.kind == "har" for t in e.items)]) if statuses else []
    whole = len(har) or len(lines)  # how many items are cited, whatever the count is scoped to
    if named:  # "the jira-sync service (10.30.4.21) received 81 HTTP 401 responses": the lines and entries of the named one
        lines = [line for line in lines if all(i in norm(line) for i in named)]
        har = [c for e in s.items if e.kind == "har" for t, c in zip(e.items, e.statuses, strict=False)
               if all(i in norm(t) for i in named)]
    if statuses and har:
        return sum(1 for c in har if c in statuses), f"cited entries returned {codes}", whole
    if statuses and lines:
        def records(line: str) -> bool:  # the access-log status field, else the code written in the line ("status"=>429)
            field = line_status(line)
            return field in statuses if field is not None else any(re.search(rf"(?<!\d){c}(?!\d)", line) for c in statuses)
        return sum(1 for line in lines if records(line)), f"cited lines record HTTP {codes}", whole
    if facts.quotes and lines and (n.quoted or (len(facts.quotes) == 1 and n.spelled)):
        return (sum(1 for line in lines if all(norm(q) in norm(line) for q in facts.quotes)),
                f"cited lines show '{facts.quotes[0]}'", len(lines))
    if n.about and lines and _counts_items(n):
        needle = probe(n.about[0])
        return sum(1 for line in lines if needle in norm(line)), f"cited lines show {n.about[0]}", len(lines)
    return _lines_showing(n, s, lines) if by_phrase else None  # "12 of the 32 requests timed out": the verb, not the noun


def _scope(n: Number, s: Subject, items: list[str]) -> list[str]:
    """The identifiers of the claim's clause around the count ``n`` (up to the claim's previous and next numbers) that
    name some cited items and not others (a host, a client address, a path): a count of statuses is of those items.
    "46 pricing 503s and 46 matching POST /api/v1/checkout 500s": the path belongs to the second count only."""
    spans = sorted(m.span for m in s.facts.numbers if m.span != n.span)
    start = max([end for _, end in spans if end <= n.span[0]], default=0)
    stop = min([begin for begin, _ in spans if begin >= n.span[1]], default=len(s.positive))
    clause = s.positive[start:stop]
    texts = [norm(t) for t in items]
    out = []
    for ident in s.facts.identifiers:
        key = probe(ident)
        if ident not in clause:
            continue
        hits = sum(1 for t in texts if key in t)
        if 0 < hits < len(texts):
            out.append(key)
    return out


def _predicate(part: Number, s: Subject) -> tuple[int, str, int] | None:
    """"3 of the 8 upstream requests timed out": how many cited lines show what the part did (the words after the
    whole's noun, up to the clause's end), each word anchored in the line."""
    lines = [line for e in s.items if e.kind == "log" for line in e.items]
    if not 2 <= len(lines) <= MAX_COUNTED_LINES:
        return None
    after = s.positive[part.span[1]:]
    noun = next((m for w in sorted(part.counts) if (m := re.search(rf"\b{re.escape(w)}\b", after, re.I))), None)
    if noun is None:
        return None
    rest = re.split(r"[,;:.()]|\b(?:and|but|while|because|after|before|when)\b", after[noun.end():], maxsplit=1)[0]
    phrase = " ".join(w for w in rest.split()[:4] if not re.fullmatch(r"(?:were|was|had|have|been|all|then)", w, re.I))
    if claim_words(phrase):
        return sum(1 for line in lines if _shows(phrase, line)), f"cited lines show {phrase}", len(lines)
    named = set(events_in(phrase))  # "timed out", "went down": an event of the event table
    if not named:
        return None
    return sum(1 for line in lines if named <= set(events_in(line))), f"cited lines show {phrase.strip()}", len(lines)


def _attached(n: Number, status: int, text: str) -> bool:
    """Whether the claim counts responses with ``status`` by ``n``: "15 of them 404s", "97 got 503", "13 HTTP 503
    responses", "returned 503 ... 9 times" — not the total of "125 requests, 15 of them 404s", where another number
    stands between."""
    for m in re.finditer(rf"(?<!\d){status}(?!\d)", text):
        after = m.start() >= n.span[1]
        between = text[n.span[1]:m.start()] if after else text[m.end():n.span[0]]
        reach = 48 if after or n.counts & {"times", "time"} else 12  # "returned 503 for /serves 9 times"
        bare = re.sub(r"\S*[/.]\S*", " ", between)  # a path or a host between ("46 POST /api/v1/checkout 500s") is no number
        if len(between) <= reach and not re.search(r"\d|[,;()]", bare):
            return True
    return False


def _counts_items(n: Number) -> bool:
    status_words = {w for w in n.counts if re.fullmatch(r"[1-5]\d{2}s", w)}
    return bool({stem(w) for w in n.counts} & _COUNT_NOUNS or status_words or (n.spelled and any(w.endswith("s") for w in n.counts)))


MAX_COUNTED_LINES = 500
_DURATIONS = frozenset({"seconds", "second", "minutes", "minute", "hours", "hour", "days", "day", "ms"})
_NOT_ITEMS = frozenset({"times", "time", "seconds", "minutes", "hours", "days", "ms"})  # "retried 5 times" counts no lines


def _lines_showing(n: Number, s: Subject, lines: list[str]) -> tuple[int, str, int] | None:
    """Over a cited range: how many lines show what the number counts ("ten pods", "12 upstream i/o timeouts"),
    each word of the counted phrase anchored in the line. Decided only when that count is the claim's or every
    cited line shows the phrase; not when the evidence writes the number itself."""
    if not 2 <= len(lines) <= MAX_COUNTED_LINES or not n.counts or n.counts & _NOT_ITEMS or n.value > 1000:
        return None
    head = next(iter(n.counts))
    noun = re.escape(stem(head)[:5])
    beside = rf"(?<![\d.]){int(n.value)}(?![\d.]\d|\d)"
    if re.search(rf"{beside}\W{{1,3}}(?:\w+\W{{1,2}})?{noun}|{noun}\w*\W{{1,3}}{beside}|\b(?:count|total)\w*\W{{1,3}}{beside}",
                 "\n".join(lines), re.I):
        return None  # "COUNT 3", "after 3 retries": the evidence states the count; the quantity check compares it
    after = s.positive if n.spelled else s.positive[n.span[1]:]  # a number in words: its phrase from the sentence start
    phrase = after[: after.lower().find(head) + len(head)] if head in after.lower() else head
    phrase = " ".join(phrase.split())
    if not phrase or len(phrase.split()) > 5:
        return None
    hits = sum(1 for line in lines if _shows(phrase, line))
    if hits != int(n.value) and (hits != len(lines) or (n.value and len(lines) % int(n.value) == 0)):
        return None  # the range mixes the counted lines with others, or each item may take several lines
    return hits, f"cited lines show {phrase}", len(lines)


_GENERIC = frozenset("attempt attempts occurrence occurrences event events entry entries line lines message messages "
                     "instance instances case cases".split())


@lru_cache(maxsize=4096)  # the count and the quantity checks both ask, for every cited line
def _shows(phrase: str, line: str) -> bool:
    """Each specific word of the counted phrase is anchored in the line ("66 failed attempts": a line that failed)."""
    anchors = [a for a in anchor_claim(phrase, [Evidence(kind="log", text=line, items=(line,))]) if a.word not in _GENERIC]
    return bool(anchors) and all(a.evidence_word is not None for a in anchors)


# how logs name each kind of entity (the entities of issue 12: host, process, session, ...): processes by pid,
# peers by address, the rest by a field of their own name ("pod=", "node_id="); "ten backends" counts distinct pids
_BY_PID = frozenset(stem(w) for w in "backend process worker".split())
_BY_ADDRESS = frozenset(stem(w) for w in "client peer address ip".split())
_BY_FIELD = frozenset(stem(w) for w in "host server node pod session connection user instance container replica consumer "
                      "producer broker machine member device".split())
_PID = re.compile(r"\[(\d{2,7})\]:?\s|\bpid[=:\s]\s?(\d{2,7})\b|\bprocess (\d{2,7})\b", re.I)
_IP = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")


def _distinct(n: Number, lines: list[str]) -> int | None:
    """How many distinct entities of the counted kind the cited lines name ("ten backends": ten pids,
    "3 clients": three addresses, "two pods": two ``pod=`` values), or None when the number counts no entities."""
    nouns = {stem(w) for w in n.counts}
    if len(lines) < 2:
        return None
    if nouns & _BY_PID:
        return len({next(g for g in m.groups() if g) for line in lines for m in _PID.finditer(line)}) or None
    if nouns & _BY_ADDRESS:
        return len({ip for line in lines for ip in _IP.findall(line)}) or None
    for noun in sorted(nouns & _BY_FIELD):
        values = {v for line in lines for v in re.findall(rf"\b{re.escape(noun)}(?:_?id|_?name)?[=:]\s?[\"']?([A-Za-z][\w.\-@:/]*)",
                                                          line, re.I)}
        if values:
            return len(values)
    return None


_OF = r"\s+of\s+(?:the\s+|all\s+|these\s+|those\s+)?"
_COUNT_WORD = r"(?:(?:(?<=x)|(?<!\w))\d[\d,]*|\b(?:" + "|".join(WORD_NUMBERS) + r")\b)"  # "x68 of 285": 68 times
_DENOMINATOR = re.compile(_COUNT_WORD + _OF + "$", re.I)
_NUMERATOR = re.compile(_OF + _COUNT_WORD + r"\b", re.I)


def _part_of(n: Number, s: Subject) -> Number | None:
    """"8 of the 32 requests failed with 503": the 8 counts what the 32 counts, read from where the 32 stands; None when
    ``n`` is no such part, and ``n`` with nothing to count when the whole is a status ("27 of the 94 503s took over
    800 ms": a part the statuses cannot tell)."""
    m = _NUMERATOR.match(s.positive, n.span[1]) if n.span[1] else None
    if m is None:
        return None
    start = m.end() - len(m.group(0).split()[-1])
    whole = next((o for o in s.facts.numbers if o.span[0] == start and o is not n), None)
    counts = whole.counts if whole is not None and whole.counts else frozenset({"items"})
    if any(re.fullmatch(r"[1-5]\d{2}s", w) for w in counts):
        return dataclasses.replace(n, counts=frozenset())
    return dataclasses.replace(n, counts=counts, about=whole.about if whole is not None else (), span=(start, m.end()))


def tally(n: Number, s: Subject) -> Tally | None:
    """The count ``n`` states and the count the evidence gives, or None when ``n`` is not a count of cited items."""
    if n.quantity is not None or n.value != int(n.value):
        return None
    total = sum(len(e.statuses) if e.kind == "har" else len(e.items) for e in s.items if e.kind in ("har", "log"))
    if n.span[0] and _DENOMINATOR.search(s.positive, 0, n.span[0]):  # the 32 of "8 of the 32 requests": the whole
        return Tally(int(n.value), total, total, "cited items") if int(n.value) == total else None
    if total > 1 and int(n.value) == total and {stem(w) for w in n.counts} & _ITEM_NOUNS and _WHOLE.search(
            s.positive[max(0, n.span[0] - 16):n.span[0]]):
        return Tally(total, total, total, "cited items")  # "across all 328 entries", "of the 5 requests": the cited range
    part = _part_of(n, s)
    n = part or n
    status_words = {w for w in n.counts if re.fullmatch(r"[1-5]\d{2}s", w)}
    plural = any(w.endswith("s") and len(w) > 3 for w in n.counts)
    if not ({stem(w) for w in n.counts} & _COUNT_NOUNS or status_words or plural):
        return None
    counted = _counted(n, s, by_phrase=part is None) or (_predicate(n, s) if part is not None else None)
    if counted is None:
        return None
    actual, what, total = counted
    if int(n.value) > total or n.counts & _DURATIONS:
        return None  # "four instances" on one cited line, "two seconds later": not a count of the cited items
    if s.facts.universal and int(n.value) == total:
        return None  # "all four entries were 304": a universal claim, checked item by item
    if actual != int(n.value):
        lines = [line for e in s.items if e.kind == "log" for line in e.items]
        if _distinct(n, lines) == int(n.value):  # "ten backends" over 30 lines: ten distinct pids
            return Tally(int(n.value), int(n.value), total, "distinct entities named by the cited lines")
    return Tally(int(n.value), actual, total, what)


def check(s: Subject) -> FactVerdict | None:
    tallies = [t for t in (tally(n, s) for n in s.facts.numbers) if t is not None]
    if not tallies:
        return None
    for t in tallies:
        parts = [u.want for u in tallies if u.what == t.what]
        if t.actual != t.want and not (len(parts) > 1 and sum(parts) == t.actual):  # "two ... and three more": 5
            return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"the claim counts {t.want}, but {t.actual} of the {t.total} {t.what}",
                                 str(t.want), str(t.actual), where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "equal", ", ".join(f"{t.want} {t.what}" for t in tallies), str(tallies[0].want))


CHECK = Check("counts", "count", check, "a count of cited items equals the number of cited items that show it")
