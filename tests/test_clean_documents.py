"""Documents made only of correct claims must pass, with no contradiction found (false-positive guard).

For every labelled case, the sentences labelled ``verified`` are put together as a new findings
document over the same bundle. Every contradiction a rule reports there is a false positive.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import citeproof

from .case_corpus import CORPUS, build_bundle, case_dirs, labels, needs_corpus, options


def clean_document(case: Path, bundle: Path) -> str:
    """The case's verified claims, each as a bullet, in reading order."""
    report = citeproof.validate(case / "findings.md", bundle, **options(case))
    good = [" ".join(lab.text.split()) for lab in labels(case) if lab.status == "verified" and not lab.known_gap]
    keep = [c.claim for c in report.claims if any(" ".join(c.claim.split()).startswith(g) for g in good)]
    notes = [line for line in (case / "findings.md").read_text(encoding="utf-8").splitlines() if line.startswith("[^")]
    return "".join(f"- {' '.join(text.split())}\n" for text in keep) + "\n" + "\n".join(notes) + "\n"


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_correct_claims_alone_pass_without_contradictions(case: Path, tmp_path: Path) -> None:
    if needs_corpus(case) and not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS}")
    bundle = build_bundle(case, tmp_path)
    text = clean_document(case, bundle)
    report = citeproof.validate(text, bundle, **options(case))
    assert report.total_claims >= 3, text
    assert report.contradiction_findings == [], [f.detail for f in report.contradiction_findings]
    assert report.status.value == "PASSED", [(c.id, c.status.value, c.reason) for c in report.claims if not c.validated]
