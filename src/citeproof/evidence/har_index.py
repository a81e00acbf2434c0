"""Entry index of a large HAR capture, built in one sequential pass without parsing the JSON.

The pass (numpy, 4 MB at a time) finds the unescaped quotes, which tell inside-string bytes from
structure, and the structural characters ``{ } [ ]`` outside strings; their running depth locates the
``log.entries`` array and the byte range of every entry in it — for minified and pretty-printed HAR
alike, whatever the whitespace. Each entry's ``startedDateTime`` is read with one regular-expression
scan over the file. A cited entry is then parsed on its own (orjson over its byte range), so the
cost of a citation does not grow with the capture's size. The index is kept in the on-disk cache.
"""

from __future__ import annotations

import mmap
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cache import IndexCache
from .timestamps import parse_iso

if TYPE_CHECKING:
    import numpy as np

_CHUNK = 4 * 1024 * 1024
_STARTED = re.compile(rb'"startedDateTime"\s*:\s*"([^"]{0,64})"')


@dataclass(frozen=True)
class HarIndex:
    starts: np.ndarray  # byte offset of each entry's "{"
    ends: np.ndarray  # byte offset of each entry's "}" (inclusive)
    started: np.ndarray  # startedDateTime text of each entry (bytes, "" when absent)
    instants: np.ndarray  # startedDateTime as epoch seconds (NaN when absent or unreadable)
    error: str | None = None


def _structure(mm: mmap.mmap, size: int, guard: Callable[[], None] = lambda: None,
               advance: Callable[[int], None] = lambda n: None) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Positions and bytes of structural characters outside strings, and the real-quote starts of '"entries"'."""
    import numpy as np
    positions: list[np.ndarray] = []
    values: list[np.ndarray] = []
    quotes_before = 0
    carry = 0  # length of the backslash run that ended the previous chunk
    key_spots = _candidates(mm, b'"entries"')
    entries_real: list[int] = []
    for base in range(0, size, _CHUNK):
        guard()  # the capture shrank since it was mapped: a reason, not SIGBUS
        count = min(_CHUNK, size - base)
        a = np.frombuffer(mm, dtype=np.uint8, count=count, offset=base)
        q = np.flatnonzero(a == 34)
        backslash = a == 92
        if q.size:
            prev = q - 1
            suspect = np.zeros(q.size, dtype=bool)
            inside = prev >= 0
            suspect[inside] = backslash[prev[inside]]
            if carry and q[0] == 0:
                suspect[0] = True
            escaped = np.zeros(q.size, dtype=bool)
            if suspect.any():
                b_idx = np.flatnonzero(backslash)
                run_starts = b_idx[np.r_[True, np.diff(b_idx) != 1]] if b_idx.size else b_idx
                cand = q[suspect]
                k = np.searchsorted(run_starts, cand - 1, side="right") - 1
                start = run_starts[np.maximum(k, 0)] if run_starts.size else np.zeros(cand.size, dtype=np.int64)
                lengths = (cand - start).astype(np.int64)
                lengths[start == 0] += carry
                lengths[cand == 0] = carry
                escaped[suspect] = lengths % 2 == 1
            real = q[~escaped]
        else:
            real = q
        structural = np.flatnonzero((a == 123) | (a == 125) | (a == 91) | (a == 93))
        if structural.size:
            parity = (quotes_before + np.searchsorted(real, structural)) % 2
            keep = structural[parity == 0]
            positions.append(keep.astype(np.int64) + base)
            values.append(a[keep].copy())
        for spot in key_spots:
            if base <= spot < base + count:
                local = spot - base
                idx = int(np.searchsorted(real, local))
                if idx < real.size and int(real[idx]) == local and (quotes_before + idx) % 2 == 0:
                    entries_real.append(spot)
        quotes_before += int(real.size)
        tail = a[-64:]
        run = 0
        for byte in tail[::-1].tolist():
            if byte != 92:
                break
            run += 1
        carry = run if run < tail.size else carry + run
        del a
        advance(count)
    pos = np.concatenate(positions) if positions else np.zeros(0, dtype=np.int64)
    val = np.concatenate(values) if values else np.zeros(0, dtype=np.uint8)
    return pos, val, entries_real


def _candidates(mm: mmap.mmap, needle: bytes, limit: int = 10_000) -> list[int]:
    out: list[int] = []
    pos = mm.find(needle)
    while pos >= 0 and len(out) < limit:
        out.append(pos)
        pos = mm.find(needle, pos + 1)
    return out


def build(mm: mmap.mmap, size: int, guard: Callable[[], None] = lambda: None,
          advance: Callable[[int], None] = lambda n: None) -> HarIndex:
    """The entry boundaries of the capture in ``mm``; ``guard`` is called before each chunk is read (it raises when the
    file was truncated since it was mapped), ``advance`` with the chunk's size after it was read (progress)."""
    import numpy as np
    empty = np.zeros(0, dtype=np.int64)
    pos, val, spots = _structure(mm, size, guard, advance)
    if pos.size == 0:
        return HarIndex(empty, empty, np.zeros(0, dtype="S1"), np.zeros(0), "no JSON structure found")
    step = np.where((val == 123) | (val == 91), 1, -1).astype(np.int64)
    depth_after = np.cumsum(step)
    if depth_after[-1] != 0 or depth_after.min() < 0:
        return HarIndex(empty, empty, np.zeros(0, dtype="S1"), np.zeros(0), "unbalanced brackets: not valid JSON")
    for spot in spots:
        k = int(np.searchsorted(pos, spot)) - 1
        depth_here = int(depth_after[k]) if k >= 0 else 0
        if depth_here != 2 or k + 1 >= pos.size or val[k + 1] != 91:
            continue
        between = mm[spot + len(b'"entries"') : int(pos[k + 1])]
        if between.strip(b" \t\r\n") != b":":
            continue
        open_at = k + 1
        close_rel = np.flatnonzero((depth_after[open_at:] == 2) & (val[open_at:] == 93))
        if close_rel.size == 0:
            break
        close_at = open_at + int(close_rel[0])
        seg_val, seg_depth, seg_pos = val[open_at:close_at], depth_after[open_at:close_at], pos[open_at:close_at]
        starts = seg_pos[(seg_val == 123) & (seg_depth == 4)]
        ends = seg_pos[(seg_val == 125) & (seg_depth == 3)]
        if starts.size != ends.size:
            break
        started, instants = _started(mm, starts, ends)
        return HarIndex(starts, ends, started, instants)
    return HarIndex(empty, empty, np.zeros(0, dtype="S1"), np.zeros(0), "no log.entries list")


def _started(mm: mmap.mmap, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's startedDateTime text and instant (epoch seconds), read with one regex scan."""
    import numpy as np

    text = np.full(starts.size, b"", dtype="S64")
    instants = np.full(starts.size, np.nan)
    if not starts.size:
        return text, instants
    found = [(m.start(), m.group(1)) for m in _STARTED.finditer(mm)]
    if not found:
        return text, instants
    where = np.fromiter((f[0] for f in found), dtype=np.int64, count=len(found))
    owner = np.searchsorted(starts, where, side="right") - 1
    ok = (owner >= 0) & (where <= ends[np.maximum(owner, 0)])
    first = np.zeros(starts.size, dtype=bool)
    for k in np.flatnonzero(ok).tolist():
        i = int(owner[k])
        if not first[i]:
            first[i] = True
            text[i] = found[k][1]
    instants[:] = iso_to_epoch(text)
    return text, instants


_ISO_FIXED = re.compile(rb"^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)\d*(Z|[+-]\d{2}:?\d{2})?$", re.I)


def iso_to_epoch(values: np.ndarray) -> np.ndarray:
    """ISO-8601 byte strings -> epoch seconds, vectorised with datetime64 (NaN where unreadable)."""
    import numpy as np

    out = np.full(values.size, np.nan)
    bases: list[str] = []
    shifts: list[float] = []
    index: list[int] = []
    for i, raw in enumerate(values.tolist()):
        m = _ISO_FIXED.match(raw)
        if not m:
            if raw:
                parsed = parse_iso(raw.decode("utf-8", errors="replace"))
                if parsed is not None:
                    out[i] = parsed.timestamp()
            continue
        zone = (m.group(2) or b"Z").decode()
        shift = 0.0
        if zone.upper() != "Z":
            sign = -1 if zone[0] == "-" else 1
            digits = zone[1:].replace(":", "")
            shift = sign * (int(digits[:2]) * 3600 + int(digits[2:4] or 0) * 60)
        bases.append(m.group(1).decode().replace(" ", "T"))
        shifts.append(shift)
        index.append(i)
    if bases:
        stamps = np.array(bases, dtype="datetime64[us]").astype(np.int64) / 1e6
        out[np.array(index)] = stamps - np.array(shifts)
    return out


def load_or_build(mm: mmap.mmap, size: int, cache: IndexCache | None, key: dict[str, Any],
                  guard: Callable[[], None] = lambda: None, advance: Callable[[int], None] = lambda n: None) -> HarIndex:
    """The entry index of a capture: from the cache when the cached arrays fit this file, else built."""
    import numpy as np

    def valid(loaded: dict[str, Any]) -> bool:
        starts, ends, started, instants = (loaded[k] for k in ("starts", "ends", "started", "instants"))
        if not all(isinstance(a, np.ndarray) and a.ndim == 1 for a in (starts, ends, started, instants)):
            return False
        n = len(starts)
        if not (len(ends) == len(started) == len(instants) == n) or starts.dtype.kind != "i" or ends.dtype.kind != "i":
            return False
        if n == 0:
            return True
        if np.any(ends <= starts) or np.any(starts[1:] <= ends[:-1]) or starts[0] < 0 or ends[-1] >= size:
            return False
        data = np.frombuffer(mm, dtype=np.uint8)
        return bool(np.all(data[starts] == ord("{")) and np.all(data[ends] == ord("}")))

    cached = cache.load("har", key, valid) if cache else None
    if cached is not None:
        return HarIndex(cached["starts"], cached["ends"], cached["started"], cached["instants"], cached.get("error") or None)
    index = build(mm, size, guard, advance)
    if cache is not None:
        cache.store("har", key, {"error": index.error or ""},
                    {"starts": index.starts, "ends": index.ends, "started": index.started, "instants": index.instants})
    return index
