"""Quantities: each number the claim binds to a unit or a noun is a number of the cited evidence.

* A number with a unit ("30 s", "512 MiB", "1.2 seconds") equals a quantity of the evidence across
  units (``30000 ms``; ``timeout_ms: 30000``; a config key's unit suffix), or a bare number of the
  evidence; "about"/"roughly" allows 2 %.
* A duration may be the time between two cited instants ("13 minutes later", "six seconds apart"), and an
  amount the difference of two the evidence writes when the claim says so ("freed 416 MB", "over by 32 MiB").
* An amount the evidence writes with another value of the same dimension is contradicted, naming it.
* A number bound to a noun ("pool size 20", "port 8443") occurs in the evidence; the same noun shown
  with another number is a mismatch ("pool size 20" against "pool size 10").
* A change "from 9 to 4" is contradicted by evidence that records it the other way round (``from=4 to=9``).
* Counts of cited items are the count check's; a number written as a word is compared only with a field
  its noun names ("two watchers" against ``watchers: 1``).

Passing::

    evidence app.log: 2026-03-02 14:02:11 WARN request to vendor api took 30000ms (timeout)
    claim: The vendor call waited 30 seconds before timing out (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 WARN request to vendor api took 30000ms (timeout)
    claim: The vendor call waited 3 seconds before timing out (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable

from ...evidence.timestamps import stamps_in
from ...model import Evidence
from ...text import same_number, size_from_key, terms, unit_from_key
from ...units import Amount, Claimed, amounts, key_unit, matches
from ..facts import Number, extract
from .base import Check, FactVerdict, Outcome, Subject, where
from .counts import tally

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
MAX_INSTANTS = 200
_WEEK = 7 * 86400.0
_UPTIME = re.compile(r"^\[\s*(\d+\.\d{3,6})\]", re.M)  # instants of the cited evidence compared pairwise for a stated duration


def instants(texts: Iterable[str]) -> list[float]:
    """The instants the texts write, as POSIX seconds; a stamp without a year ("Mar 13 23:29:41") takes the year
    of the stamps that have one ("notAfter=Mar 13 23:01:11 2026 GMT"), so that the two can be compared."""
    stamps = [st for text in texts for _, st in stamps_in(text, dt.UTC)]
    years = sorted({st.instant.year for st in stamps if st.has_year})
    out = []
    for st in stamps:
        instant = st.instant
        if not st.has_year and years:
            try:
                instant = instant.replace(year=years[0])
            except ValueError:  # 29 February of a year that has none
                continue
        out.append(instant.timestamp())
    return out


def between_instants(seconds: float, approx: bool, items: tuple[Evidence, ...], claimed: Claimed | None = None) -> bool:
    """A duration the cited evidence computes: the time between two of its instants ("13 minutes later",
    "six seconds apart", "under 40 seconds"), to the precision (or within the bound) the claim gives it."""
    stamps = sorted(set(instants(e.text for e in items if e.kind in ("log", "har", "timestamp"))))[:MAX_INSTANTS]
    uptime = sorted({float(m.group(1)) for e in items if e.kind == "log" for m in _UPTIME.finditer(e.text)})[:MAX_INSTANTS]
    if len(uptime) >= 2 and len(stamps) < 2:
        stamps = uptime  # kernel ring buffer: "[ 8744.210334]" is seconds since boot
    if len(stamps) < 2:
        return False
    gaps = [b - a for i, a in enumerate(stamps) for b in stamps[i + 1:]]
    if claimed is not None and claimed.dim == "s":
        return any(low <= gap <= high for gap in gaps for low, high in claimed.ranges)
    # a value written in whole units of its size is rounded to that unit: "13 minutes" is 12.5-13.5 min
    unit = 3600.0 if seconds >= 3600 else 60.0 if seconds >= 60 else 1.0 if seconds >= 1 else 0.001
    slack = max(unit / 2, (0.1 if approx else 0.02) * seconds)
    return any(abs(gap - seconds) <= slack for gap in gaps)


def evidence_amounts(items: tuple[Evidence, ...]) -> list[Amount]:
    """The amounts the cited evidence states; a config or env value takes its unit from its key (``timeout_ms``)."""
    out: list[Amount] = []
    for e in items:
        if e.kind == "context":
            continue  # the whole environment is context for names, not a source of the claim's numbers
        if e.kind in ("config", "env") and e.key and e.items:
            value = e.items[0]
            size = size_from_key(e.key, value)
            named = unit_from_key(e.key) or key_unit(e.key.rsplit(".", 1)[-1])
            if size is not None:
                out.append(Amount(size.value, "B", value))
            elif named and re.fullmatch(r"\d+(?:\.\d+)?", value.strip()):
                out.extend(amounts(f"{value.strip()} {named}"))
            else:
                out.extend(amounts(value))
            continue
        out.extend(amounts(e.text))
    return out


def evidence_numbers(items: tuple[Evidence, ...]) -> list[Number]:
    """The numbers of the cited evidence with the nouns they are bound to ("pool size 10")."""
    out: list[Number] = []
    for e in items:
        if e.kind in ("config", "env") and e.key and e.items:
            value = e.items[0].replace(",", "")
            if re.fullmatch(r"-?\d+(?:\.\d+)?", value):
                out.append(Number(value, float(value), None, frozenset(terms(e.key.replace(".", " ")))))
        elif e.kind not in ("timestamp", "context"):
            out.extend(extract(e.text).numbers)
    return out


def _shown(n: Number, found: list[Amount], s: Subject) -> bool:
    """The evidence shows quantity ``n``: an amount it stands for, or the time between two cited instants."""
    q = n.quantity
    assert q is not None
    if q.unit == "s" and between_instants(q.value, n.approx, s.items, n.claimed):
        return True
    if n.claimed is not None:
        return matches(n.claimed, found)
    return False


# words that make a claimed amount the size of a change, and which way it went ("grew by" a rise, "freed" a fall)
_UP_WORDS = "grew grown rose increased gained more above over exceed exceeded exceeding exceeds"
_DOWN_WORDS = "freed frees reclaimed released shrank shrunk dropped fell decreased reduced lost less fewer below under short saved cut"
_EITHER_WORDS = "by difference delta headroom margin remaining left"


def _words(*groups: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(w for g in groups for w in g.split()) + r")\b", re.I)


_CHANGE, _UP, _DOWN = _words(_UP_WORDS, _DOWN_WORDS, _EITHER_WORDS), _words(_UP_WORDS), _words(_DOWN_WORDS)
# a change the evidence writes: 1536M->1120M, 2.1 GB → 1.4 GB, from 900 ms to 1.2 s
_WRITTEN_CHANGE = re.compile(r"(\d[\d,]*(?:\.\d+)?\s?[A-Za-zµ%]*)\s?(?:->|→|=>|\bto\b)\s?(\d[\d,]*(?:\.\d+)?\s?[A-Za-zµ%]*)")


def _difference(n: Number, s: Subject) -> bool:
    """The claimed amount is the size of a change the cited evidence writes (``1536M->1120M``) and the claim says
    it is one ("freed about 416 MB"), in the same direction ("grew by 416 MB" is not that fall)."""
    claim = n.claimed
    lead = s.positive[max(0, n.span[0] - 24):n.span[0]] if n.span[1] else s.positive
    if claim is None or not claim.dim or not _CHANGE.search(lead):  # "freed about 416 MB", "by 32 MiB": next to the number
        return False
    way = 1 if _UP.search(lead) else -1 if _DOWN.search(lead) else 0  # "grew by" needs a rise, "freed" a fall
    for e in s.items:
        for m in _WRITTEN_CHANGE.finditer(e.text):
            before, after = amounts(m.group(1)), amounts(m.group(2))
            for a, b in zip(before, after, strict=False):  # the same reading of both sides (powers of 1000 or of 1024)
                change = b.value - a.value
                if a.dim == b.dim == claim.dim and way * change >= 0 and any(low <= abs(change) <= high for low, high in claim.ranges):
                    return True
    return False


def _other_value(n: Number, found: list[Amount], s: Subject) -> str | None:
    """What the cited evidence gives instead of quantity ``n``: the one amount it writes in the same dimension
    ("241 seconds" against a claimed "360 seconds"), or the one gap between the instants of its only two lines;
    None when it writes no such amount or several (which one the claim means is not known), when the claim
    states a bound or a wide range ("over 30 seconds", "3 minutes": 2.5-3.5), which other values do not refute,
    or a percentage."""
    claim = n.claimed
    if claim is None or claim.dim in ("", "%"):
        return None  # a percentage is often of another whole than the evidence's ("81 % of the volume")
    low, high = claim.ranges[0]
    if low <= 0 or high / low > 1.25:
        return None
    middle = (low + high) / 2
    same = [a for a in found if a.dim == claim.dim and a.value > 0]
    if len({a.raw for a in same}) == 1:  # one amount of that dimension: what the evidence says of it
        return min(same, key=lambda a: (abs(math.log(a.value / middle)), a.raw)).raw
    if same:
        return None  # several: which one the claim means is not known
    lines = [line for e in s.items if e.kind in ("log", "har", "timestamp") for line in e.text.splitlines()[:3] if line.strip()]
    if claim.dim == "s" and len(lines) == 2:  # two cited lines: "stayed Degraded for 12 minutes (lines 156 and 206)"
        stamps = sorted(set(instants(lines)))[:3]
        if len(stamps) == 2 and stamps[1] - stamps[0] <= _WEEK:  # farther apart: a line without a year, read in another
            return f"{stamps[1] - stamps[0]:g} s between the cited instants"
    return None


def _problem(n: Number, found: list[Amount], seen: list[Number], raw_union: str, s: Subject) -> FactVerdict | None:
    if n.quantity is not None:
        if _shown(n, found, s) or _difference(n, s):
            return None
        other = _other_value(n, found, s)
        if other is not None:
            return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"the claim says '{n.raw}', the cited evidence says '{other}'",
                                 n.raw, other, where(s.items))
        return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"'{n.raw}' is not in the cited evidence", n.raw, location=where(s.items))
    bound = [e for e in seen if e.nouns & n.nouns]
    if any(same_number(e.value, n.value) for e in bound):
        return None
    digits = _THOUSANDS.sub("", n.raw.split()[0])  # "3,435,973,836" is written 3435973836 in the log
    # a zero-padded number is a name ("000482" of mysql-bin.000482), found after a dot too
    before = r"(?<!\d)" if digits.startswith("0") and len(digits) >= 4 else r"(?<![\d.])"
    present = any(same_number(e.value, n.value) for e in seen) or bool(re.search(
        rf"{before}{re.escape(digits)}(?![\d])", raw_union)) or (n.claimed is not None and matches(n.claimed, found))
    # the noun the claim binds the number to carries another number right there ("code 1" against "code 0")
    beside = bool(re.search(rf"(?<![\d.]){re.escape(digits)}(?![\d])", raw_union)) and any(
        re.search(rf"\b{re.escape(noun)}\w*\W{{1,3}}{re.escape(digits)}(?![\d])", raw_union, re.I) for noun in n.nouns)
    if bound and (not present or (not beside and _written_beside(bound, raw_union))):
        return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"the claim says '{n.raw}', the cited evidence says '{bound[0].raw}'",
                             n.raw, bound[0].raw, where(s.items))
    if not present:
        return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"'{n.raw}' is not in the cited evidence", n.raw, location=where(s.items))
    return None


def _field(n: Number, text: str) -> tuple[str, str] | None:
    """The field of the evidence named by the noun a number in words counts ("two watchers": ``watchers: 1``), as
    (the field as written, its value); None when the evidence has no such field. The noun must begin the field
    ("Newly added brokers: 1" is no count of the brokers) and its value be one number (not ``1,2,3``)."""
    for noun in sorted(n.counts):
        if len(noun) < 4:
            continue
        m = re.search(rf"(?<![A-Za-z]\s)(?<![\w-]){re.escape(noun)}[\"']?\s?[=:]\s?[\"']?(\d+)(?![.,]?\d)", text, re.I)
        if m:
            return m.group(0), m.group(1).replace(",", "")
    return None


def _written_beside(bound: list[Number], text: str) -> bool:
    """The evidence writes one of its bound numbers right after its noun ("code 0", "size=10", "max_connections: 200")."""
    return any(re.search(rf"\b{re.escape(noun)}\w*[\"']?\W{{1,3}}{re.escape(b.raw.split()[0])}(?![\d])", text, re.I)
               for b in bound for noun in b.nouns)


_FROM_TO = re.compile(r"\bfrom[\s=:\"']+(\d[\d,]*(?:\.\d+)?)\b(?:[^\d\n]{0,40}?)\bto[\s=:\"']+(\d[\d,]*(?:\.\d+)?)\b", re.I)


def _direction(s: Subject) -> FactVerdict | None:
    """ "Scaled down from 9 to 4" against ``from=4 to=9``: the same two values, the other way round."""
    claimed = [(a.replace(",", ""), b.replace(",", "")) for a, b in _FROM_TO.findall(s.positive)]
    if not claimed:
        return None
    shown = {(a.replace(",", ""), b.replace(",", "")) for e in s.items for a, b in _FROM_TO.findall(e.text)}
    for a, b in claimed:
        if a != b and (b, a) in shown and (a, b) not in shown:
            return CHECK.verdict(Outcome.CONTRADICTED, "direction", f"the claim says from {a} to {b}, the cited evidence says "
                                 f"from {b} to {a}", f"{a} -> {b}", f"{b} -> {a}", where(s.items))
    return None


def check(s: Subject) -> FactVerdict | None:
    turned = _direction(s)
    if turned is not None:
        return turned
    raw_union = _THOUSANDS.sub("", "\n".join(e.text for e in s.items if e.kind != "context"))
    for n in s.facts.numbers:
        field = _field(n, raw_union) if n.spelled else None
        if field is not None and not same_number(float(field[1]), n.value):  # "two watchers" against "watchers: 1"
            return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"the claim says '{n.raw}', the cited evidence says "
                                 f"'{field[0]}'", n.raw, field[0], where(s.items))
    numbers = [n for n in s.facts.numbers if not n.spelled and tally(n, s) is None]
    if not numbers:
        return None
    found = evidence_amounts(s.items)
    seen = evidence_numbers(s.items)
    for n in numbers:
        problem = _problem(n, found, seen, raw_union, s)
        if problem:
            return problem
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join(n.raw for n in numbers), numbers[0].raw)


CHECK = Check("quantities", "quantity", check, "each number with a unit or noun is a number of the cited evidence")
