"""Format 1, ``file:line`` — a line or a range of lines of a file in the bundle.

Canonical: ``demisto.log:4521``, ``access.log:156-178``, ``path/to/file:45-67``.
Variants: ``file:L45``, ``file:L45-L67``, ``file#L45``, ``file#L45-L67``, and as agents write them:
"demisto.log line 4521", "demisto.log (lines 156-178)", "line 4521 of demisto.log",
"lines 156–178 in access.log", "lines 12, 15 and 18 of app.log".

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
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, invalid, missing, quote

FILE_EXTENSIONS = frozenset(
    "log txt out err har json jsonl ndjson yaml yml toml ini cfg conf properties csv tsv xml md py "
    "js ts java go rb sh sql env trace dump html gz".split()
)
MAX_EXCERPT_LINES = 40
MAX_EVIDENCE_LINES = 5000  # lines of one cited range the support check reads

_START = r"(?<![\w.\-/~])"  # a path starts a token: keeps every pattern linear on long words
# "=" and "@" occur in real log paths (Airflow's attempt=2.log, Hive's dt=2026-03-14/, systemd's getty@tty1)
_PATH = _START + r"(?P<path>(?:(?<![:/\w.])/|~/)?(?:[\w.\-=@]+/)*[\w\-][\w.\-=@]*)"
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


_FILE = r"`?" + _START + r"(?P<path>(?:[\w.\-]+/)*[\w\-][\w.\-]*\w)`?"  # the extension is checked in code
_NUMS = r"(?P<start>\d{1,20})(?:\s?(?:-|–|—|to|through|thru)\s?(?P<end>\d{1,20}))?(?P<more>(?:\s?(?:,|and|&)\s?\d{1,20}(?!\d))*)"
NATURAL = (
    # "demisto.log line 4521", "demisto.log, lines 156-178", "demisto.log (line 4521)", "demisto.log at line 45"
    re.compile(_FILE + r",?\s(?P<paren>\()?(?:at\s|on\s)?(?:lines?\s#?|L(?=\d))" + _NUMS + r"(?(paren)\)?)", re.I),
    # "line 4521 of demisto.log", "lines 156–178 in access.log"
    re.compile(r"\blines?\s#?" + _NUMS + r"\s(?:of|in|from|within)\s(?:the\s)?(?:file\s)?" + _FILE, re.I),
)


def _ranges(start: int, end: int, more: str) -> list[tuple[int, int]]:
    out = [(start, end)]
    out += [(int(n), int(n)) for n in re.findall(r"\d+", more or "")]
    return out


def _ref(raw: str, a: int, b: int, path: str, ranges: list[tuple[int, int]]) -> CitationRef:
    error = None
    for lo, hi in ranges:
        if lo < 1:
            error = "line numbers start at 1"
        elif hi < lo:
            error = f"range {lo}-{hi} ends before it starts"
    return CitationRef("file:line", raw, a, b, {"path": path, "ranges": ranges, "start": ranges[0][0], "end": ranges[0][1]}, error)


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        path, begin = m.group("path"), m.start()
        if "/" not in path and ("=" in path or "@" in path.split(".")[0][:1]):
            cut = path.rindex("=") + 1 if "=" in path else 0  # "path=app.log:12": the file is app.log
            path, begin = path[cut:], begin + cut
        if not path or not looks_like_file(path, scope.bundle):
            continue
        start = int(m.group("start"))
        end = int(m.group("end")) if m.group("end") else start
        yield _ref(text[begin : m.end()], begin, m.end(), path, [(start, end)])
    for pattern in NATURAL:
        for m in pattern.finditer(text):
            path = m.group("path")
            if path.lower().endswith(".har") or not looks_like_file(path, scope.bundle):
                continue
            start = int(m.group("start"))
            end = int(m.group("end")) if m.group("end") else start
            raw = m.group(0).rstrip(",")
            yield _ref(raw, m.start(), m.start() + len(raw), path, _ranges(start, end, m.group("more")))


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    if ref.parse_error:
        steps.fail("format", ref.parse_error)
        return invalid(ref, f"invalid line reference: {ref.parse_error}", steps)
    path = ref.fields["path"]
    ranges: list[tuple[int, int]] = ref.fields.get("ranges") or [(ref.fields["start"], ref.fields["end"])]
    label = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in ranges)
    steps.ok("format", f"line{'s' if len(ranges) > 1 or ranges[0][0] != ranges[0][1] else ''} {label}")
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
    where = f"{file.rel}:{label.replace(', ', ',')}"
    beyond = [b for _, b in ranges if b > count]
    if beyond:
        first = next(a if a > count else b for a, b in ranges if b > count)
        detail = f"line {first} is past the end: {file.rel} has {count} line{'s' if count != 1 else ''}"
        steps.fail("line_in_range", detail)
        path_shown = quote(ctx.bundle.shown(file.rel))
        return missing(ref, detail, steps, location=where, recovery=(f"Check the line count: wc -l {path_shown}",))
    steps.ok("line_in_range", f"{count} lines")
    shown: list[str] = []
    lines: list[str] = []
    for a, b in ranges:
        block = lf.lines(a, min(b, a + MAX_EVIDENCE_LINES - 1))
        lines += block
        shown += [f"{n}: {t}" for n, t in enumerate(block[:MAX_EXCERPT_LINES], a)]
        if b - a + 1 > MAX_EXCERPT_LINES:
            shown.append(f"… ({b - a + 1 - MAX_EXCERPT_LINES} more lines)")
    excerpt = "\n".join(shown)
    evidence = Evidence(kind="log", text="\n".join(lines), items=tuple(lines), source=file.rel, location=where)
    return found(ref, f"{where} exists", steps, excerpt, where, (evidence,))


FORMAT = CitationFormat(
    id="file:line",
    summary="a line or line range of a file: demisto.log:4521, access.log:156-178, file#L45-L67",
    find=find,
    check=check,
    examples=("demisto.log:4521", "access.log:156-178", "logs/app.log#L45-L67"),
)
