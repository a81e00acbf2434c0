"""The event a claim names must not be contradicted by the event the cited evidence records.

The event table (``citeproof/data/events.json``) groups event words into events and names the pairs
that exclude each other ("crashed" against "started", "failed" against "succeeded"). HAR entries are
read as their request summary plus "failed" (status 0) or "error" (4xx/5xx). An event the evidence
does not mention at all is left to anchoring, which then finds the word unanchored.

Passing::

    evidence app.log: 2026-03-02 14:02:11 INFO worker started pid=4112
    claim: The worker started with pid 4112 (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 INFO worker started pid=4112
    claim: The worker crashed with pid 4112 (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...model import Evidence
from ..events import conflict, events_in
from .base import Check, FactVerdict, Outcome, Subject, where

# a frame of a stack trace names code, not an event: Python's 'File "x.py", line 94, in run' (and the source line
# under it), Java's "at com.example.Foo.bar(Foo.java:42)", Go's "/src/app/main.go:57 +0x1d"
_FRAME = re.compile(r'\bFile "[^"]+", line \d+, in \S+|^\s*(?:\S+\s+){0,6}?at [\w$.<>]+\((?:[\w$.]+:\d+|Native Method|Unknown Source)\)'
                    r'|\.go:\d+ \+0x[0-9a-f]+$')


def _without_frames(text: str) -> str:
    out: list[str] = []
    after_frame = False
    for line in text.split("\n"):
        frame = bool(_FRAME.search(line))
        if not frame and not after_frame:
            out.append(line)
        after_frame = frame and '", line ' in line  # a Python frame is followed by its source line
    return "\n".join(out)


def event_text(items: Iterable[Evidence]) -> str:
    """Where events are read: log lines without the frames of stack traces, and each HAR entry's summary (a failed
    request reads 'failed')."""
    items = list(items)
    parts = [_without_frames(e.text) for e in items if e.kind == "log"]
    for e in items:
        if e.kind == "har":
            for item, status in zip(e.items, e.statuses, strict=False):
                head = item.split("\n", 1)[0]
                parts.append(head + (" failed" if status == 0 else " error" if status >= 400 else ""))
    return "\n".join(parts).replace("_", " ")


def check(s: Subject) -> FactVerdict | None:
    claimed = events_in(s.positive)
    if not claimed:
        return None
    text = event_text(s.items)
    if not text.strip():
        return None
    found = conflict(s.positive, text, "\n".join(e.text for e in s.items if e.kind == "har"))
    if found:
        return CHECK.verdict(Outcome.UNSUPPORTED, "conflict", f"the claim says '{found[0]}', the cited evidence says '{found[1]}'",
                             claimed=found[0], evidence=found[1], location=where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "consistent", "the cited evidence records no conflicting event",
                         claimed=", ".join(sorted(claimed.values())))


CHECK = Check("events", "event", check, "the claim's event is not excluded by the event the evidence records")
