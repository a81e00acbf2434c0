"""Property tests: arbitrary findings never crash the reader or the gate, and the output is stable."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citeproof
from citeproof.citations import find_citations
from citeproof.errors import FindingsError
from citeproof.extract import read_claims
from citeproof.extract.markdown import split_sentences

from .conftest import EXAMPLE

_PIECES = st.sampled_from(
    [
        "demisto.log:349", "capture.har:entry-11", "capture.har:entries-11-14", "timestamp:2026-01-15T10:30:45Z±5s",
        "time:10:30:45", "pattern:P-127", "JIRA:XSUP-48213", "config:integration.polling_rate", "env:version=8.9",
        "HTTP 429", "'Rate limit exceeded'", "# Heading", "- ", "1. ", "| a | b |", "|---|---|", "```", "> ", "\n", "\n\n",
        "(", ")", "[", "]", ".", "?", ":", "Note: Unverified assumption - ", "Next I will ", "e.g. ", "8.9.0-2464525",
        "../etc/passwd:1", "/etc/passwd:1", "\r\n", "\t", "“quoted”", "±", "entry-0", ":0", "-", "`",
    ]
)
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=40).map("".join)
_SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_TEXT)
def test_reader_never_crashes_and_is_deterministic(text: str) -> None:
    try:
        first = read_claims(text)
    except FindingsError as exc:  # the documented input error (e.g. "[": JSON that does not parse), never a crash
        assert "findings" in str(exc)
        return
    assert first == read_claims(text)
    for claim in first:
        assert claim.text.strip()
        for ref in claim.citations:
            assert ref.format_id in {"file:line", "har:entry", "timestamp", "pattern", "jira", "config", "env", "unknown"}


@_SETTINGS
@given(st.text(max_size=300))
def test_citation_finders_never_crash_and_do_not_overlap(text: str) -> None:
    refs = find_citations(text)
    for a, b in itertools.pairwise(refs):
        assert a.end <= b.start


@_SETTINGS
@given(st.text(max_size=400))
def test_sentence_splitter_keeps_text_in_order(text: str) -> None:
    pieces = split_sentences(text)
    offsets = [o for o, _ in pieces]
    assert offsets == sorted(offsets)
    for offset, sentence in pieces:
        assert text[offset:].lstrip().startswith(sentence[:1]) if sentence else True


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_gate_never_crashes_on_the_example_bundle(text: str) -> None:
    try:
        report = citeproof.validate(text, EXAMPLE / "bundle")
    except FindingsError:
        return  # a one-line input error, not a crash
    again = citeproof.validate(text, EXAMPLE / "bundle")
    assert report.to_dict() == again.to_dict()
    assert report.status.value in ("PASSED", "BLOCKED")
    if report.total_claims == 0:
        assert report.status.value == "BLOCKED"


def test_structured_findings_shapes(tmp_path: Path) -> None:
    claims = [{"id": "k1", "claim": "HTTP 429 seen", "citations": ["capture.har:entry-11"]}]
    for shape in (claims, {"claims": claims}, {"validated_claims": claims, "non_validated_claims": []}):
        import json

        report = citeproof.validate(json.dumps(shape), EXAMPLE / "bundle")
        assert [c.id for c in report.claims] == ["k1"]
        assert report.claims[0].status.value == "verified"
