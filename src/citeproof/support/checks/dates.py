"""Dates: each calendar date the claim states ("15 December 2011", "2026-03-02") is a date of the cited
evidence's instants (in the bundle's zone or UTC) or an ISO date written in it.

Passing::

    evidence app.log: 2026-03-02T14:02:11Z ERROR certificate for api.example.com expired
    claim: The certificate for api.example.com expired on 2026-03-02 (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02T14:02:11Z ERROR certificate for api.example.com expired
    claim: The certificate for api.example.com expired on 2026-03-05 (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import datetime as dt
import re

from ...evidence.timestamps import stamps_in
from .base import Check, FactVerdict, Outcome, Subject, where

_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})")


def _days(s: Subject) -> set[dt.date]:
    days: set[dt.date] = set()
    for e in s.items:
        for _, stamp in stamps_in(e.text, s.tz):
            if stamp.has_year:
                days.update((stamp.instant.date(), stamp.instant.astimezone(dt.UTC).date()))
        for m in _ISO_DATE.finditer(e.text):
            try:
                days.add(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
            except ValueError:
                continue
    return days


def check(s: Subject) -> FactVerdict | None:
    if not s.facts.dates:
        return None
    days = _days(s)
    if not days:
        return CHECK.verdict(Outcome.NOT_CHECKED, "no_dates", "the cited evidence carries no dates to compare", s.facts.dates[0][0])
    for raw, day in s.facts.dates:
        if day not in days:
            nearest = min(days, key=lambda d: abs(d - day)).isoformat()
            return CHECK.verdict(Outcome.UNSUPPORTED, "mismatch", f"the claim says {raw}, the cited evidence shows {nearest}",
                                 raw, nearest, where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join(raw for raw, _ in s.facts.dates), s.facts.dates[0][0])


CHECK = Check("dates", "date", check, "each date the claim states is a date of the cited evidence")
