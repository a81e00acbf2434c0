"""The shipped example (examples/rate-limit) gives the verdicts its EXPECTED.md documents."""

from __future__ import annotations

from pathlib import Path

import citeproof

EXPECTED = {
    "c1": "verified", "c2": "verified", "c3": "verified", "c4": "verified",
    "c5": "contradicted",  # entry 20 returned 200, not 429 (SPEC §6.4)
    "c6": "verified",
    "c7": "missing_evidence",  # demisto.log has 606 lines
    "c8": "unsupported",  # quoted text not on line 315
    "c9": "verified", "c10": "verified", "c11": "verified",
    "c12": "uncited",
    "c13": "verified", "c14": "verified",
    "c15": "contradicted",  # c1 says 8.9.0-2464525 and env.log agrees (factual rule, SPEC §6.3)
}


def test_example_statuses(example: Path) -> None:
    report = citeproof.validate(example / "findings.md", example / "bundle")
    assert {c.id: c.status.value for c in report.claims} == EXPECTED
    assert report.status.value == "BLOCKED"
    assert report.verification_rate == round(10 / 15, 3)
    assert report.uncited_claims_details == ["The vendor API limit is 100 requests per minute."]
    assert report.contradictions == 3
    assert [(f.rule, f.claims) for f in report.contradiction_findings] == [
        ("factual", ["c1", "c15"]), ("evidence", ["c5"]), ("evidence", ["c15"])]
    assert "c15 is wrong" in report.contradiction_findings[0].resolution


def test_example_recovery_is_specific(example: Path) -> None:
    report = citeproof.validate(example / "findings.md", example / "bundle")
    by_id = {c.id: c for c in report.claims}
    assert by_id["c7"].citations[0].suggestion == "demisto.log:349"
    assert any("entry-19" in r and "off by one" in r for r in by_id["c5"].recovery)
    assert any("jq '.log.entries[19].response.status'" in r for r in by_id["c5"].recovery)
    assert "606 lines" in by_id["c7"].reason


def test_claim_positions_point_into_the_findings(example: Path) -> None:
    text = (example / "findings.md").read_text(encoding="utf-8").splitlines()
    report = citeproof.validate(example / "findings.md", example / "bundle")
    for claim in report.claims:
        line = text[claim.line - 1]
        assert line[claim.column - 1 :].startswith(claim.claim[:20]), (claim.id, line)
