"""Timestamps in evidence: the formats recognised and how instants are found.

Recognised log timestamp formats (each line of :data:`FORMATS`):

================  ==========================================  ===========================
id                example                                     zone
================  ==========================================  ===========================
``iso``           ``2026-01-15T10:30:45.123Z``, ``2015-10-18 18:01:47,978``  its offset, else assumed
``clf``           ``[17/May/2015:10:05:03 +0000]``            its offset, else assumed
``syslog``        ``Jan 15 10:30:45``, ``[Sun Dec 04 04:47:44 2005]``  assumed; year may be absent
``compact``       ``081109 203615`` (yyMMdd HHmmss)           assumed
``slash``         ``17/06/09 20:10:40``, ``2026/09/02 14:03:11.482 +08:00``  its offset, else assumed
``dashdot``       ``2005-06-03-15.42.50.675872``              assumed
``monthday``      ``03-17 16:13:38.811`` (no year)            assumed
``healthapp``     ``20171224-1:2:35:789`` (unpadded)          assumed
``dotday``        ``[10.30 16:49:06]`` (MM.DD, no year)       assumed
``daymonyear``    ``09 Jun 2026 10:20:47.744`` (Redis)         assumed
``dashmon``       ``[14-Oct-2026 02:13:57]`` (PHP-FPM)        assumed
``klog``          ``I0519 04:01:13.204551`` (no year)          assumed
``epoch``         ``1768473045`` / ``1768473045123`` (s / ms)  UTC; not under a key that names no time (``status=``)
================  ==========================================  ===========================

Naive times are in ``assume_tz`` (UTC unless configured). Formats without a year match any year.

Finding an instant does not parse every line: a sample of the file (start, middle, end) tells which
formats and offsets it uses; the window asked for is rendered in those formats as literal text; the
file is searched for those strings at C speed (``mmap.find``); each hit is confirmed by parsing the
timestamp on its line and comparing instants.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .lines import LineFile

if TYPE_CHECKING:
    import numpy as np

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MON = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_MIN_YEAR = 1990

_ISO_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$",
    re.I,
)


def parse_iso(text: str, assume: dt.tzinfo = dt.UTC) -> dt.datetime | None:
    """Parse an ISO-8601 instant (``T`` or space, ``,``/``.`` fractions, ``Z`` or offsets)."""
    m = _ISO_RE.match(text.strip())
    if not m:
        return None
    year, month, day, hh, mm, ss, frac, tz = m.groups()
    try:
        micro = int((frac or "0")[:6].ljust(6, "0"))
        value = dt.datetime(int(year), int(month), int(day), int(hh or 0), int(mm or 0), int(ss or 0), micro)
    except ValueError:
        return None
    return value.replace(tzinfo=_tz(tz, assume))


def _tz(text: str | None, assume: dt.tzinfo) -> dt.tzinfo:
    if not text:
        return assume
    if text.upper() == "Z":
        return dt.UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0)))


@dataclass(frozen=True)
class Stamp:
    """A timestamp read from evidence: the instant (aware) and whether it carried a year."""

    instant: dt.datetime
    has_year: bool = True


@dataclass(frozen=True)
class TsFormat:
    id: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], dt.tzinfo], Stamp | None]
    render: Callable[[dt.datetime], tuple[str, ...]]
    zoned: bool = False


def _mk(y: int, mo: int, d: int, h: int, mi: int, s: int, frac: str | None, tz: dt.tzinfo, has_year: bool = True) -> Stamp | None:
    try:
        micro = int((frac or "0")[:6].ljust(6, "0"))
        return Stamp(dt.datetime(y, mo, d, h, mi, s, micro, tzinfo=tz), has_year)
    except ValueError:
        return None


def _iso(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = m.groups()
    return _mk(int(g[0]), int(g[1]), int(g[2]), int(g[3]), int(g[4]), int(g[5]), g[6], _tz(g[7], tz))


def _clf(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = m.groups()
    return _mk(int(g[2]), MONTHS.index(g[1]) + 1, int(g[0]), int(g[3]), int(g[4]), int(g[5]), None, _tz(g[6], tz))


def _syslog(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = m.groups()
    year = int(g[5]) if g[5] else 2000  # leap year, so Feb 29 parses
    return _mk(year, MONTHS.index(g[0]) + 1, int(g[1]), int(g[2]), int(g[3]), int(g[4]), None, tz, bool(g[5]))


def _compact(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = [int(x) for x in m.groups()]
    return _mk(2000 + g[0], g[1], g[2], g[3], g[4], g[5], None, tz)


def _slash(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    y = int(m.group(1))
    return _mk(y if y > 99 else 2000 + y, int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6)),
               m.group(7), _tz(m.group(8), tz))


def _dashdot(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = m.groups()
    return _mk(int(g[0]), int(g[1]), int(g[2]), int(g[3]), int(g[4]), int(g[5]), g[6], tz)


def _monthday(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = m.groups()
    return _mk(2000, int(g[0]), int(g[1]), int(g[2]), int(g[3]), int(g[4]), g[5], tz, False)


def _healthapp(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    g = m.groups()
    return _mk(int(g[0]), int(g[1]), int(g[2]), int(g[3]), int(g[4]), int(g[5]), g[6], tz)


_EPOCH_KEY = re.compile(r"(\w+)[=:]\s?$")
_TIME_KEY = re.compile(r"time|ts|date|epoch|when|stamp|created|updated|expires|start|end|^at$|^t$", re.I)


def _epoch(m: re.Match[str], tz: dt.tzinfo) -> Stamp | None:
    key = _EPOCH_KEY.search(m.string[max(0, m.start() - 32):m.start()])
    if key and not _TIME_KEY.search(key.group(1)):
        return None  # "status=2152398850", "bytes=1607001590": a number under another name is no instant
    secs = int(m.group(1))
    millis = m.group(2)
    try:
        value = dt.datetime.fromtimestamp(secs, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    if millis:
        value += dt.timedelta(milliseconds=int(millis))
    return Stamp(value) if value.year >= _MIN_YEAR else None


def _hms(t: dt.datetime) -> str:
    return t.strftime("%H:%M:%S")


FORMATS: tuple[TsFormat, ...] = (
    TsFormat(
        "iso",
        re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s?(Z|[+-]\d{2}:?\d{2}(?!\d))?", re.I),
        _iso,
        lambda t: (t.strftime("%Y-%m-%dT%H:%M:%S"), t.strftime("%Y-%m-%d %H:%M:%S")),
        zoned=True,
    ),
    TsFormat(
        "clf",
        re.compile(r"(?<!\d)(\d{2})/" + _MON + r"/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\s([+-]\d{4}))?"),
        _clf,
        lambda t: (f"{t.day:02d}/{MONTHS[t.month - 1]}/{t.year}:{_hms(t)}",),
        zoned=True,
    ),
    TsFormat(
        "syslog",
        re.compile(r"\b" + _MON + r"\s{1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?: (\d{4})\b)?"),
        _syslog,
        lambda t: tuple(
            f"{MONTHS[t.month - 1]} {d} {_hms(t)}" for d in dict.fromkeys((f"{t.day:2d}", f"{t.day:02d}", str(t.day)))
        ),
    ),
    TsFormat(
        "compact",
        re.compile(r"(?<!\d)(\d{2})(\d{2})(\d{2}) (\d{2})(\d{2})(\d{2})(?!\d)"),
        _compact,
        lambda t: (t.strftime("%y%m%d %H%M%S"),),
    ),
    TsFormat(
        "slash",
        re.compile(r"(?<![\d/])(\d{2}|\d{4})/(\d{2})/(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?"
                   r"(?:\s?(Z|[+-]\d{2}:?\d{2}(?!\d)))?"),
        _slash,
        lambda t: (t.strftime("%y/%m/%d %H:%M:%S"), t.strftime("%Y/%m/%d %H:%M:%S")),
        zoned=True,
    ),
    TsFormat(
        "dashdot",
        re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})-(\d{2})\.(\d{2})\.(\d{2})(?:\.(\d{1,9}))?"),
        _dashdot,
        lambda t: (t.strftime("%Y-%m-%d-%H.%M.%S"),),
    ),
    TsFormat(
        "monthday",
        re.compile(r"(?<![\d-])(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?"),
        _monthday,
        lambda t: (t.strftime("%m-%d %H:%M:%S"),),
    ),
    TsFormat(
        "healthapp",
        re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})-(\d{1,2}):(\d{1,2}):(\d{1,2})(?::(\d{1,3}))?"),
        _healthapp,
        lambda t: (f"{t.year:04d}{t.month:02d}{t.day:02d}-{t.hour}:{t.minute}:{t.second}:",),
    ),
    TsFormat(
        "dotday",
        re.compile(r"(?<![\d.])(\d{2})\.(\d{2}) (\d{2}):(\d{2}):(\d{2})"),
        lambda m, tz: _mk(2000, int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)), None, tz, False),
        lambda t: (t.strftime("%m.%d %H:%M:%S"),),
    ),
    TsFormat(  # Redis and others: "09 Jun 2026 10:20:47.744"
        "daymonyear",
        re.compile(r"(?<!\d)(\d{1,2}) " + _MON + r" (\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?"),
        lambda m, tz: _mk(int(m.group(3)), MONTHS.index(m.group(2)) + 1, int(m.group(1)), int(m.group(4)), int(m.group(5)),
                          int(m.group(6)), m.group(7), tz),
        lambda t: (f"{t.day:02d} {MONTHS[t.month - 1]} {t.year} {_hms(t)}",),
    ),
    TsFormat(  # PHP-FPM, PHP error logs: "[14-Oct-2026 02:13:57]"
        "dashmon",
        re.compile(r"(?<![\d-])(\d{2})-" + _MON + r"-(\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?"),
        lambda m, tz: _mk(int(m.group(3)), MONTHS.index(m.group(2)) + 1, int(m.group(1)), int(m.group(4)), int(m.group(5)),
                          int(m.group(6)), m.group(7), tz),
        lambda t: (f"{t.day:02d}-{MONTHS[t.month - 1]}-{t.year} {_hms(t)}",),
    ),
    TsFormat(  # Kubernetes klog: "I0519 04:01:13.204551" (no year)
        "klog",
        re.compile(r"(?<![\w])[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})\b"),
        lambda m, tz: _mk(2000, int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)), m.group(6), tz,
                          False),
        lambda t: (t.strftime("%m%d %H:%M:%S"),),
    ),
    TsFormat(
        "epoch",
        re.compile(r"(?<![\d.])(1\d{9}|2\d{9})(\d{3})?(?:\.\d+)?(?![\d.])"),
        _epoch,
        lambda t: (str(int(t.timestamp())),),
    ),
)
FORMAT_BY_ID = {f.id: f for f in FORMATS}


def stamps_in(text: str, tz: dt.tzinfo, formats: tuple[TsFormat, ...] = FORMATS) -> Iterator[tuple[str, Stamp]]:
    """Every timestamp found in ``text``, with the id of its format."""
    for fmt in formats:
        for m in fmt.pattern.finditer(text):
            stamp = fmt.build(m, tz)
            if stamp is not None:
                yield fmt.id, stamp


@dataclass(frozen=True)
class FileTimes:
    """What a sample of a file says about its timestamps."""

    formats: tuple[str, ...]
    offsets: tuple[dt.tzinfo, ...]
    ordered: bool = True  # the sampled lines are in time order


_SAMPLE = 128 * 1024


def sample_times(lf: LineFile, tz: dt.tzinfo) -> FileTimes:
    """Formats and zone offsets used by a file, read from its start, middle and end (once per run)."""
    key = f"sample-{_tz_name(tz)}"
    if key not in lf.memo:
        lf.memo[key] = _sample_times(lf, tz)
    return lf.memo[key]  # type: ignore[no-any-return]


def _sample_times(lf: LineFile, tz: dt.tzinfo) -> FileTimes:
    chunks = [lf.head(_SAMPLE)]
    if lf.size > 3 * _SAMPLE:
        chunks += [lf.window(lf.size // 2, _SAMPLE), lf.window(lf.size - _SAMPLE, _SAMPLE)]
    text = "\n".join(c.decode("utf-8", errors="replace") for c in chunks)
    lines = text.splitlines()
    counts: dict[str, int] = {}
    offsets: dict[dt.tzinfo, None] = {}
    for fmt in FORMATS:
        for line in lines:
            for m in fmt.pattern.finditer(line):
                stamp = fmt.build(m, tz)
                if stamp is None:
                    continue
                counts[fmt.id] = counts.get(fmt.id, 0) + 1
                if fmt.zoned and stamp.instant.tzinfo is not None:
                    offsets[stamp.instant.tzinfo] = None
    usable = [fid for fid, n in counts.items() if fid != "epoch" or n * 2 >= max(1, len(lines))]
    if not offsets:
        offsets[tz] = None
    else:
        offsets.setdefault(tz, None)
    return FileTimes(tuple(usable), tuple(offsets), _in_order(chunks, tz, tuple(FORMAT_BY_ID[f] for f in usable)))


def _in_order(chunks: list[bytes], tz: dt.tzinfo, formats: tuple[TsFormat, ...]) -> bool:
    """Whether the first timestamp of each sampled line never goes back by more than a second."""
    for chunk in chunks:
        last = None
        for line in chunk.decode("utf-8", errors="replace").splitlines()[1:-1]:
            stamp = next((st for _, st in stamps_in(line, tz, formats)), None)
            if stamp is None:
                continue
            value = stamp.instant.timestamp()
            if last is not None and value < last - 1.0:
                return False
            last = value
    return True


@dataclass(frozen=True)
class Window:
    """An instant with a tolerance; ``time_only`` compares the time of day as written."""

    center: dt.datetime
    tolerance: dt.timedelta
    time_only: bool = False

    def contains(self, stamp: Stamp) -> bool:
        if self.time_only:  # a time of day in the citation's zone (assume_tz): evidence instants are converted
            a = stamp.instant.astimezone(self.center.tzinfo)
            secs = a.hour * 3600 + a.minute * 60 + a.second + a.microsecond / 1e6
            c = self.center
            target = c.hour * 3600 + c.minute * 60 + c.second + c.microsecond / 1e6
            diff = abs(secs - target)
            return min(diff, 86400 - diff) <= self.tolerance.total_seconds() + 0.999
        if stamp.has_year:
            return abs(stamp.instant - self.center) <= self.tolerance + _slack(self.center)
        shifted = self.center.astimezone(stamp.instant.tzinfo)
        try:
            candidate = stamp.instant.replace(year=shifted.year)
        except ValueError:
            return False
        return abs(candidate - self.center) <= self.tolerance + _slack(self.center)

    def distance(self, stamp: Stamp) -> float:
        """Seconds between ``stamp`` and the window's centre (time of day only, or ignoring a missing year)."""
        a = stamp.instant.astimezone(self.center.tzinfo) if self.time_only else stamp.instant
        if self.time_only or not stamp.has_year:
            c = self.center if self.time_only else self.center.astimezone(a.tzinfo)
            diff = abs((a.hour * 3600 + a.minute * 60 + a.second + a.microsecond / 1e6)
                       - (c.hour * 3600 + c.minute * 60 + c.second + c.microsecond / 1e6))
            return min(diff, 86400 - diff)
        return abs((a - self.center).total_seconds())

    def seconds(self, tz: dt.tzinfo) -> list[dt.datetime]:
        """Each whole second of the window, as local time in ``tz``."""
        start = (self.center - self.tolerance).astimezone(tz).replace(microsecond=0)
        stop = (self.center + self.tolerance).astimezone(tz)
        out: list[dt.datetime] = []
        t = start
        while t <= stop and len(out) < 7200:
            out.append(t)
            t += dt.timedelta(seconds=1)
        return out


def _slack(center: dt.datetime) -> dt.timedelta:
    # A citation at second precision covers the whole second.
    return dt.timedelta(seconds=0) if center.microsecond else dt.timedelta(microseconds=999_999)


@dataclass(frozen=True)
class TimeHit:
    line: int
    text: str
    stamp: Stamp


@dataclass(frozen=True)
class TimeBlocks:
    """The first instant of each block of :data:`~.lines.BLOCK` lines (epoch seconds, NaN where none).

    ``ordered`` is true when those instants never go back by more than a second: then a window is
    answered by reading only the blocks that can hold it.
    """

    firsts: np.ndarray
    ordered: bool


def time_blocks(lf: LineFile, tz: dt.tzinfo, times: FileTimes) -> TimeBlocks:
    key = f"times-{_tz_name(tz)}"
    if key not in lf.memo:
        lf.memo[key] = _time_blocks(lf, tz, times, key)
    return lf.memo[key]  # type: ignore[no-any-return]


def _time_blocks(lf: LineFile, tz: dt.tzinfo, times: FileTimes, key: str) -> TimeBlocks:
    import numpy as np
    blocks = len(lf.block_starts())

    def valid(loaded: dict[str, Any]) -> bool:
        firsts = loaded["firsts"]
        return isinstance(firsts, np.ndarray) and firsts.ndim == 1 and firsts.dtype == np.float64 and len(firsts) == blocks

    cached = lf.cache.load(key, lf.key, valid) if lf.cache else None
    if cached is not None:
        return TimeBlocks(cached["firsts"], bool(cached["ordered"]))
    formats = tuple(FORMAT_BY_ID[f] for f in times.formats if f != "epoch") or tuple(FORMAT_BY_ID[f] for f in times.formats)
    starts = lf.block_starts()
    firsts = np.full(len(starts), np.nan)
    yearless = False
    for b, start in enumerate(starts.tolist()):
        head = lf.window(int(start), 2048).decode("utf-8", errors="replace")
        for line in head.split("\n")[:8]:
            stamp = next((st for _, st in stamps_in(line, tz, formats)), None)
            if stamp is not None:
                firsts[b] = stamp.instant.timestamp()
                yearless = yearless or not stamp.has_year
                break
    known = firsts[~np.isnan(firsts)]
    ordered = bool(known.size) and not yearless and bool(np.all(np.diff(known) >= -1.0))
    for i in range(1, len(firsts)):  # a block without a timestamp inherits the one before
        if np.isnan(firsts[i]):
            firsts[i] = firsts[i - 1]
    if lf.cache is not None:
        lf.cache.store(key, lf.key, {"ordered": ordered}, {"firsts": firsts})
    return TimeBlocks(firsts, ordered)


def _tz_name(tz: dt.tzinfo) -> str:
    offset = dt.datetime(2000, 1, 1, tzinfo=tz).utcoffset() or dt.timedelta(0)
    return str(int(offset.total_seconds()))


def _block_range(lf: LineFile, blocks: TimeBlocks, window: Window) -> tuple[int, int]:
    """Byte range of the blocks of a time-ordered file that can hold ``window``."""
    import numpy as np
    lo = (window.center - window.tolerance).timestamp() - 1.0
    hi = (window.center + window.tolerance).timestamp() + 1.0
    firsts = blocks.firsts
    starts = lf.block_starts()
    first_block = max(0, int(np.searchsorted(firsts, lo, side="left")) - 1)
    last_block = int(np.searchsorted(firsts, hi, side="right"))  # the first block that starts after the window
    begin = int(starts[first_block])
    stop = int(starts[last_block]) if last_block < len(starts) else lf.size
    return begin, max(begin, stop)


def find_in_lines(lf: LineFile, window: Window, tz: dt.tzinfo, limit: int = 1) -> list[TimeHit]:
    """Lines of ``lf`` carrying an instant inside ``window`` (at most ``limit``).

    The window is rendered as literal text in the file's own formats and zones and searched for at
    memchr speed; each hit is confirmed by parsing its line. In a time-ordered file the search covers
    only the blocks of lines whose first instants bracket the window (the block index), so its cost
    does not grow with the file.
    """
    times = sample_times(lf, tz)
    if not times.formats:
        return []
    begin, stop = 0, lf.size
    if not window.time_only and lf.size > _SAMPLE:
        blocks = time_blocks(lf, tz, times)
        if blocks.ordered and times.ordered:
            begin, stop = _block_range(lf, blocks, window)
    needles: dict[bytes, tuple[str, ...]] = {}
    for fid in times.formats:
        fmt = FORMAT_BY_ID[fid]
        zones = times.offsets if fmt.zoned else (tz,)
        if fid == "epoch":
            zones = (dt.UTC,)
        for zone in zones:
            for t in window.seconds(zone):
                for text in _render(fmt, t, window.time_only):
                    needles.setdefault(text.encode(), ())
                    needles[text.encode()] += (fid,)
    hits: list[TimeHit] = []
    seen: set[int] = set()
    for needle in sorted(needles):
        for pos in lf.find_all(needle, limit=10_000, start=begin, end=stop):
            start, end = lf.line_bounds(pos)
            if start in seen:
                continue
            line_text = lf.text_at(start, end)
            fmts = tuple(FORMAT_BY_ID[f] for f in dict.fromkeys(needles[needle]))
            for _, stamp in stamps_in(line_text, tz, fmts):
                if window.contains(stamp):
                    seen.add(start)
                    hits.append(TimeHit(lf.line_of(start), line_text, stamp))
                    break
            if len(hits) >= limit:
                return sorted(hits, key=lambda h: h.line)
    return sorted(hits, key=lambda h: h.line)


def _render(fmt: TsFormat, t: dt.datetime, time_only: bool) -> tuple[str, ...]:
    if not time_only:
        return fmt.render(t)
    if fmt.id in ("compact",):
        return (t.strftime(" %H%M%S"),)
    if fmt.id == "healthapp":
        return (f"-{t.hour}:{t.minute}:{t.second}:",)
    if fmt.id == "dashdot":
        return (t.strftime("-%H.%M.%S"),)
    if fmt.id == "epoch":
        return ()
    return (_hms(t),)
