"""Documents made only of correct claims must pass, with no contradiction found (false-positive guard).

For every labelled case, the sentences labelled ``verified`` are put together as a new findings
document over the same bundle. Every contradiction a rule reports there is a false positive.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import citeproof
from citeproof.support.facts import document_zone

from .case_corpus import CORPUS, build_bundle, case_dirs, findings_file, labels, needs_corpus, options, plain

_NOTE = re.compile(r"^\s*(?:\[\^|\[\d+\]|[¹²³⁴⁵⁶⁷⁸⁹])")
# a list of sources; "**Evidence**" without a colon heads a section of claims (an on-call handover), not a list
_SOURCES = re.compile(r"^\s*(?:#{1,6}\s*)?\**(?:(?:sources|references|citations|notes)\**\s*:?|evidence\**\s*:)\**\s*$", re.I)


def clean_document(case: Path, bundle: Path) -> str:
    """The case's verified claims, each as a bullet (or a JSON claim), in reading order, with its notes."""
    findings = findings_file(case)
    report = citeproof.validate(findings, bundle, **options(case))
    good = [plain(lab.text) for lab in labels(case) if lab.status == "verified" and not lab.known_gap]
    keep = [c for c in report.claims if any(plain(c.claim).startswith(g) for g in good)]
    if findings.suffix == ".json":
        original = json.loads(findings.read_text(encoding="utf-8"))
        items = original["claims"] if isinstance(original, dict) else original
        wanted = {c.claim for c in keep}
        return json.dumps({"claims": [i for i in items if isinstance(i, dict) and (i.get("claim") or i.get("text")) in wanted]})
    lines = findings.read_text(encoding="utf-8").splitlines()
    head = next((n for n, line in enumerate(lines) if _SOURCES.match(line)), len(lines))
    notes = [line for line in lines[:head] if _NOTE.match(line)] + lines[head:]
    zone = document_zone(findings.read_text(encoding="utf-8"))  # the document's "All times below are CEST" still holds
    head_line = f"All times below are {zone}.\n\n" if zone else ""
    return head_line + "".join(f"- {' '.join(c.claim.split())}\n" for c in keep) + "\n" + "\n".join(notes) + "\n"


def _cases() -> list[Path]:
    """Cases with at least three verified labels that are not known gaps (so a clean document can be built)."""
    return [c for c in case_dirs() if sum(lab.status == "verified" and not lab.known_gap for lab in labels(c)) >= 3]


def _params() -> list[object]:
    """One per case; a case whose clean document still draws a false contradiction (issue 14) says so in its
    expected.json as ``clean_known_gap``, a strict xfail that fails the day the rule stops raising it."""
    out: list[object] = []
    for case in _cases():
        gap = json.loads((case / "expected.json").read_text(encoding="utf-8")).get("clean_known_gap")
        marks = [pytest.mark.xfail(reason=gap, strict=True)] if gap else []
        out.append(pytest.param(case, marks=marks, id=case.name))
    return out


@pytest.mark.parametrize("case", _params())
def test_correct_claims_alone_pass_without_contradictions(case: Path, tmp_path: Path) -> None:
    if needs_corpus(case) and not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS}")
    bundle = build_bundle(case, tmp_path)
    text = clean_document(case, bundle)
    report = citeproof.validate(text, bundle, **options(case))
    assert report.total_claims >= 3, text
    assert report.contradiction_findings == [], [f.detail for f in report.contradiction_findings]
    assert report.status.value == "PASSED", [(c.id, c.status.value, c.reason) for c in report.claims if not c.validated]
