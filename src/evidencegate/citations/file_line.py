"""Format 1, ``file:line`` — a line or a range of lines of a file in the bundle.

Canonical: ``demisto.log:4521``, ``access.log:156-178``, ``path/to/file:45-67``.
Variants: ``file:L45``, ``file:L45-L67``, ``file#L45``, ``file#L45-L67``.

Sub-checks: ``format`` (1-based, start <= end), ``file_exists`` (by relative path, else unique path
suffix, else unique basename; several matches is ambiguous), ``readable`` (text, not binary or
compressed), ``line_in_range`` (end <= the file's line count). The excerpt is the cited lines.

Passing: ``demisto.log:4521`` when demisto.log has at least 4521 lines.
Failing: ``demisto.log:9999`` when it has 4600 ("line 9999 is past the end: demisto.log has 4600 lines").

A ``name:number`` token is only taken for a citation when the name is a file in the bundle, has a
path separator, or ends in a file extension evidence uses (``.log``, ``.txt``, ``.json``, ``.log.1``, ...),
so ``example.com:443`` and ``10:30:45`` are not citations.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..evidence import Bundle, FileKind
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Steps, found, invalid, missing, quote

FILE_EXTENSIONS = frozenset(
    "log txt out err har json jsonl ndjson yaml yml toml ini cfg conf properties csv tsv xml md py "
    "js ts java go rb sh sql env trace dump html gz".split()
)
MAX_EXCERPT_LINES = 40

_PATH = r"(?P<path>(?:(?<![:/\w.])/|~/)?(?:[\w.\-]+/)*[\w\-][\w.\-]*)"
PATTERN = re.compile(
    _PATH + r"(?:(?P<sep>:L?|#L)(?P<start>\d{1,20})(?:\s?[-–]\s?L?(?P<end>\d{1,20}))?)(?![\d:.]\d|\w)"
)


def looks_like_file(name: str, bundle: Bundle | None) -> bool:
    if "/" in name:
        return True
    if bundle is not None and bundle.resolve(name).file is not None:
        return True
    parts = name.lower().split(".")
    if len(parts) < 2:
        return False
    if parts[-1] in FILE_EXTENSIONS:
        return True
    return parts[-1].isdigit() and parts[-2] in FILE_EXTENSIONS  # rotated: server.log.1


def find(text: str, bundle: Bundle | None) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        path = m.group("path")
        if path.endswith(".har") and m.group("sep") == ":" and text[m.end() : m.end() + 1] == ",":
            continue
        if not looks_like_file(path, bundle):
            continue
        start = int(m.group("start"))
        end = int(m.group("end")) if m.group("end") else start
        error = None
        if start < 1:
            error = "line numbers start at 1"
        elif end < start:
            error = f"range {start}-{end} ends before it starts"
        yield CitationRef("file:line", m.group(0), m.start(), m.end(), {"path": path, "start": start, "end": end}, error)


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    if ref.parse_error:
        steps.fail("format", ref.parse_error)
        return invalid(ref, f"invalid line reference: {ref.parse_error}", steps)
    path, start, end = ref.fields["path"], ref.fields["start"], ref.fields["end"]
    steps.ok("format", f"lines {start}-{end}" if end != start else f"line {start}")
    lookup = ctx.bundle.resolve(path)
    if lookup.file is None:
        steps.fail("file_exists", lookup.problem)
        return missing(ref, lookup.problem, steps, recovery=(f"List the bundle's files: find {quote(ctx.bundle.shown())} -type f",))
    file = lookup.file
    steps.ok("file_exists", file.rel)
    if file.kind in (FileKind.BINARY, FileKind.COMPRESSED):
        steps.fail("readable", f"{file.rel} is a {file.kind.value} file, not text")
        return missing(ref, f"{file.rel} is a {file.kind.value} file: its lines cannot be cited", steps)
    lf = ctx.bundle.lines(file)
    count = lf.line_count
    steps.ok("readable", "text")
    where = f"{file.rel}:{start}" if start == end else f"{file.rel}:{start}-{end}"
    if end > count:
        first = start if start > count else end
        detail = f"line {first} is past the end: {file.rel} has {count} line{'s' if count != 1 else ''}"
        steps.fail("line_in_range", detail)
        shown = quote(ctx.bundle.shown(file.rel))
        return missing(ref, detail, steps, location=where, recovery=(f"Check the line count: wc -l {shown}",))
    steps.ok("line_in_range", f"{count} lines")
    shown_end = min(end, start + MAX_EXCERPT_LINES - 1)
    lines = lf.lines(start, shown_end)
    excerpt = "\n".join(f"{n}: {t}" for n, t in enumerate(lines, start))
    if shown_end < end:
        excerpt += f"\n… ({end - shown_end} more lines)"
    evidence = Evidence(kind="log", text="\n".join(lines), items=tuple(lines))
    return found(ref, f"{where} exists", steps, excerpt, where, (evidence,))


FORMAT = CitationFormat(
    id="file:line",
    summary="a line or line range of a file: demisto.log:4521, access.log:156-178, file#L45-L67",
    find=find,
    check=check,
    examples=("demisto.log:4521", "access.log:156-178", "logs/app.log#L45-L67"),
)
