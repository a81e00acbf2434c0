"""The checkable facts of a claim (its citation tokens already removed).

=============  ==================================================================================
fact           recognised as
=============  ==================================================================================
quote          text in '...', "...", “...” or ‘...’
status         an HTTP status in HTTP context: "HTTP 429", "429 errors", "status 500", "returned 503",
               "503 Service Unavailable", "HTTP 502 and 504"
identifier     URLs, IPv4 addresses, host names, dotted names (``java.net.SocketTimeoutException``),
               CamelCase (``HikariPool``), snake_case (``max_retries``), error codes (``ECONNRESET``,
               ``ERR_CERT_DATE_INVALID``, ``net::ERR_...``), paths (``/var/log/app``), hex ids
version        ``8.9.0-2464525``, ``v2.3``, or ``8.9`` after the word version/release/build
number         a number bound to a noun or unit: "pool size 20", "port 8443", "3 retries", "300 seconds"
time           a time of day, optionally zoned: "10:30:45", "10:30 UTC", "14:05:11+01:00"
universal      "all", "every", "each", "none", "only", "always" (every cited item must hold)
=============  ==================================================================================
"""

from __future__ import annotations

import bisect
import datetime as dt
import json
import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import resources

from .. import units
from ..text import STOP_WORDS, Quantity, parse_quantity, stem
from ..zones import ZONE_NAMES as ZONE_NAMES  # re-exported: the zone grammar lives in citeproof.zones
from ..zones import document_zone as document_zone

QUOTE_PATTERNS = _QUOTES = (
    re.compile(r"(?<![\w'])'([^'\n]{2,300}?)'(?![\w])"),
    re.compile(r'"([^"\n]{2,300}?)"'),
    re.compile(r"“([^”\n]{2,300}?)”"),
    re.compile(r"‘([^’\n]{2,300}?)’"),
)
_REASONS = (
    "OK|Created|Accepted|No Content|Partial Content|Moved Permanently|Found|See Other|Not Modified|Temporary Redirect|"
    "Permanent Redirect|Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|"
    "Not Acceptable|Request Timeout|Conflict|Gone|Payload Too Large|Unprocessable Entity|Too Many Requests|"
    "Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Timeout|Switching Protocols"
)
_CODE = r"([1-5]\d{2})"
_MORE = r"((?:\s?(?:,|/|\band\b|\bor\b|&)\s?(?:HTTP\s?)?[1-5]\d{2}\b)*)"
_STATUS = (
    re.compile(r"\bHTTP(?:/\d(?:\.\d)?)?[\s-]?(?:status\s)?(?:code\s)?" + _CODE + r"\b" + _MORE, re.I),
    re.compile(r"\bstatus(?:\scodes?|es)?\s?(?:of|=|:|was|is|were)?\s?" + _CODE + r"\b" + _MORE, re.I),
    re.compile(
        r"\b(?:returned|returns|returning|responded|respond|got|received|receiving|answered|answering)\s(?:with\s)?(?:an?\s)?(?:HTTP\s)?"
        + _CODE + r"\b" + _MORE, re.I,
    ),
    re.compile(
        r"(?<![\w.:/\-])" + _CODE
        + r"(?:\s?(?:errors?|responses?|status(?:es)?|codes?|revalidations?|redirects?|replies|reply|answers?)\b|s\b)",
        re.I,
    ),
    re.compile(r"(?<![\w.:/\-])" + _CODE + r"\s(?:" + _REASONS + r")\b", re.I),
)

_HTTP_CONTEXT = re.compile(
    r"\b(?:HTTP|HAR|status|request|requests|response|responses|returned|revalidated|redirect(?:ed)?|GET|POST|PUT|endpoint|entry|entries|URL)\b"
)
_BARE_STATUS = re.compile(
    r"(?:\b(?:with|as|a|an|got|gave|gets|by)\s(?:an?\s)?)" + _CODE + r"(?![\w.,:/\-]|\s?(?:%|ms|s\b|sec|seconds|minutes|bytes|[KMG]B))"
)

_ERRNO = frozenset(
    "ECONNRESET ECONNREFUSED ECONNABORTED ETIMEDOUT ENOSPC ENOENT EACCES EPIPE EHOSTUNREACH ENETUNREACH EADDRINUSE "
    "ENOMEM EMFILE ENFILE EAGAIN EEXIST EPERM EIO ENOTFOUND EAI_AGAIN ESRCH EBADF EINVAL EROFS EDQUOT ENOTCONN "
    "SERVFAIL NXDOMAIN SIGKILL SIGTERM SIGSEGV SIGABRT SIGINT SIGHUP".split()
)
_TLDS = "com|net|org|io|dev|cloud|local|internal|example|lan|corp|edu|gov|co|us|uk|de|fr|jp|info|biz|app|ai|svc|cluster"
_IDENTIFIERS = (
    re.compile(r"\bhttps?://[^\s)\]>'\"`,]+", re.I),
    re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\w.])"),
    re.compile(r"(?<![\w.\-])(?:localhost|[a-z][a-z0-9\-]*(?:\.[a-z0-9\-]+)+):\d{2,5}\b", re.I),
    re.compile(r"(?<![\w.\-])(?=[\w-]*[a-z])[a-z0-9][\w-]*(?:\.[a-z0-9][\w-]*)*\.(?:" + _TLDS + r")(?![\w-])", re.I),
    re.compile(r"(?<![\w.\-])[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}(?![\w-])(?<=\d)", re.I),
    # a numbered host, node or worker: api-3, web-03, lb-1, broker-2 (not utf-8, sha-256, top-10)
    re.compile(r"(?<![\w.\-/])(?!(?:utf|sha|iso|rfc|top|http|tls|ipv|covid|md|x)-)[a-z][a-z0-9]*-\d{1,4}(?![\w\-]|\.\w)"),
    re.compile(r"\b[a-zA-Z_][\w$]*(?:\.[a-zA-Z_][\w$]*){2,}\b"),
    re.compile(r"\b[A-Z][a-z0-9]+[A-Z]\w*\b"),
    re.compile(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b"),
    re.compile(r"\b[A-Z]{2,}[a-z]{3,}\w*\b"),
    re.compile(r"\bnet::ERR_\w+"),
    re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"),
    re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
    re.compile(r"(?<![\w:/.])/(?:[\w.\-]+/)+[\w.\-]*\w"),
    re.compile(r"\b0x[0-9a-fA-F]+\b"),
    re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}(?:-[0-9a-f]{4,})*\b"),
    re.compile(r"\b(?:" + "|".join(sorted(_ERRNO)) + r")\b"),
)
_VERSION = re.compile(
    r"(?<![\w.\-])v?(\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?)(?![\w.])"
    r"|\b(?:version|release|build|v)\s?(\d+\.\d+(?:\.\d+)*(?:[-+][\w.]+)?)\b",
    re.I,
)
_ZONE_NAMES = ZONE_NAMES
_TIME = re.compile(
    # not an offset ("+08:00", "UTC-05:00"); an offset after the time, even in brackets ("14:19:30 (+08:00)"), is its zone
    r"(?<![\d:.+])(?<![\s(\[]-)(?<!UTC-)(?<!GMT-)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?(?!\d|:\d)\s?(?:([AaPp])\.?[Mm]\.?\b\s?)?"
    # an offset glued to a time without seconds is the end of a range ("10:00-11:00"), not its zone
    r"(Z\b|UTC\b|GMT\b|(?(3)\(?[+-]\d{2}:?\d{2}\b(?!:\d)\)?|(?:(?<=\s)\(?[+-]\d{2}:?\d{2}\b(?!:\d)\)?|\+\d{2}:?\d{2}\b(?!:\d)"
    r"|\([+-]\d{2}:?\d{2}\)))|(?:"
    + "|".join(_ZONE_NAMES) + r")\b)?"
)
_NUMBER = re.compile(r"(?<![\w.:/\-#$])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d.:]\d|[\w\-/]{0,40}\d)")
# "Entry 33 returned ...", "Line 349 shows ...": the number names the cited item; it is not a fact
_REFERENCE_BEFORE = re.compile(
    r"\b(?:entry|entries|line|lines|request|requests|row|rows|item|items|step|case|claim|attempt|page|part|phase|index|no\.?|number)"
    r"\s?#?\s?$",
    re.I,
)
_WORD_AFTER = re.compile(r"(?:\s|-)?(%|[A-Za-z][A-Za-z\-]*(?:/[A-Za-z]+)?)(?:\s([A-Za-z][A-Za-z\-]*))?")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z_\-]*)(?:\s(?:of|is|was|=|:|at|to|set to|reached))?\s?[=:]?\s?$")
_LIST_AFTER = re.compile(r"\s?(?:,|and|&|or)\s?\d")
_LIST_BEFORE = re.compile(r"\d\s?(?:,|and|&|or)\s?$")
_UNIVERSAL = re.compile(r"\b(?:all|every|each|none|always|both)\b", re.I)
_ORDINAL_UNITS = frozenset({"st", "nd", "rd", "th"})
_STATUS_CLASS = re.compile(r"\b([1-5])xx\b", re.I)
_ALLCAPS = re.compile(r"\b[A-Z][A-Z0-9]{2,}\b")
_COMMON_CAPS = frozenset("HTTP HTTPS HAR API URL UTC GMT GET POST PUT DELETE HEAD PATCH OPTIONS JSON XML YAML INFO WARN WARNING ERROR "
                         "DEBUG TRACE FATAL NOTE TODO THE AND NOT".split())
_WORD_NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty".split())}
WORD_NUMBERS = tuple(_WORD_NUMBERS)  # "three": the numbers written as words that are read as counts
_WORD_NUMBER_START = re.compile(r"\b(" + "|".join(_WORD_NUMBERS) + r")\b(?=\s)", re.I)
_ONE_NOT_COUNT = re.compile(r"\b(?:every|each|any|no|the|which|this|that|only|at|one)\s$", re.I)
_MONTH_NAMES = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}
_MON = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)"
)
_DATES = (
    re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s" + _MON + r"\.?,?\s(\d{4})\b", re.I),  # 15 December 2011
    re.compile(r"\b" + _MON + r"\.?\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})\b", re.I),  # December 15, 2011
    re.compile(r"(?<![\d\-])(\d{4})-(\d{2})-(\d{2})(?![\d\-:T])"),  # 2011-12-15 (no time)
)
_APPROX = re.compile(r"(?:around|about|approximately|approx\.?|roughly|circa|~)\s?$", re.I)


@dataclass(frozen=True)
class Number:
    raw: str
    value: float
    quantity: Quantity | None
    nouns: frozenset[str]
    spelled: bool = False  # written as a word ("three"): only checked as a count
    approx: bool = False  # "about 873 ms": within 2 %
    counts: frozenset[str] = frozenset()  # nouns after the number ("3 requests"): what it may count
    about: tuple[str, ...] = ()  # identifiers between the number and its noun ("four `X` errors")
    quoted: bool = False  # a quoted string stood between the number and its noun
    claimed: units.Claimed | None = None  # the values it stands for, in base units (rounding, bound, unit readings)
    span: tuple[int, int] = (0, 0)  # where it is written in the claim text (number and unit)
    parts: tuple[tuple[str, str], ...] = ()  # (number, unit) of each part of a compound duration

    def __post_init__(self) -> None:
        if not self.parts and self.quantity is not None:
            object.__setattr__(self, "parts", ((self.raw.split()[0], self.raw.split()[-1]),))


@dataclass(frozen=True)
class ClaimTime:
    raw: str
    seconds: float
    precision: float
    zone: str | None


@dataclass(frozen=True)
class Facts:
    quotes: tuple[str, ...] = ()
    statuses: tuple[int, ...] = ()
    identifiers: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()
    numbers: tuple[Number, ...] = ()
    times: tuple[ClaimTime, ...] = ()
    dates: tuple[tuple[str, dt.date], ...] = ()
    universal: bool = False
    status_classes: tuple[int, ...] = ()  # 5 for "5xx"
    software: tuple[str, ...] = ()  # well-known component names: nginx, postgres, kafka
    keywords: tuple[str, ...] = ()  # ALL-CAPS terms such as OOM, SSL (used for negative claims)

    @property
    def hard(self) -> bool:
        return bool(
            self.quotes or self.statuses or self.identifiers or self.versions or self.numbers or self.times or self.status_classes
            or self.dates or self.software
        )


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


_PROCESS_EXIT = re.compile(r"\b(?:exit(?:ed|s|ing)?|terminated|killed|died)\b(?:\s+\w+){0,3}?(?:\s+with)?(?:\s+an?)?"
                           r"\s+(?:exit\s+)?(?:status|code)(?:\s*(?:of|=|:))?\s*$", re.I)
_LOOSE_STATUS = re.compile(
    r"(?<![\w.:/\-#$])(?<!\d,)" + _CODE
    + r"(?=\s*(?:[,;:)|]|\.(?!\w)|$|\b(?:at|on|for|from|in|and|or|with|after|when|while|to|by|each|too|as)\b))"
)


_THOUSANDS = re.compile(r",\d{3}(?!\d)")


@cache
def _status_ranges() -> tuple[tuple[int, int], ...]:
    data = json.loads(resources.files("citeproof").joinpath("data/http.json").read_text(encoding="utf-8"))
    return tuple((int(low), int(high)) for low, high in data["statuses"])


def is_status(code: int) -> bool:
    """Whether ``code`` is an HTTP status that exists (``data/http.json``: the IANA registry and codes servers log)."""
    return any(low <= code <= high for low, high in _status_ranges())


def extract(text: str, http: bool = False) -> Facts:
    """Facts of ``text``; ``http`` says the claim cites HTTP captures, so a bare 3-digit code is a status."""
    return _kept_facts(text, http) if len(text) <= KEPT_TEXT else _extract(text, http)


KEPT_TEXT = 4096  # facts of texts up to this long are kept: a claim is read by several checks, a line by every claim citing it


@lru_cache(maxsize=2048)
def _kept_facts(text: str, http: bool) -> Facts:
    return _extract(text, http)


def _extract(text: str, http: bool = False) -> Facts:
    quotes: list[str] = []
    rest = text
    for pattern in _QUOTES:
        for m in pattern.finditer(text):
            quotes.append(" ".join(m.group(1).split()))
        rest = pattern.sub(" ", rest)
    statuses: list[int] = []
    status_spans: list[tuple[int, int]] = []
    patterns = _STATUS + ((_BARE_STATUS,) if http or _HTTP_CONTEXT.search(rest) else ()) + ((_LOOSE_STATUS,) if http else ())
    for pattern in patterns:
        named = pattern in _STATUS[:2]  # "HTTP 503", "status 503": said to be a status, whatever the number
        for m in pattern.finditer(rest):
            if _PROCESS_EXIT.search(rest, max(0, m.start(1) - 40), m.start(1)):
                continue  # "exited with status 137": a process's exit status, not an HTTP one
            if not named and (_THOUSANDS.match(rest, m.end(1)) or not is_status(int(m.group(1)))):
                continue  # "323,985 bytes", "260 responses": a number, not a status
            more = m.group(2) if m.re.groups >= 2 else ""
            for code in [m.group(1), *re.findall(r"[1-5]\d{2}", more or "")]:
                if int(code) not in statuses and (named or is_status(int(code))):
                    statuses.append(int(code))
            status_spans.append(m.span())
    identifiers, id_spans = _identifiers(rest)
    versions = [m.group(1) or m.group(2) for m in _VERSION.finditer(rest)]
    versions = [v for v in versions if not re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", v)]
    times, time_spans = _times(rest)
    dates, date_spans = _dates(rest)
    blocked = status_spans + id_spans + time_spans + date_spans + [m.span() for m in _VERSION.finditer(rest)]
    numbers = _numbers(rest, blocked) + _word_numbers(rest)
    classes = tuple(dict.fromkeys(int(m.group(1)) for m in _STATUS_CLASS.finditer(rest)))
    keywords = _unique([m.group(0) for m in _ALLCAPS.finditer(rest) if m.group(0) not in _COMMON_CAPS])
    return Facts(
        quotes=_unique(quotes),
        statuses=tuple(statuses),
        identifiers=_unique(identifiers),
        versions=_unique(versions),
        numbers=tuple(numbers),
        times=tuple(times),
        dates=tuple(dates),
        universal=bool(_UNIVERSAL.search(rest)),
        status_classes=classes,
        keywords=keywords,
        software=_unique([m.group(0).lower() for m in software_pattern().finditer(rest)]),
    )


@cache
def software_pattern() -> re.Pattern[str]:
    data = json.loads(resources.files("citeproof").joinpath("data/software.json").read_text(encoding="utf-8"))
    names = sorted(data["names"], key=len, reverse=True)
    return re.compile(r"(?<![\w.\-/])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w\-])", re.I)


_NOT_IDENTIFIER = re.compile(r"[KMGTPE]i?B|[kKMGT]bps|[KMGT]iB/s|ms|µs|ns", re.I)


def _identifiers(text: str) -> tuple[list[str], list[tuple[int, int]]]:
    found: list[tuple[int, int, str]] = []
    for pattern in _IDENTIFIERS:
        for m in pattern.finditer(text):
            value = m.group(0).rstrip(".,;:")
            if len(value) < 3 or _NOT_IDENTIFIER.fullmatch(value) or software_pattern().fullmatch(value):
                continue  # a unit (GiB, MiB) or a product name (PostgreSQL) is not an identifier to find verbatim
            found.append((m.start(), m.start() + len(value), value))
    found.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    end = -1
    for start, stop, value in found:
        if start >= end:
            out.append(value)
            spans.append((start, stop))
            end = stop
    return out, spans


_RANGE_END = re.compile(r"\s?[–—-]\s?(\d{1,2}):\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?\s?(?:([AaPp])\.?[Mm]\.?\b\s?)?"
                        r"(Z\b|UTC\b|GMT\b|(?:" + "|".join(ZONE_NAMES) + r")\b)?")
_HOUR_AFTER = re.compile(r"\s*(?:UTC\s+|GMT\s+|Z\s+)?(?:clock\s+)?hour\b", re.I)


def _times(text: str) -> tuple[list[ClaimTime], list[tuple[int, int]]]:
    out: list[ClaimTime] = []
    spans: list[tuple[int, int]] = []
    for m in _TIME.finditer(text):
        hh, mm, ss, frac, half, zone = m.groups()
        end = _RANGE_END.match(text, m.end()) if not (half and zone) else None
        if end is not None:  # "2:03:58–2:04:00 PM", "10:00-11:00 UTC": the range's end names both ends' half and zone
            if not half and end.group(2) and int(hh) % 12 <= int(end.group(1)) % 12:  # not "11:45-12:20 PM": 11:45 AM
                half = end.group(2)
            zone = zone or end.group(3)
        hour = int(hh)
        if hour > 23 or int(mm) > 59 or (ss and int(ss) > 59) or (half and not 1 <= hour <= 12):
            continue
        if half:
            hour = hour % 12 + (12 if half.lower() == "p" else 0)
        zone = zone.strip("()") if zone else zone
        zone = _ZONE_NAMES.get(zone.upper(), zone) if zone else zone
        seconds = hour * 3600 + int(mm) * 60 + int(ss or 0) + (float("0." + frac) if frac else 0.0)
        precision = 60.0 if ss is None else (1.0 if not frac else 0.001)
        if _APPROX.search(text[max(0, m.start() - 20) : m.start()]):
            precision = max(precision, 60.0)
        if ss is None and mm == "00" and _HOUR_AFTER.match(text, m.end()):
            seconds, precision = seconds + 1800.0, 1800.0  # "the 09:00 hour": any time from 09:00 to 10:00
        out.append(ClaimTime(m.group(0).strip(), seconds, precision, zone.upper() if zone else None))
        spans.append(m.span())
    return out, spans


def _numbers(text: str, blocked: list[tuple[int, int]]) -> list[Number]:
    out: list[Number] = []
    starts, ends = units.merged_spans(blocked)
    for m in _NUMBER.finditer(text):
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and m.start() < ends[k]:
            continue
        raw_number = m.group(0)
        if _REFERENCE_BEFORE.search(text, max(0, m.start() - 16), m.start()):
            continue
        if _LIST_AFTER.match(text, m.end()) or _LIST_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
            continue  # "entries 3, 9 and 12": identifiers in a list, not quantities
        after = _WORD_AFTER.match(text, m.end())
        unit = after.group(1) if after else ""
        if unit.lower() in _ORDINAL_UNITS or (1900 <= float(raw_number.replace(",", "")) <= 2100 and not unit):
            continue
        out.append(_number(text, m, after, raw_number, unit))
    return _compounds(text, out)


_OF_THEM = re.compile(r"\s+of\s+(?:them|these|those|which|the\s+cited\s+ones)\s+(?:were\s+|was\s+|are\s+|being\s+|returned\s+)?", re.I)


def _number(text: str, m: re.Match[str], after: re.Match[str] | None, raw_number: str, unit: str) -> Number:
    """One number of the claim, with what it is bound to: a unit, a noun it counts or names, a bound."""
    noun = after.group(2) if after else None
    glued = after is not None and after.start(1) == m.end()
    scale = units.multiplier(unit, noun_follows=glued and bool(noun) and units.unit(noun or "") is None) if unit else None
    value = float(raw_number.replace(",", "")) * (scale or 1.0)
    quantity = parse_quantity(f"{raw_number} {unit}") if unit and not scale else None
    nouns: set[str] = set()
    counts: set[str] = set()
    about: tuple[str, ...] = ()
    quoted = False
    if quantity is None or quantity.unit == "":
        for word in (unit if not scale else None, after.group(2) if after else None):
            if word and word.lower() not in STOP_WORDS and word.isalpha():
                nouns.add(stem(word.lower()))
        rest = text[(after.end(1) if scale and after else m.end()) :][:80]
        of_them = _OF_THEM.match(rest)  # "125 requests, 15 of them 404s": 15 counts the 404s among them
        head, about, quoted = head_noun(rest[of_them.end():] if of_them else rest)
        if head:
            counts.add(head)
        before = _WORD_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
        if before and before.group(1).lower() not in STOP_WORDS:
            nouns.add(stem(before.group(1).lower()))
    raw = (raw_number + (" " + unit if unit else "")).strip()
    bound = units.bound_before(text[: m.start()])
    with_unit = quantity is not None and quantity.unit != ""
    claimed = units.claimed(raw_number, unit if with_unit else "", bound, scale or 1.0) if with_unit or scale or bound else None
    end = after.end(1) if after and (with_unit or scale) else m.end()
    return Number(raw, value, quantity if with_unit else None, frozenset(nouns),
                  approx=bound == "approx" or bool(_APPROX.search(text[max(0, m.start() - 20) : m.start()])),
                  counts=frozenset(counts), about=about if counts else (), quoted=bool(counts) and quoted,
                  claimed=claimed, span=(m.start(), end))


_COMPOUND_GAP = re.compile(r"\s*(?:,|and)?\s*")


def _compounds(text: str, numbers: list[Number]) -> list[Number]:
    """Adjacent durations in falling units are one: "4 minutes 12 seconds", "3 h 13 min"."""
    out: list[Number] = []
    for n in numbers:
        prev = out[-1] if out else None
        if (prev is not None and prev.quantity is not None and n.quantity is not None and prev.quantity.unit == n.quantity.unit == "s"
                and _COMPOUND_GAP.fullmatch(text, prev.span[1], n.span[0]) and prev.parts[-1][1] != n.raw.split()[-1]
                and (units.unit(prev.parts[-1][1]) or ("", 0.0))[1] > (units.unit(n.raw.split()[-1]) or ("", 0.0))[1]):
            parts = (*prev.parts, (n.raw.split()[0], n.raw.split()[-1]))
            total = prev.quantity.value + n.quantity.value
            bound = units.bound_before(text[: prev.span[0]])
            out[-1] = replace(prev, raw=f"{prev.raw} {n.raw}", value=total, quantity=Quantity(total, "s"),
                              claimed=units.compound(list(parts), bound), span=(prev.span[0], n.span[1]), parts=parts)
            continue
        out.append(n)
    return out


_COUNTABLE = frozenset(
    "request requests response responses entry entries call calls error errors time times failure failures occurrence "
    "occurrences line lines message messages attempt attempts exception exceptions warning warnings event events "
    "retry retries timeout timeouts crash crashes restart restarts".split()
)


_COUNT_MODIFIERS = frozenset({"more", "further", "other", "additional", "separate", "distinct"})


def head_noun(text: str) -> tuple[str | None, tuple[str, ...], bool]:
    """What a number counts, from the text after it: (noun, identifiers between, a quote between).

    "failed requests" -> requests; "`RedisTimeoutException` errors" -> errors about that identifier;
    a quoted string already cut out of the text leaves a run of spaces: ``three   errors``.
    """
    quoted = bool(re.match(r"\s{2,}", text))
    about: list[str] = []
    for raw in text.split()[:4]:
        w = raw.strip("`'\"*.,;:()").lower()
        if re.fullmatch(r"[1-5]\d{2}s", w) or w in _COUNTABLE or (w.isalpha() and w.endswith("s") and len(w) > 3 and w not in STOP_WORDS):
            return w, tuple(about), quoted
        if w in _COUNT_MODIFIERS and not raw.endswith((",", ".", ";", ":")):
            continue  # "four more pages", "two further retries"
        if w in STOP_WORDS or raw.endswith((",", ".", ";", ":")):
            break
        if raw.startswith(("`", "'", '"')) or re.search(r"[a-z][A-Z]|[._:]\w", raw):
            about.append(raw.strip("`'\"*.,;:()"))
    return None, (), False


_SPELLED = re.compile(r"\b(" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")\b(?=\s+[A-Za-z])", re.I)


def spelled_out(text: str) -> str:
    """``text`` with numbers written as words before a noun in digits ("sixteen CPU cores" -> "16 CPU cores")."""
    return _SPELLED.sub(lambda m: str(_WORD_NUMBERS[m.group(1).lower()]), text)


def _word_numbers(text: str) -> list[Number]:
    """Counts written as words: "three websocket upgrades", "two 404s", "four `X` errors"."""
    out: list[Number] = []
    for m in _WORD_NUMBER_START.finditer(text):
        word = m.group(1).lower()
        if word == "one" and (re.match(r"\s(?:of|another|by)\b", text[m.end(1):]) or _ONE_NOT_COUNT.search(text[: m.start()])):
            continue
        after = re.sub(r"^\s(?:of\s+)?(?:the\s+)?(?:(?:cited|these|those|logged|captured|above)\s+)?", "", text[m.end(1) : m.end(1) + 120])
        noun, about, quoted = head_noun(after)
        if noun is None:
            continue
        out.append(Number(m.group(0), float(_WORD_NUMBERS[word]), None, frozenset({stem(noun)}), spelled=True,
                          counts=frozenset({noun}), about=about, quoted=quoted, span=m.span(1)))
    return out


_NEGATION = re.compile(
    r"\b(?:no|never|none|zero|nothing|neither|nor|not\s(?:a\s(?:single\s)?|any|one)|without\s(?:any|a)|"
    r"(?:did|does|do|was|were|is|are|has|have|had)(?:\s(?:still|also|yet|then))?(?:\snot|n't)(?!\s(?:only|until))|didn't|wasn't|"
    r"weren't|hasn't|haven't|doesn't|don't)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[;:,]\s|\s(?:but|while|whereas|although|though|however)\s|[.!?](?:\s|$)"
                         r"|\sand\s(?!no\b|not\b|never\b|none\b)(?=(?:\w+\s)?(?:\w+ed|was|were|is|are|has|had|raised|sent|got)\b)")
_NOT_NEGATION = re.compile(
    r"\b(?:no longer|no later than|no more than|not more than|not less than|not until|no\.|no content|not modified|not found|"
    r"not acceptable|not allowed|not implemented|no such)\b",
    re.I,
)
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”|‘[^’\n]*’")


def split_negation(text: str) -> tuple[str, str]:
    """(positive part, negated part) of a claim: "No 503s in entries 1-10" -> ("", "No 503s in entries 1-10")."""
    cleaned = _NOT_NEGATION.sub(lambda m: " " * len(m.group(0)), _QUOTED.sub(lambda m: " " * len(m.group(0)), text))
    m = _NEGATION.search(cleaned)
    if not m:
        return text, ""
    end = _CLAUSE_END.search(cleaned, m.end())
    stop = end.start() if end else len(text)
    return text[: m.start()] + " " + text[stop:], text[m.start() : stop]


def _month(name: str) -> int:
    low = name.lower()[:3]
    return next(i for m, i in _MONTH_NAMES.items() if m.startswith(low))


def _dates(text: str) -> tuple[list[tuple[str, dt.date]], list[tuple[int, int]]]:
    out: list[tuple[str, dt.date]] = []
    spans: list[tuple[int, int]] = []
    for index, pattern in enumerate(_DATES):
        for m in pattern.finditer(text):
            g = m.groups()
            try:
                if index == 0:
                    day = dt.date(int(g[2]), _month(g[1]), int(g[0]))
                elif index == 1:
                    day = dt.date(int(g[2]), _month(g[0]), int(g[1]))
                else:
                    day = dt.date(int(g[0]), int(g[1]), int(g[2]))
            except ValueError:
                continue
            out.append((m.group(0), day))
            spans.append(m.span())
    return out, spans


