"""Time zones as findings write them: names ("CEST", "PDT"), offsets ("+02:00", "UTC-8") and the places a
document declares one for its times ("All times below are CEST", a table whose time column is headed
"Time (PT, UTC-8)").

Passing::

    >>> document_zone("Timeline. All times below are CEST.")
    '+02:00'
    >>> document_zone("Times in the table are PDT; the evidence is in UTC.")
    '-07:00'
    >>> column_zone("| Time (PT, UTC-8) | Event | Source |")
    '-08:00'

Failing (no zone declared)::

    >>> column_zone("| Time | Event |") is None
    True
"""

from __future__ import annotations

import re

# abbreviations in common use in incident write-ups, with their standard offsets (IANA tz database)
ZONE_NAMES = {"CET": "+01:00", "CEST": "+02:00", "EET": "+02:00", "EEST": "+03:00", "WET": "+00:00", "BST": "+01:00",
              "EST": "-05:00", "EDT": "-04:00", "CST": "-06:00", "CDT": "-05:00", "MST": "-07:00", "MDT": "-06:00",
              "PST": "-08:00", "PDT": "-07:00", "JST": "+09:00", "KST": "+09:00", "AEST": "+10:00", "AEDT": "+11:00",
              "ICT": "+07:00", "WIB": "+07:00", "SGT": "+08:00", "HKT": "+08:00", "PHT": "+08:00", "AWST": "+08:00",
              "NZST": "+12:00", "NZDT": "+13:00", "MSK": "+03:00", "EAT": "+03:00", "SAST": "+02:00", "CAT": "+02:00",
              "WAT": "+01:00", "BRT": "-03:00", "ART": "-03:00", "AKST": "-09:00", "AKDT": "-08:00", "HST": "-10:00",
              "IST": "+05:30", "NPT": "+05:45", "PKT": "+05:00", "GST": "+04:00", "ACST": "+09:30", "ACDT": "+10:30"}
# IST is read as India Standard Time, its most common use in operations write-ups (Irish and Israel Standard Time
# share the letters; a document that means one of them should give the offset: "IST (UTC+1)")

_ZONE = r"(?P<zone>(?:UTC|GMT)\s?[+-]\s?\d{1,2}(?::?\d{2})?|[+-]\d{2}:?\d{2}|[A-Z]{3,4})\b"
_DOC_ZONE = re.compile(  # "all times below are CEST" anywhere; "Times in the table are CEST" as a sentence of its own
    r"(?:\b(?i:all\s+(?:the\s+)?times)|(?:^|(?<=[.!?]\s)|(?<=\n))\s*(?:The\s+)?Times)"
    r"(?i:(?:\s+(?:below|here|above|in\s+(?:this|the)\s+\w+))?\s*(?:are\s+|:\s*)?(?:in\s+|given\s+in\s+)?)" + _ZONE
)
_CELL_ZONE = re.compile(r"(?<![\w+-])" + _ZONE)
_TIME_HEADER = re.compile(r"\b(?:time|when|timestamp)\b", re.I)


def offset(raw: str) -> str | None:
    """``+02:00`` (or ``UTC``) for a zone as written: "CEST", "UTC+2", "-0800"; None for a word that is no zone."""
    raw = raw.replace(" ", "")
    if raw.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    if raw.upper() in ZONE_NAMES:
        return ZONE_NAMES[raw.upper()]
    m = re.fullmatch(r"(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?", raw, re.I)
    if m is None:
        return None
    sign, hours, minutes = m.groups()
    return f"{sign}{int(hours):02d}:{minutes or '00'}"


def document_zone(text: str) -> str | None:
    """The zone a findings document declares for its times ("All times below are CEST", "all times UTC+2"), as an
    offset such as ``+02:00`` (or ``UTC``); claims that give a time without a zone are read in it."""
    m = _DOC_ZONE.search(text)
    return offset(m.group("zone")) if m else None


def column_zone(header: str) -> str | None:
    """The zone a table's time column is headed with ("Time (PT, UTC-8)", "When (UTC)"); its rows' times are in it."""
    for cell in header.strip().strip("|").split("|"):
        if _TIME_HEADER.search(cell):
            for m in _CELL_ZONE.finditer(cell):
                found = offset(m.group("zone"))
                if found:
                    return found
    return None
