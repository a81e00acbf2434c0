"""Small text helpers shared by the checks: significant terms, light stemming, values with units.

``terms()`` lower-cases, drops stop words and words under three letters, and reduces common English
suffixes so that "failed", "failure" and "failing" share the term ``fail``.

``parse_quantity()`` reads ``30s``, ``30000 ms``, ``1.5 GB``, ``150 requests/minute`` or ``80%`` into a
magnitude in a base unit (seconds, bytes, per-second rates, percent) so values written differently
compare equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers him his how i if in into is it its itself just let me more most my no
    nor not now of off on once only or other our out over own same she should so some such than that the
    their them then there these they this those through to too under until up very was we were what when
    where which while who whom why will with would you your shows show showed shown found find line
    lines entry entries file log logs see per via using used use indicates indicate indicating which
    evidence cited claim citation""".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]+")
_SUFFIXES = ("ations", "ation", "ments", "ment", "ingly", "ings", "ing", "ures", "ure", "ied", "ies", "ed", "es", "s", "ly", "er")


def stem(word: str) -> str:
    w = word.lower()
    if len(w) > 4 and w.endswith(("ies", "ied")):
        return w[:-3] + "y"  # retries, retried -> retry (and retrying -> retry below)
    for suffix in _SUFFIXES:
        if len(w) - len(suffix) >= 3 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # stopped -> stopp -> stop
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def ordered_terms(text: str) -> list[str]:
    """Significant stemmed terms of ``text`` in reading order, without repeats (snake_case split too)."""
    out: dict[str, None] = {}
    for m in _WORD.finditer(text):
        word = m.group(0)
        pieces = [word, *re.split(r"_+", word)] if "_" in word else [word]
        for piece in pieces:
            low = piece.lower()
            if len(low) < 3 or low in STOP_WORDS:
                continue
            out[stem(low)] = None
    return list(out)


def terms(text: str) -> set[str]:
    """Significant stemmed terms of ``text`` (also splitting snake_case and dotted names)."""
    return set(ordered_terms(text))


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # "" (plain number), "s", "B", "/s", "%"


_TIME = {
    "ms": 0.001, "msec": 0.001, "millisecond": 0.001, "milliseconds": 0.001,
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "m": 60.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "day": 86400.0, "days": 86400.0, "week": 604800.0, "weeks": 604800.0,
}
_SIZE = {
    "b": 1.0, "byte": 1.0, "bytes": 1.0, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
    "kib": 1024.0, "mib": 1024.0**2, "gib": 1024.0**3, "tib": 1024.0**4,
    "ki": 1024.0, "mi": 1024.0**2, "gi": 1024.0**3, "ti": 1024.0**4,
}
_RATE = re.compile(
    r"^(?:req(?:uest)?s?|calls?|queries|messages|events|ops)?\s*(?:/|per\s+)\s*(s|sec|second|m|min|minute|h|hr|hour)$"
)
_QTY = re.compile(r"^\s*(-?\d+(?:,\d{3})*(?:\.\d+)?)\s*([A-Za-z%/ ]*?)\s*$")


def parse_quantity(text: str) -> Quantity | None:
    """``'30s'`` -> Quantity(30, 's'); ``'150 requests/minute'`` -> Quantity(2.5, '/s'); else None."""
    m = _QTY.match(text)
    if not m:
        return None
    number = float(m.group(1).replace(",", ""))
    unit = m.group(2).strip().lower()
    if not unit:
        return Quantity(number, "")
    if unit == "%" or unit == "percent":
        return Quantity(number, "%")
    if unit in _TIME:
        return Quantity(number * _TIME[unit], "s")
    if unit in _SIZE:
        return Quantity(number * _SIZE[unit], "B")
    rate = _RATE.match(unit.replace("requests", "req").replace("rpm", "req/min"))
    if rate:
        return Quantity(number / _TIME[rate.group(1)], "/s")
    if unit == "rpm":
        return Quantity(number / 60.0, "/s")
    return None


_SIZE_KEY = re.compile(r"(?:heap|mem|memory|size|xmx|xms|ram|disk|bytes|buffer|cache|quota|limit_mb|limit_gb)", re.I)
_SHORT_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s?([kmgt])b?\s*$", re.I)


def size_from_key(key: str, value: str) -> Quantity | None:
    """``jvm_heap_max: 8g`` -> 8 GiB: a k/m/g/t suffix is a size when the key names one (never minutes)."""
    m = _SHORT_SIZE.match(value)
    if not m or not _SIZE_KEY.search(key):
        return None
    power = "kmgt".index(m.group(2).lower()) + 1
    return Quantity(float(m.group(1)) * 1024.0**power, "B")


def unit_from_key(key: str) -> str | None:
    """Unit implied by a config key name: ``timeout_ms`` -> ``ms``, ``size_mb`` -> ``mb``."""
    m = re.search(r"[_.\-](ms|msec|s|sec|secs|seconds|m|min|mins|minutes|h|hours|kb|mb|gb|bytes)$", key.lower())
    return m.group(1) if m else None


def same_number(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def same_quantity(a: Quantity, b: Quantity) -> bool:
    """Equal quantities; sizes may differ by the decimal/binary ambiguity (8 GB and 8 GiB)."""
    if a.unit != b.unit:
        return False
    if a.unit == "B":
        return abs(a.value - b.value) <= 0.075 * max(abs(a.value), abs(b.value))
    return same_number(a.value, b.value)
