"""HTTP Archive (HAR 1.2) captures.

A HAR file is parsed once per run. Each entry is summarised as

    ``METHOD URL -> STATUS statusText @ startedDateTime (time ms)``

and, for the support check, its searchable text: the status, statusText, URL, the timing phases
(``dns 18.4 ms (DNS lookup)``; a phase of -1 does not apply and is left out), the server
address, protocol, content size and type, request and response headers, the response body (base64
bodies decoded when they are text) and custom ``_``-prefixed fields
such as ``_error`` (Chrome writes a failed request as status 0 with ``_error: net::ERR_...``).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import mmap
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from .access import UnreadableEvidence
from .bundle import Bundle, EvidenceFile
from .har_index import HarIndex, load_or_build
from .timestamps import parse_iso

if TYPE_CHECKING:
    import numpy as np

MAX_BODY_CHARS = 200_000


@dataclass(frozen=True)
class HarEntry:
    number: int  # position in log.entries, 0-based
    method: str
    url: str
    status: int | None
    status_text: str
    started: str
    time_ms: float | None
    error: str
    raw: dict[str, Any]

    @property
    def instant(self) -> dt.datetime | None:
        return parse_iso(self.started) if self.started else None

    def summary(self) -> str:
        """One line: method, URL (clipped to :data:`MAX_FIELD_CHARS`), status, error, start and duration."""
        status = "no status" if self.status is None else str(self.status)
        text = f" {self.status_text}" if self.status_text else ""
        err = f" ({self.error})" if self.error else ""
        took = "" if self.time_ms is None else f" ({_plain(self.time_ms)} ms)"
        return f"{self.method} {_clip(self.url)} -> {status}{text}{_clip(err)} @ {self.started or 'no time'}{took}"

    def search_text(self) -> str:
        """Everything in the entry a claim could be checked against."""
        request = self.raw.get("request") or {}
        response = self.raw.get("response") or {}
        parts = [self.summary(), _timings(self.raw.get("timings")), _sizes(self.raw, response)]
        for side in (request, response):
            for header in side.get("headers") or []:
                if isinstance(header, dict):
                    parts.append(_clip(f"{header.get('name', '')}: {header.get('value', '')}"))
        parts.append(_body(response.get("content")))
        parts.append(_body(request.get("postData")))
        for obj in (self.raw, response, request):
            for key, value in obj.items():
                if isinstance(key, str) and key.startswith("_") and isinstance(value, str | int | float):
                    parts.append(f"{key}: {value}")
        return "\n".join(p for p in parts if p)


# HAR 1.2 timing phases (shown name, key, words of the specification's definition; -1: the phase does not apply)
_PHASES = (("queued", "blocked", ""), ("dns", "dns", "DNS lookup"), ("connect", "connect", "connection setup"),
           ("ssl", "ssl", "TLS handshake"), ("send", "send", ""), ("wait", "wait", "waiting for the first byte"),
           ("receive", "receive", ""))


def _timings(timings: Any) -> str:
    """The entry's timing phases as text: ``dns 18.4 ms (DNS lookup)``."""
    if not isinstance(timings, dict):
        return ""
    out = []
    for name, key, words in _PHASES:  # words that a negated claim could find ("not re-downloaded") are left out
        value = timings.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            out.append(f"{name} {_plain(value)}ms" + (f" ({words})" if words else ""))
    return "timings: " + "; ".join(out) if out else ""


def _plain(value: float) -> str:
    """A number as written, never in exponent form (``1234567``, ``18.4``)."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _sizes(entry: dict[str, Any], response: dict[str, Any]) -> str:
    """Server address, protocol, content size and type as text."""
    content = response.get("content") if isinstance(response.get("content"), dict) else {}
    out = []
    if isinstance(entry.get("serverIPAddress"), str) and entry["serverIPAddress"]:
        out.append(f"server address {entry['serverIPAddress']}")
    if isinstance(response.get("httpVersion"), str) and response["httpVersion"]:
        out.append(f"protocol {response['httpVersion']}")
    size = content.get("size") if isinstance(content, dict) else None
    if isinstance(size, int) and not isinstance(size, bool) and size >= 0:
        out.append(f"content size {size}B")
    mime = content.get("mimeType") if isinstance(content, dict) else None
    if isinstance(mime, str) and mime:
        out.append(f"content type {mime}")
    return "; ".join(out)


def _body(content: Any) -> str:
    if not isinstance(content, dict):
        return ""
    text = content.get("text")
    if not isinstance(text, str):
        return ""
    if content.get("encoding") == "base64":
        try:
            decoded = base64.b64decode(text[: MAX_BODY_CHARS * 2], validate=False)
        except (binascii.Error, ValueError):
            return ""
        if b"\x00" in decoded[:1024]:
            return ""
        text = decoded.decode("utf-8", errors="replace")
    return text[:MAX_BODY_CHARS]


class HarDoc:
    """A HAR capture: its entries by position, parsed on demand, and where a text occurs in them.

    Captures up to :data:`PARSE_WHOLE_BYTES` are parsed whole (orjson); larger ones are read through
    a :class:`~.har_index.HarIndex` and only the entries asked for are parsed.
    """

    def __init__(self, entries: tuple[HarEntry, ...] = (), error: str | None = None,
                 index: HarIndex | None = None, mm: mmap.mmap | None = None) -> None:
        self._entries = entries
        self.error = error
        self._index = index
        self._mm = mm
        self._parsed: dict[int, HarEntry] = {}
        self._instants: np.ndarray | None = None
        self._tod: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self._index.starts.size) if self._index is not None else len(self._entries)

    def entry(self, i: int) -> HarEntry:
        if self._index is None:
            return self._entries[i]
        if i not in self._parsed:
            assert self._mm is not None
            raw = self._mm[int(self._index.starts[i]) : int(self._index.ends[i]) + 1]
            try:
                self._parsed[i] = _entry(i, orjson.loads(raw))
            except orjson.JSONDecodeError as exc:
                self._parsed[i] = HarEntry(i, "?", "?", None, "", "", None, f"entry is not valid JSON: {exc}", {})
        return self._parsed[i]

    def started(self, i: int) -> str:
        if self._index is None:
            return self._entries[i].started
        return bytes(self._index.started[i]).decode("utf-8", errors="replace")

    def instants(self) -> np.ndarray:
        """startedDateTime of every entry as epoch seconds (NaN when absent or unreadable)."""
        import numpy as np
        if self._instants is None:
            if self._index is not None:
                self._instants = self._index.instants
            else:
                values = [e.instant for e in self._entries]
                self._instants = np.array([v.timestamp() if v else np.nan for v in values], dtype=float)
        return self._instants

    def times_of_day(self) -> np.ndarray:
        """startedDateTime of every entry as seconds since midnight, as written (NaN when absent)."""
        import numpy as np
        if self._tod is None:
            out = np.full(len(self), np.nan)
            for i in range(len(self)):
                m = _TOD.search(self.started(i))
                if m:
                    out[i] = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
            self._tod = out
        return self._tod

    def containing(self, needle: str, limit: int = 1) -> list[int]:
        """Entries whose text holds ``needle`` (as written, lower, upper or title case)."""
        import numpy as np
        if self._index is None:
            low = needle.lower()
            return [e.number for e in self._entries if low in e.search_text().lower()][:limit]
        assert self._mm is not None
        found: list[int] = []
        for variant in dict.fromkeys((needle, needle.lower(), needle.upper(), needle.title())):
            pos = self._mm.find(variant.encode("utf-8"))
            while pos >= 0 and len(found) < limit:
                i = int(np.searchsorted(self._index.starts, pos, side="right")) - 1
                if i >= 0 and pos <= self._index.ends[i] and i not in found:
                    found.append(i)
                pos = self._mm.find(variant.encode("utf-8"), pos + 1)
        return sorted(found)[:limit]


MAX_FIELD_CHARS = 8192  # a URL or header longer than this is read by its first 8 KB (servers refuse longer request lines)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_FIELD_CHARS else text[:MAX_FIELD_CHARS] + f"… ({len(text) - MAX_FIELD_CHARS} more characters)"


PARSE_WHOLE_BYTES = 64 * 1024 * 1024
_TOD = re.compile(r"T(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)")


def load_har(bundle: Bundle, file: EvidenceFile) -> HarDoc:
    return bundle.memo(("har", file.rel), lambda: _load(bundle, file))  # type: ignore[no-any-return]


def _load(bundle: Bundle, file: EvidenceFile) -> HarDoc:
    try:
        lf = bundle.lines(file)
        if lf.size > PARSE_WHOLE_BYTES:
            return _load_indexed(bundle, file)
        raw = lf.head(lf.size)
    except UnreadableEvidence as exc:
        return HarDoc(error=f"{exc.rel} {exc.reason}")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return HarDoc(error=f"{file.rel} is not valid JSON: {exc}")
    log = data.get("log") if isinstance(data, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        return HarDoc(error=f"{file.rel} is not a HAR capture: no log.entries list")
    return HarDoc(tuple(_entry(i, e) for i, e in enumerate(entries)))


def _load_indexed(bundle: Bundle, file: EvidenceFile) -> HarDoc:
    mm = bundle.lines(file).mapping()
    if mm is None:
        return HarDoc(error=f"{file.rel} is empty")
    lf = bundle.lines(file)
    index = load_or_build(mm, lf.size, lf.cache, lf.key, lf.guard, lf.advance)
    if index.error:
        return HarDoc(error=f"{file.rel} is not a HAR capture: {index.error}")
    return HarDoc(index=index, mm=mm)


def _entry(index: int, e: Any) -> HarEntry:
    if not isinstance(e, dict):
        return HarEntry(index, "?", "?", None, "", "", None, "entry is not an object", {})
    request: dict[str, Any] = e["request"] if isinstance(e.get("request"), dict) else {}
    response: dict[str, Any] = e["response"] if isinstance(e.get("response"), dict) else {}
    status = response.get("status")
    error = response.get("_error") or e.get("_error") or ""
    time = e.get("time")
    return HarEntry(
        number=index,
        method=str(request.get("method", "?")),
        url=str(request.get("url", "?")),
        status=_status(status),
        status_text=str(response.get("statusText") or ""),
        started=str(e.get("startedDateTime") or ""),
        time_ms=float(time) if isinstance(time, int | float) and not isinstance(time, bool) else None,
        error=str(error),
        raw=e,
    )


def _status(value: Any) -> int | None:
    """An HTTP status: an integer, or a string of digits ("429"); anything else is no status."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None
