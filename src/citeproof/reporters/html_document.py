"""The HTML report's findings view: the findings file, line by line, with each claim highlighted by status.

Each claim is found at the line and column the report gives for it and followed through the text
(whitespace may differ: a claim joined from wrapped lines still matches). A found claim is marked
from its first to its last character, across lines, as a link to its card in the claims list, with
its id and status as a text label (the word "verified" is left to screen readers, to keep the
view quiet). A claim whose text is not at its position (the file changed since
the check) gets only a label at that position; one without a position is not marked. All text is
escaped; the findings are shown as written (Markdown source, not rendered).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from itertools import pairwise

from ..model import ClaimResult, ClaimStatus
from .common import STATUS_LABEL

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s")

GLYPH: dict[ClaimStatus, str] = {
    ClaimStatus.VERIFIED: "✔",
    ClaimStatus.UNCITED: "✘",
    ClaimStatus.INVALID_CITATION: "✘",
    ClaimStatus.MISSING_EVIDENCE: "✘",
    ClaimStatus.UNSUPPORTED: "✘",
    ClaimStatus.CONTRADICTED: "✘",
    ClaimStatus.UNVERIFIED_OBSERVATION: "?",
}


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    claim: ClaimResult


def locate(text: str, claim: ClaimResult, line_starts: list[int]) -> tuple[int, int] | None:
    """(start, end) offsets of ``claim`` in ``text`` at its recorded position, or None when it is not there."""
    if not 0 < claim.line <= len(line_starts) or claim.column < 1:
        return None
    start = line_starts[claim.line - 1] + claim.column - 1
    pos = start
    wanted = claim.claim.strip()
    i = 0
    while i < len(wanted):
        ch = wanted[i]
        if ch.isspace():
            if pos >= len(text) or not text[pos].isspace():
                return None
            while pos < len(text) and text[pos].isspace():
                pos += 1
            while i < len(wanted) and wanted[i].isspace():
                i += 1
            continue
        if pos >= len(text) or text[pos] != ch:
            return None
        pos += 1
        i += 1
    return (start, pos) if pos > start else None


def render(text: str, claims: list[ClaimResult], anchors: dict[str, str]) -> str:
    """The findings as an HTML fragment (one ``div.ln`` per line) with the claims marked."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    spans: list[_Span] = []
    labels: dict[int, list[ClaimResult]] = {}
    for claim in claims:
        found = locate(text, claim, starts)
        if found is not None and all(found[1] <= s.start or found[0] >= s.end for s in spans):
            spans.append(_Span(found[0], found[1], claim))
        elif 0 < claim.line <= len(starts):
            at = starts[claim.line - 1] + min(max(claim.column, 1) - 1, len(lines[claim.line - 1]))
            labels.setdefault(at, []).append(claim)
    spans.sort(key=lambda s: s.start)
    out = []
    for number, (line, begin) in enumerate(zip(lines, starts, strict=True), 1):
        heading = _HEADING.match(line)
        cls = f"ln h{len(heading.group(1))}" if heading else "ln"
        body = _line(line, begin, spans, labels, anchors)
        out.append(f'<div class="{cls}" id="L{number}"><span class="lno" aria-hidden="true">{number}</span>'
                   f'<span class="src">{body or " "}</span></div>')
    return "".join(out)


def _line(line: str, begin: int, spans: list[_Span], labels: dict[int, list[ClaimResult]], anchors: dict[str, str]) -> str:
    end = begin + len(line)
    cuts = {begin, end}
    for s in spans:
        if s.start < end and s.end > begin:
            cuts.update(p for p in (s.start, s.end) if begin < p < end)
    cuts.update(p for p in labels if begin <= p <= end)
    points = sorted(cuts)
    out = []
    for a, b in pairwise([*points, end]):
        for claim in labels.get(a, []):
            out.append(_tag(claim, anchors, link=True))
        if a >= b:
            continue
        piece = escape(line[a - begin:b - begin])
        span = next((s for s in spans if s.start <= a < s.end), None)
        if span is None:
            out.append(piece)
            continue
        claim = span.claim
        href = escape(anchors.get(claim.id, ""))
        title = escape(f"{claim.id}: {STATUS_LABEL[claim.status]} — {claim.reason}")
        tag = _tag(claim, anchors, link=False) if a == span.start else ""
        out.append(f'<a class="mark st-{claim.status.value}" href="#{href}" data-claim="{escape(claim.id)}" '
                   f'title="{title}">{tag}{piece}</a>')
    return "".join(out)


def _tag(claim: ClaimResult, anchors: dict[str, str], link: bool) -> str:
    word = escape(STATUS_LABEL[claim.status].lower())
    shown = f'<span class="sr"> {word}</span>' if claim.status is ClaimStatus.VERIFIED else f" · {word}"
    label = (f'<span class="tag st-{claim.status.value}"><span aria-hidden="true">{GLYPH[claim.status]}</span> '
             f"{escape(claim.id)}{shown}</span>")
    if not link:
        return label
    return f'<a class="mark-label" href="#{escape(anchors.get(claim.id, ""))}">{label}</a>'
