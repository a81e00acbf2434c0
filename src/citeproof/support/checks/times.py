"""Times of day: each time the claim states matches an instant of the cited evidence.

The evidence's instants are read in every timestamp format the bundle uses; a time without seconds
matches any instant in that minute, "about 14:05" widens it to the minute, a zone the claim names
("14:05 CEST", "09:05 -04:00") converts the evidence's instants into it, and a timestamp citation's
tolerance (``±5s``) widens the match. The instants of timestamp citations must also match the claim's
other cited lines or entries when those carry times.

Passing::

    evidence app.log: 2026-03-02T14:02:11Z ERROR upstream connect error host=10.0.4.22
    claim: At 14:02:11 UTC the upstream connection to 10.0.4.22 failed (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02T14:02:11Z ERROR upstream connect error host=10.0.4.22
    claim: At 14:12:11 UTC the upstream connection to 10.0.4.22 failed (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import datetime as dt
import re

from ...evidence.timestamps import stamps_in
from ..facts import ClaimTime
from .base import Check, FactVerdict, Outcome, Subject, where


def zone(name: str | None) -> dt.tzinfo:
    if not name or name in ("Z", "UTC", "GMT"):
        return dt.UTC
    sign = -1 if name[0] == "-" else 1
    digits = name[1:].replace(":", "")
    return dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0)))


def same_time(t: ClaimTime, instant: dt.datetime, tolerance: float) -> bool:
    candidates = [instant.astimezone(zone(t.zone))] if t.zone else [instant, instant.astimezone(dt.UTC)]
    for c in candidates:
        secs = c.hour * 3600 + c.minute * 60 + c.second + c.microsecond / 1e6
        if t.precision >= 60 and int(secs // 60) == int(t.seconds // 60):
            return True
        diff = abs(secs - t.seconds)
        if min(diff, 86400 - diff) <= max(t.precision, 1.0, tolerance):
            return True
    return False


_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?(?![\d:])")


_STAMPED_NAME = re.compile(r"[-_]([01]\d|2[0-3])([0-5]\d)(?=[-_.])")


_ISO_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?")


def _said(t: ClaimTime, text: str) -> bool:
    """Whether ``text`` writes the claim's time of day itself ("Killed 48213 at 03:38"), to the claim's precision."""
    for h, m, sec in _CLOCK.findall(text):
        start = int(h) * 3600 + int(m) * 60
        if start == int(t.seconds) - int(t.seconds) % 60 and (not sec or t.precision >= 60 or abs(start + int(sec) - t.seconds) <= 1):
            return True
    return False


def _written(s: Subject) -> FactVerdict:
    """Without instants in a known format, the times of day written in the evidence text (``14:03:05``)."""
    clocks = [(int(h), int(m), int(sec) if sec else None) for e in s.items if e.kind != "timestamp"
              for h, m, sec in _CLOCK.findall(e.text) if int(h) < 24 and int(m) < 60]
    if not clocks:  # a snapshot's file may name the minute it was taken: "consumer-groups-0330.txt", "show_pools_1410.txt"
        clocks = [(int(h), int(m), None) for e in s.items if e.kind == "log"
                  for h, m in _STAMPED_NAME.findall(e.source.rsplit("/", 1)[-1])]
    if not clocks:
        return CHECK.verdict(Outcome.NOT_CHECKED, "no_instants", "the cited evidence carries no times of day to compare "
                             f"{s.facts.times[0].raw} with", s.facts.times[0].raw)
    for t in s.facts.times:
        if t.zone not in (None, "Z", "UTC", "GMT"):
            return CHECK.verdict(Outcome.NOT_CHECKED, "zone_unknown", f"the cited evidence's times carry no zone to convert "
                                 f"{t.raw} into", t.raw)
        secs = int(t.seconds)
        if not any(h * 3600 + m * 60 == secs - secs % 60 and (sec is None or t.precision >= 60 or abs(h * 3600 + m * 60 + sec - t.seconds)
                                                               <= max(t.precision, 1.0, s.tolerance_s)) for h, m, sec in clocks):
            h, m, sec = clocks[0]
            shown = f"{h:02d}:{m:02d}" + (f":{sec:02d}" if sec is not None else "")
            return CHECK.verdict(Outcome.UNSUPPORTED, "mismatch", f"the claim says {t.raw}, the cited evidence shows {shown}",
                                 t.raw, shown, where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "written", ", ".join(t.raw for t in s.facts.times), s.facts.times[0].raw)


def check(s: Subject) -> FactVerdict | None:
    if not s.facts.times:
        return None
    stamps = [st for e in s.items if e.kind in ("log", "har", "env", "config", "jira") for _, st in stamps_in(e.text, s.tz)]
    if not stamps:
        stamps = [st for e in s.items if e.kind == "timestamp" for _, st in stamps_in(e.text, s.tz)]
    if not stamps:
        return _written(s)
    for t in s.facts.times:
        if not any(same_time(t, st.instant, s.tolerance_s) for st in stamps):
            if t.zone in (None, "Z", "UTC", "GMT") and any(_said(t, _ISO_STAMP.sub(" ", e.text)) for e in s.of_kind("jira")):
                continue  # a ticket's fields carry instants, its comments times as people write them ("killed at 03:38")
            shown = stamps[0].instant
            when = (shown.astimezone(zone(t.zone)) if t.zone else shown).strftime("%H:%M:%S")
            return CHECK.verdict(Outcome.UNSUPPORTED, "mismatch", f"the claim says {t.raw}, the cited evidence shows {when}",
                                 t.raw, when, where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join(t.raw for t in s.facts.times), s.facts.times[0].raw)


CHECK = Check("times", "time", check, "each time of day the claim states is an instant of the cited evidence")
