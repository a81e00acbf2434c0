"""Quantities with units: the range of values a claimed quantity stands for, and the amounts evidence
text states, compared in base units (seconds, bytes, percent).

A claimed value stands for the values that round to it: "3.8 GiB" is 3.75–3.85 GiB, "49 ms" is
48.5–49.5 ms, "4 minutes 12 seconds" is 251.5–252.5 s. "About", "roughly", "nearly" widen that to 5 %;
"over"/"more than" make it a lower bound (up to half as much again) and "under"/"within" an upper one
(down to half). kB, MB and GB are read both
as powers of 1000 and of 1024, as memory tools and kernels use them.

The evidence states amounts as a number with a unit (``30000ms``, ``2Gi``, ``1.5 GB``), a Go-style
compound duration (``3h12m41.221s``), a bare number after a key that names its unit (``durationMs=4821``,
``"took_ms": 48``, ``size_bytes: 104857600``), or a bare number (``0/0/1/48/49``), which may be in the
claimed unit or in the base units (bytes; seconds or milliseconds).

The unit table is data (``citeproof/data/units.json``, with its sources).

>>> matches(claimed("3.8", "GiB", ""), amounts("anon-rss:3981220kB"))
True
>>> matches(claimed("3", "seconds", ""), amounts('"took":"30.001s"'))
False
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise
from typing import Any


@dataclass(frozen=True)
class Amount:
    """An amount the evidence states: ``value`` in the base unit of ``dim`` ("s", "B", "%"), or bare (dim "")."""

    value: float
    dim: str
    raw: str


@dataclass(frozen=True)
class Claimed:
    """The values a claimed quantity stands for, in base units: one range per reading of its unit."""

    ranges: tuple[tuple[float, float], ...]
    dim: str
    factor: float  # the claimed unit's factor to the base unit, for reading bare evidence numbers in it


@cache
def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(resources.files("citeproof").joinpath("data/units.json").read_text(encoding="utf-8"))
    return loaded


def unit(word: str) -> tuple[str, float] | None:
    """(dimension, factor to the base unit) of a unit word, or None (``M`` is a size, ``m`` minutes)."""
    found = _data()["case_sensitive"].get(word) if len(word) == 1 and word.isupper() else None
    found = found or _data()["units"].get(word.lower().rstrip("."))
    return (found[0], float(found[1])) if isinstance(found, list) else None


def multiplier(word: str, noun_follows: bool = False) -> float | None:
    """1e6 for "million" (and for "M" in "18.4M rows", when a noun follows); None for other words."""
    value = _data()["multipliers"].get(word.lower())
    if value is None and noun_follows:
        value = _data()["short_multipliers"].get(word)
    return float(value) if isinstance(value, int | float) else None


@cache
def _bound_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    bounds = _data()["bounds"]
    out = []
    for name in ("approx", "min", "max"):
        words = sorted(bounds[name], key=len, reverse=True)
        out.append((name, re.compile(r"(?:^|(?<=[\s(])|(?<=\w)(?=[<>≤≥]))(?:" + "|".join(re.escape(w) for w in words) + r")\s?$", re.I)))
    return tuple(out)


def bound_before(text: str) -> str:
    """How the number after ``text`` relates to the value: "approx", "min", "max" or "" ("within about" is "max")."""
    tail = text[-32:]
    patterns = dict(_bound_patterns())
    approx = patterns["approx"].search(tail)
    before = tail[: approx.start()] if approx else tail
    for name in ("min", "max"):
        if patterns[name].search(before):
            return name
    return "approx" if approx else ""


def half_unit(number: str) -> float:
    """Half a unit of the last digit written: 0.05 for "3.8", 0.5 for "49"."""
    decimals = len(number.split(".", 1)[1]) if "." in number else 0
    return 0.5 * 10.0**-decimals


def claimed(number: str, unit_word: str, bound: str, scale: float = 1.0) -> Claimed:
    """What "``number`` ``unit_word``" stands for (``scale`` for "million" and compound parts)."""
    value = float(number.replace(",", "")) * scale
    half = half_unit(number) * scale
    dim, factor = unit(unit_word) or ("", 1.0)
    return _ranges(value, half, bound, dim, factor, _data()["binary_ambiguous"].get(unit_word.lower()))


def _ranges(value: float, half: float, bound: str, dim: str, factor: float, alt: float | None) -> Claimed:
    low, high = value - half, value + half
    if bound == "approx":
        low, high = min(low, value * 0.95), max(high, value * 1.05)
    elif bound == "min":  # "over 30 seconds": 30 s or somewhat more, not any larger value
        low, high = min(low, value * 0.95), max(high, value * 1.5)
    elif bound == "max":  # "within 50 ms": up to 50 ms, not any smaller value
        low, high = min(low, value * 0.5), max(high, value * 1.05)
    factors = (factor,) + ((float(alt),) if alt else ())
    return Claimed(tuple((low * f, high * f) for f in factors), dim, factor)


def compound(parts: list[tuple[str, str]], bound: str) -> Claimed:
    """A duration written in several units ("4 minutes 12 seconds"): the sum, as precise as its last part."""
    total = 0.0
    half = 0.0
    for number, word in parts:
        _, factor = unit(word) or ("s", 1.0)
        total += float(number) * factor
        half = half_unit(number) * factor
    return _ranges(total, half, bound, "s", 1.0, None)


_JVM_FLAG = re.compile(r"-X(?:mx|ms|mn|ss)(\d+)([kKmMgGtT])\b|-XX:MaxDirectMemorySize=(?:\d+)")
_TIMESPAN = re.compile(r"(?<![\d:T])(?<!\d\s)(00|0):(\d{2}):(\d{2}(?:\.\d{1,7})?)(?![\d:])(?=\D*$|[\"'\s,)])")
_GO_DURATION = re.compile(r"(?<![\w.])((?:\d+(?:\.\d+)?(?:ns|us|µs|ms|h|m|s)){2,})(?![\w.])")
# systemd time spans and the like: "1min 30s", "2h 5min", "1d 3h 12min" (parts separated by a space)
_SPACED_SPAN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?(?:d|h|min|m|s|ms|us)(?:\s\d+(?:\.\d+)?(?:h|min|ms|m|s|us)(?!\w))+)(?!\w|\.\w)")
_SPAN_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|min|us|d|h|m|s)(?!\w)")
_GO_PART = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|h|m|s)")
_NUMBER = re.compile(r"(?:(?<![\w.\-])|(?<=[\s(\[]-))(\d{1,3}(?:,\d{3})+(?![\d])|\d+(?:\.\d+)?)(?:\s?([A-Za-zµ%]+))?")
_KEY_BEFORE = re.compile(r"([A-Za-z][\w.\-]*)[\"']?\s?[=:]\s?[\"']?$")
_KEY_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def key_unit(key: str) -> str | None:
    """The unit a field name gives its value: ``durationMs`` -> ms, ``size_bytes`` -> bytes."""
    pieces = _KEY_PIECE.findall(key)
    if len(pieces) < 2 and not re.search(r"[_\-.]", key):
        return None
    last = pieces[-1].lower() if pieces else ""
    found: str | None = _data()["key_units"]["suffixes"].get(last)
    return found


_NOT_AMOUNT = re.compile(  # times of day, dates, IP addresses, versions, hex ids and pids carry digits that are no amounts
    r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?|\d{4}-\d{2}-\d{2}|\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?|\d+(?:\.\d+){2,}"
    r"|\b(?=[0-9a-f]*[a-f])[0-9a-f]*\d[0-9a-f]*\b"
    r"|\[\d+\]|\(\d+\)|\b(?:pid|tid|ppid)[=:\s]\s?\d+")  # process ids: haproxy[2314], (2314), pid=2314


def amounts(text: str) -> tuple[Amount, ...]:
    """Every amount ``text`` states, in reading order (memoised: every claim citing the same lines reads them once)."""
    return _amounts(text)


@lru_cache(maxsize=16)  # bounded: a cited range may be thousands of lines
def _amounts(text: str) -> tuple[Amount, ...]:
    found: list[tuple[int, Amount]] = []
    taken: list[tuple[int, int]] = [m.span() for m in _NOT_AMOUNT.finditer(text)]
    for m in _JVM_FLAG.finditer(text):  # -Xmx4g, -Xms512m: JVM sizes in powers of 1024
        power = "kmgt".index(m.group(2).lower()) + 1
        found.append((m.start(), Amount(float(m.group(1)) * 1024.0**power, "B", m.group(0))))
        taken.append(m.span())
    for m in _TIMESPAN.finditer(text):  # .NET/Java elapsed times "00:00:04.2210000": a duration, not a time of day
        h, mi, sec = m.group(1), m.group(2), m.group(3)
        found.append((m.start(), Amount(int(h) * 3600 + int(mi) * 60 + float(sec), "s", m.group(0))))
    for m in _GO_DURATION.finditer(text):
        seconds = sum(float(n) * (unit(u) or ("s", 1.0))[1] for n, u in _GO_PART.findall(m.group(1)))
        found.append((m.start(), Amount(seconds, "s", m.group(1))))
        taken.append(m.span())
    for m in _SPACED_SPAN.finditer(text):
        parts = _SPAN_PART.findall(m.group(1))
        factors = [(unit(u) or ("s", 1.0))[1] for _, u in parts]
        if any(b >= a for a, b in pairwise(factors)):
            continue  # "backoff 1s 2s 4s 8s": a list of durations, not one written in parts
        seconds = sum(float(n) * f for (n, _), f in zip(parts, factors, strict=True))
        found.append((m.start(), Amount(seconds, "s", m.group(1))))
        taken.append(m.span())
    starts, ends = merged_spans(taken)
    for m in _NUMBER.finditer(text):
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and m.start() < ends[k]:
            continue  # inside a time, date, address, version or id, or already read as a duration
        found.extend((m.start(), a) for a in _number_amounts(text, m))
    return tuple(a for _, a in sorted(found, key=lambda pair: pair[0]))


def merged_spans(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Sorted, merged spans as parallel start and end lists, for bisection (``bisect_right(starts, i) - 1``)."""
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(spans):
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _number_amounts(text: str, m: re.Match[str]) -> list[Amount]:
    """What one number states: with its unit, its multiplier, the unit its field name gives, or bare."""
    number, word = m.group(1), m.group(2) or ""
    value = float(number.replace(",", ""))
    known = unit(word) if word else None
    scale = multiplier(word) if word and not known else None
    if known:
        return [Amount(value * f, known[0], m.group(0)) for f in _factors(word, known[1])]
    if scale:
        return [Amount(value * scale, "", m.group(0))]
    key = _KEY_BEFORE.search(text, max(0, m.start() - 48), m.start())
    named = key_unit(key.group(1)) if key else None
    known = unit(named) if named else None
    if known and named:
        return [Amount(value * f, known[0], m.group(1)) for f in _factors(named, known[1])]
    return [Amount(value, "", m.group(1))]


def _factors(word: str, factor: float) -> tuple[float, ...]:
    """A unit's factors: kB, MB and GB (and a bare K, M, G) both ways (1000 and 1024)."""
    key = {"K": "kb", "M": "mb", "G": "gb", "T": "tb"}.get(word, word.lower())
    alt = _data()["binary_ambiguous"].get(key)
    if word in ("K", "M", "G", "T"):
        alt = {"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}[key]
    return (factor,) + ((float(alt),) if alt else ())


def matches(claim: Claimed, found: Iterable[Amount]) -> bool:
    """Some amount of ``found`` is a value ``claim`` stands for (a bare number read in the claimed or a base unit)."""
    def inside(value: float) -> bool:
        return any(low <= value <= high for low, high in claim.ranges)

    for a in found:
        if a.dim == claim.dim and inside(a.value):
            return True
        if a.dim == "" and claim.dim and any(inside(a.value * f) for f in _bare_readings(claim)):
            return True
        if a.dim == "" and not claim.dim and inside(a.value):
            return True
    return False


def _bare_readings(claim: Claimed) -> tuple[float, ...]:
    """The units a bare evidence number may be in: the claimed unit, and the base units of its dimension."""
    if claim.dim == "s":
        return (claim.factor, 1.0, 0.001)
    if claim.dim == "B":
        return (claim.factor, 1.0, 1024.0)
    if claim.dim == "%":
        return (claim.factor, 100.0)  # a ratio: 0.4 is 40 %
    return (claim.factor,)


__all__ = ["Amount", "Claimed", "amounts", "bound_before", "claimed", "compound", "key_unit", "matches", "multiplier", "unit"]
