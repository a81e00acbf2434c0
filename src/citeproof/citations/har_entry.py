"""Format 2, ``har:entry`` — entries of a HAR capture.

Canonical: ``capture.har:entry-145``, ``trace.har:entries-145,234,567``.
Variants: ``capture.har:entries-145-150`` (a range), ``capture.har:entry 145``, ``capture.har#entry-145``,
and as agents write them: "capture.har entry 145", "entry 145 of capture.har", "entries 3 and 7 in
trace.har", "HAR entries 145, 234, 567" (no file named: the bundle's only HAR capture; with several it
is ambiguous and reported, never guessed), and in a bundle with exactly one HAR capture also "entry 4",
"entries 5-9", "entry-135 to entry-142" and "entries 12, 16 and 20".

Entry numbers are 1-based by default (``entry-145`` is ``log.entries[144]``); the option
``har_index_base: 0`` makes them 0-based. Sub-checks: ``format``, ``file_exists``, ``is_har`` (the file
parses as HAR 1.2 with a ``log.entries`` list), ``entries_exist``, ``has_status`` (each entry has an HTTP
response status; status 0 counts when the capture records why, e.g. ``_error: net::ERR_...``).
The excerpt is one line per entry: ``METHOD URL -> STATUS statusText @ startedDateTime (time ms)``.

Passing: ``304.har:entry-3`` (503 from loremflickr.com). Failing: ``304.har:entry-999`` (270 entries).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..evidence import Bundle, FileKind, Lookup
from ..evidence.har import load_har
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, invalid, missing, quote

MAX_ENTRIES = 10_000

PATTERN = re.compile(
    r"(?<![\w.\-/])(?P<path>(?:[\w.\-]+/)*[\w.\-]*?\.har)(?::|#)\s?entr(?:y|ies)[-\s]?"
    r"(?P<list>\d{1,12}(?:\s?(?:,|-|–|\.\.)\s?\d{1,12})*|[^\s,;)\]`'\"]+)",
    re.I,
)


def parse_numbers(spec: str) -> tuple[list[int], str | None]:
    """``145,234,567`` / ``145-150`` / ``1..3`` -> entry numbers (in order, no duplicates)."""
    numbers: list[int] = []
    if not re.fullmatch(r"[\d\s,\-–.]+", spec):
        return [], f"'{spec}' is not an entry number (expected e.g. entry-145 or entries-145,234)"
    for part in re.split(r"\s?,\s?", spec.strip()):
        bounds = re.split(r"\s?(?:-|–|\.\.)\s?", part)
        if len(bounds) == 1:
            numbers.append(int(bounds[0]))
            continue
        if len(bounds) != 2:
            return [], f"cannot read entry range '{part}'"
        lo, hi = int(bounds[0]), int(bounds[1])
        if hi < lo:
            return [], f"entry range {lo}-{hi} ends before it starts"
        if hi - lo + 1 > MAX_ENTRIES:
            return [], f"entry range {lo}-{hi} is larger than {MAX_ENTRIES} entries"
        numbers.extend(range(lo, hi + 1))
    return list(dict.fromkeys(numbers)), None


_LIST = (r"#?(?P<list>\d{1,12}(?:\s?(?:,|-|–|—|\.\.|\bto\b|\bthrough\b|\band\b|&|,\s?and\b)\s?(?:entr(?:y|ies)[-\s]?)?#?"
         r"\d{1,12}(?![\d:.]\d))*)")
_HAR = r"`?(?<![\w.\-/])(?P<path>(?:[\w.\-]+/)*[\w.\-]*\.har)`?"
NATURAL = (
    # "capture.har entry 145", "capture.har entries 145, 234 and 567", "capture.har (entries 3-5)"
    re.compile(_HAR + r",?\s\(?(?:HAR\s)?entr(?:y|ies)\s" + _LIST, re.I),
    # "entry 145 of capture.har", "entries 3 and 7 in trace.har"
    re.compile(r"\bentr(?:y|ies)\s" + _LIST + r"\s(?:of|in|from)\s(?:the\s)?" + _HAR, re.I),
    # "HAR entries 145, 234, 567", "HAR entry #3" (the only HAR in the bundle)
    re.compile(r"\bHAR(?:\scapture|\sfile)?\s(?:log\s)?entr(?:y|ies)\s" + _LIST, re.I),
)
# "entry 4", "entries 5-9", "entry-135 to entry-142", "entries 12, 16 and 20": only in a bundle with one HAR capture
BARE = re.compile(r"(?<![\w.\-/])entr(?:y|ies)[\s-]" + _LIST + r"(?![\w.:/]\w)", re.I)


def _normalise(spec: str) -> str:
    spec = re.sub(r"entr(?:y|ies)[-\s]?", "", spec, flags=re.I)
    spec = re.sub(r"\s*(?:,\s*and|and|&)\s*", ",", spec)
    return re.sub(r"\s*(?:to|through)\s*", "-", spec).replace("#", "")


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        numbers, error = parse_numbers(m.group("list"))
        yield CitationRef("har:entry", m.group(0), m.start(), m.end(), {"path": m.group("path"), "entries": numbers}, error)
    for pattern in NATURAL:
        for m in pattern.finditer(text):
            numbers, error = parse_numbers(_normalise(m.group("list")))
            path = m.groupdict().get("path") or ""
            yield CitationRef("har:entry", m.group(0), m.start(), m.end(), {"path": path, "entries": numbers}, error)
    if scope.bundle is not None and len(scope.bundle.of_kind(FileKind.HAR)) == 1:
        for m in BARE.finditer(text):
            numbers, error = parse_numbers(_normalise(m.group("list")))
            yield CitationRef("har:entry", m.group(0), m.start(), m.end(), {"path": "", "entries": numbers}, error)


def _the_only_har(bundle: Bundle) -> Lookup:
    hars = sorted(f.rel for f in bundle.of_kind(FileKind.HAR))
    if len(hars) == 1:
        return Lookup(bundle.files[hars[0]])
    if not hars:
        return Lookup(None, "no HAR file is named and the bundle holds no HAR capture")
    return Lookup(None, f"ambiguous: no HAR file is named and the bundle holds {len(hars)} ({', '.join(hars[:5])})")


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    base = ctx.options.har_index_base
    numbers: list[int] = ref.fields.get("entries", [])
    if ref.parse_error:
        steps.fail("format", ref.parse_error)
        return invalid(ref, f"invalid HAR entry reference: {ref.parse_error}", steps)
    low = [n for n in numbers if n < base]
    if low:
        detail = f"entry numbers start at {base} (har_index_base={base}); got {low[0]}"
        steps.fail("format", detail)
        return invalid(ref, detail, steps)
    steps.ok("format", f"{len(numbers)} entr{'y' if len(numbers) == 1 else 'ies'}, {base}-based")
    path = ref.fields.get("path", "")
    lookup = ctx.bundle.resolve(path) if path else _the_only_har(ctx.bundle)
    if lookup.file is None:
        steps.fail("file_exists", lookup.problem)
        return missing(ref, lookup.problem, steps)
    file = lookup.file
    steps.ok("file_exists", file.rel)
    if file.kind is not FileKind.HAR:
        steps.fail("is_har", f"{file.rel} is not a HAR capture (classified as {file.kind.value})")
        return missing(ref, f"{file.rel} is not a HAR capture", steps)
    doc = load_har(ctx.bundle, file)
    if doc.error:
        steps.fail("is_har", doc.error)
        return missing(ref, doc.error, steps)
    total = len(doc)
    steps.ok("is_har", f"{total} entries")
    shown = quote(ctx.bundle.shown(file.rel))
    absent = [n for n in numbers if not 0 <= n - base < total]
    if absent:
        last = total - 1 + base
        detail = (
            f"entry {absent[0]} does not exist: {file.rel} has {total} entries"
            + (f" ({base}..{last})" if total else "")
        )
        steps.fail("entries_exist", detail)
        return missing(
            ref, detail, steps, location=f"{file.rel} entry {absent[0]}",
            recovery=(f"Count the entries: jq '.log.entries | length' {shown}",),
        )
    steps.ok("entries_exist", ", ".join(str(n) for n in numbers[:20]))
    entries = [doc.entry(n - base) for n in numbers]
    no_status = [
        n for n, e in zip(numbers, entries, strict=True) if e.status is None or (e.status == 0 and not e.error and not e.status_text)
    ]
    if no_status:
        detail = f"entry {no_status[0]} has no HTTP response status"
        steps.fail("has_status", detail)
        idx = no_status[0] - base
        return missing(
            ref, detail, steps, location=f"{file.rel} entry {no_status[0]}",
            recovery=(f"Inspect it: jq '.log.entries[{idx}].response' {shown}",),
        )
    steps.ok("has_status", ", ".join(str(e.status) for e in entries[:20]))
    lines = [f"entry {n} (index {n - base}): {e.summary()}" for n, e in zip(numbers, entries, strict=True)]
    where = f"{file.rel} entr{'y' if len(numbers) == 1 else 'ies'} {', '.join(str(n) for n in numbers[:20])}"
    evidence = Evidence(
        kind="har",
        text="\n\n".join(e.search_text() for e in entries),
        statuses=tuple(e.status if e.status is not None else -1 for e in entries),
        items=tuple(e.search_text() for e in entries),
        source=file.rel,
        location=where,
    )
    return found(ref, f"{len(numbers)} HAR entr{'y' if len(numbers) == 1 else 'ies'} found", steps, "\n".join(lines), where, (evidence,))


FORMAT = CitationFormat(
    id="har:entry",
    summary="entries of a HAR capture, 1-based: capture.har:entry-145, trace.har:entries-145,234,567",
    find=find,
    check=check,
    examples=("capture.har:entry-145", "trace.har:entries-145,234,567", "capture.har:entries-145-150"),
)
