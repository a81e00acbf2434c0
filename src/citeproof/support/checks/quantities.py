"""Quantities: each number the claim binds to a unit or a noun is a number of the cited evidence.

* A number with a unit ("30 s", "512 MiB", "1.2 seconds") equals a quantity of the evidence across
  units (``30000 ms``; ``timeout_ms: 30000``; a config key's unit suffix), or a bare number of the
  evidence; "about"/"roughly" allows 2 %.
* A duration may be the time between two cited instants ("13 minutes later", "six seconds apart").
* A number bound to a noun ("pool size 20", "port 8443") occurs in the evidence; the same noun shown
  with another number is a mismatch ("pool size 20" against "pool size 10").
* Counts of cited items are the count check's; numbers written as words are only counts.

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
import re

from ...evidence.timestamps import stamps_in
from ...model import Evidence
from ...text import parse_quantity, same_number, same_quantity, size_from_key, terms, unit_from_key
from ..facts import Number, extract
from .base import Check, Outcome, Subject, Verdict, where
from .counts import tally

MAX_INSTANTS = 200  # instants of the cited evidence compared pairwise for a stated duration


def evidence_numbers(items: list[Evidence]) -> list[Number]:
    """The numbers of the cited evidence; a config or env value takes its unit from its key (``timeout_ms``)."""
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


def between_instants(seconds: float, approx: bool, items: tuple[Evidence, ...]) -> bool:
    """A duration the cited evidence computes: the time between two of its instants ("13 minutes later",
    "six seconds apart", "within 30 ms"), to the precision the claim gives it."""
    stamps = sorted({st.instant.timestamp() for e in items if e.kind in ("log", "har", "timestamp")
                     for _, st in stamps_in(e.text, dt.UTC)})[:MAX_INSTANTS]
    if len(stamps) < 2:
        return False
    # a value written in whole units of its size is rounded to that unit: "13 minutes" is 12.5-13.5 min
    unit = 3600.0 if seconds >= 3600 else 60.0 if seconds >= 60 else 1.0 if seconds >= 1 else 0.001
    slack = max(unit / 2, (0.1 if approx else 0.02) * seconds)
    return any(abs((b - a) - seconds) <= slack for i, a in enumerate(stamps) for b in stamps[i + 1:])


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 0.02 * max(abs(a), abs(b), 1.0)


def _with_unit(n: Number, seen: list[Number], s: Subject) -> bool:
    q = n.quantity
    assert q is not None
    equal = close if n.approx else same_number
    if q.unit == "s" and between_instants(q.value, n.approx, s.items):
        return True
    if any(e.quantity and (same_quantity(e.quantity, q) if not n.approx else e.quantity.unit == q.unit
                           and equal(e.quantity.value, q.value)) for e in seen):
        return True
    return any(equal(e.value, n.value) for e in seen)


def _problem(n: Number, seen: list[Number], raw_union: str, s: Subject) -> Verdict | None:
    if n.quantity is not None:
        if _with_unit(n, seen, s):
            return None
        return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"'{n.raw}' is not in the cited evidence", n.raw, location=where(s.items))
    bound = [e for e in seen if e.nouns & n.nouns]
    if any(same_number(e.value, n.value) for e in bound):
        return None
    present = any(same_number(e.value, n.value) for e in seen) or re.search(
        rf"(?<![\d.]){re.escape(n.raw.split()[0])}(?![\d])", raw_union)
    if bound and not present:
        return CHECK.verdict(Outcome.UNSUPPORTED, "mismatch", f"the claim says '{n.raw}', the cited evidence says '{bound[0].raw}'",
                             n.raw, bound[0].raw, where(s.items))
    if not present:
        return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"'{n.raw}' is not in the cited evidence", n.raw, location=where(s.items))
    return None


def check(s: Subject) -> Verdict | None:
    numbers = [n for n in s.facts.numbers if not n.spelled and tally(n, s) is None]
    if not numbers:
        return None
    seen = evidence_numbers(list(s.items))
    raw_union = "\n".join(e.text for e in s.items if e.kind != "timestamp")
    for n in numbers:
        problem = _problem(n, seen, raw_union, s)
        if problem:
            return problem
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join(n.raw for n in numbers), numbers[0].raw)


CHECK = Check("quantities", "quantity", check, "each number with a unit or noun is a number of the cited evidence")
