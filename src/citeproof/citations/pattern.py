"""Format 4, ``pattern`` — a known-issue pattern in the bundle's pattern database.

Canonical: ``pattern:P-127``. Variants: ``pattern_database:P-127``, and a bare id as agents write it:
"P-127 (rate limiting)", "Pattern P-127 from database".

The pattern database is any JSON in the bundle shaped ``{"patterns": [{"id": "P-127", ...}]}``
(e.g. ``cappy-cache_latest.json``). Sub-checks: ``format`` (``^P-\\d+$``), ``exists``,
``symptoms_in_evidence`` (where the first of its keywords or symptoms occurs in the bundle's logs or
captures), ``confidence`` (a missing confidence level is a warning, not a failure). Whether the pattern
describes the claim's symptom is the support check ``patterns`` (:mod:`citeproof.support.checks.patterns`).

Passing: "Rate limiting matches pattern:P-127" when P-127 is about rate limiting.
Failing: ``pattern:P-999`` when the database has no P-999; ``pattern:127`` (malformed id).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..evidence import Bundle, FileKind, UnreadableEvidence
from ..evidence.har import load_har
from ..evidence.structured import flatten_text, patterns
from ..model import CitationRef, Evidence
from .base import CheckContext, Checked, CitationFormat, Scope, Steps, found, invalid, missing, quote

PATTERN = re.compile(r"\bpattern(?:_database|_db)?:\s?(?P<id>[\w\-]+)", re.I)
# "P-127 (rate limiting)", "Pattern P-127 from database", "known pattern P-127"
BARE = re.compile(r"(?<![\w\-:])(?P<id>P-\d{1,9})(?![\w\-])")
VALID_ID = re.compile(r"^P-\d+$")


def find(text: str, scope: Scope) -> Iterator[CitationRef]:
    for m in PATTERN.finditer(text):
        pid = m.group("id")
        error = None if VALID_ID.match(pid) else f"'{pid}' is not a pattern id (expected P-<number>, e.g. P-127)"
        yield CitationRef("pattern", m.group(0), m.start(), m.end(), {"id": pid}, error)
    for m in BARE.finditer(text):
        yield CitationRef("pattern", m.group(0), m.start(), m.end(), {"id": m.group("id")})


def check(ref: CitationRef, ctx: CheckContext) -> Checked:
    steps = Steps()
    if ref.parse_error:
        steps.fail("format", ref.parse_error)
        return invalid(ref, ref.parse_error, steps)
    pid = ref.fields["id"]
    steps.ok("format", pid)
    db = patterns(ctx.bundle)
    if not db:
        detail = "the bundle has no pattern database (JSON with a 'patterns' list)"
        steps.fail("exists", detail)
        return missing(ref, detail, steps)
    if pid not in db:
        detail = f"pattern {pid} is not in the pattern database ({len(db)} patterns)"
        steps.fail("exists", detail)
        db_file = ctx.bundle.shown(next(iter(db.values()))[1])
        return missing(ref, detail, steps, recovery=(f"List the known patterns: jq '.patterns[].id' {quote(db_file)}",))
    record, source = db[pid]
    location = f"{source}#{pid}"
    steps.ok("exists", location)
    text = flatten_text({k: v for k, v in record.items() if k not in ("id", "confidence")})
    warnings: tuple[str, ...] = ()
    confidence = record.get("confidence", record.get("confidence_level"))
    name = str(record.get("name") or record.get("title") or "")
    excerpt = f"{pid}: {name}".strip() + (f" (confidence: {confidence})" if confidence is not None else "")
    signatures = _signatures(record)
    seen = ""
    if not signatures:
        steps.skip("symptoms_in_evidence", "the pattern lists no keywords or symptoms to look for")
    else:
        seen = ctx.bundle.memo(("pattern-seen", pid), lambda: _seen_in_bundle(ctx.bundle, signatures)) or ""
        if seen:
            steps.ok("symptoms_in_evidence", seen)
        else:
            steps.fail("symptoms_in_evidence", f"none of {pid}'s symptoms ({', '.join(signatures[:4])}) occur in the bundle")
    if confidence is None:
        steps.skip("confidence", "no confidence level recorded")
        warnings = (f"pattern {pid} has no confidence level recorded",)
    else:
        steps.ok("confidence", str(confidence))
    evidence = Evidence(kind="pattern", text=text, items=(text,), source=source, location=location, key=pid,
                        symptoms=tuple(signatures), seen=seen)
    return found(ref, f"pattern {pid} found", steps, excerpt, location, (evidence,), warnings=warnings)


_SIGNATURE_FIELDS = ("keywords", "symptoms", "signatures", "indicators", "log_patterns", "error_strings", "match")


def _signatures(record: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for name in _SIGNATURE_FIELDS:
        value = record.get(name)
        values = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        out += [v.strip() for v in values if isinstance(v, str) and len(v.strip()) >= 2]
    return list(dict.fromkeys(out))


def _seen_in_bundle(bundle: Bundle, signatures: list[str]) -> str | None:
    """Where the first of the pattern's symptoms occurs in the bundle's logs or HAR captures."""
    for file in sorted(bundle.of_kind(FileKind.LOG), key=lambda f: f.rel):
        try:
            lf = bundle.lines(file)
            for sig in signatures:
                pos = lf.find_text(sig)
                if pos is not None:
                    return f"'{sig}' at {file.rel}:{lf.line_of(pos)}"
        except UnreadableEvidence:
            continue  # reported as a warning of the run
    for file in sorted(bundle.of_kind(FileKind.HAR), key=lambda f: f.rel):
        doc = load_har(bundle, file)
        for sig in signatures:
            hits = doc.containing(sig)
            if hits:
                return f"'{sig}' in {file.rel} entry {hits[0] + 1}"
    return None


FORMAT = CitationFormat(
    id="pattern",
    summary="a pattern-database id: pattern:P-127, pattern_database:P-127",
    find=find,
    check=check,
    examples=("pattern:P-127", "pattern_database:P-127"),
)
