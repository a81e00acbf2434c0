"""HTTP Archive (HAR 1.2) captures.

A HAR file is parsed once per run. Each entry is summarised as

    ``METHOD URL -> STATUS statusText @ startedDateTime (time ms)``

and, for the support check, its searchable text: the status, statusText, URL, request and response
headers, the response body (base64 bodies decoded when they are text) and custom ``_``-prefixed fields
such as ``_error`` (Chrome writes a failed request as status 0 with ``_error: net::ERR_...``).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from dataclasses import dataclass
from typing import Any

import orjson

from .bundle import Bundle, EvidenceFile
from .timestamps import parse_iso

MAX_HAR_BYTES = 2 * 1024 * 1024 * 1024
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
        status = "no status" if self.status is None else str(self.status)
        text = f" {self.status_text}" if self.status_text else ""
        err = f" ({self.error})" if self.error else ""
        took = "" if self.time_ms is None else f" ({self.time_ms:g} ms)"
        return f"{self.method} {self.url} -> {status}{text}{err} @ {self.started or 'no time'}{took}"

    def search_text(self) -> str:
        """Everything in the entry a claim could be checked against."""
        request = self.raw.get("request") or {}
        response = self.raw.get("response") or {}
        parts = [self.summary()]
        for side in (request, response):
            for header in side.get("headers") or []:
                if isinstance(header, dict):
                    parts.append(f"{header.get('name', '')}: {header.get('value', '')}")
        parts.append(_body(response.get("content")))
        parts.append(_body(request.get("postData")))
        for obj in (self.raw, response, request):
            for key, value in obj.items():
                if isinstance(key, str) and key.startswith("_") and isinstance(value, str | int | float):
                    parts.append(f"{key}: {value}")
        return "\n".join(p for p in parts if p)


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


@dataclass(frozen=True)
class HarDoc:
    entries: tuple[HarEntry, ...] = ()
    error: str | None = None


def load_har(bundle: Bundle, file: EvidenceFile) -> HarDoc:
    return bundle.memo(("har", file.rel), lambda: _load(file))  # type: ignore[no-any-return]


def _load(file: EvidenceFile) -> HarDoc:
    if file.size > MAX_HAR_BYTES:
        return HarDoc(error=f"{file.rel} is too large to parse as HAR ({file.size} bytes)")
    raw = file.path.read_bytes()
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
        status=status if isinstance(status, int) and not isinstance(status, bool) else None,
        status_text=str(response.get("statusText") or ""),
        started=str(e.get("startedDateTime") or ""),
        time_ms=float(time) if isinstance(time, int | float) and not isinstance(time, bool) else None,
        error=str(error),
        raw=e,
    )
