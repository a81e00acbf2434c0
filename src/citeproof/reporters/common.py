"""What the Markdown, SARIF and HTML reporters share: status labels, evidence locations, report context.

A citation's ``location`` names where in the bundle its evidence is; :func:`evidence_spot` reads it
back into a file and a line range (``demisto.log:298-301`` -> ``demisto.log``, 298, 301;
``env.log#version`` and ``capture.har entry 20`` -> the file only).

:func:`report_context` says which findings file and bundle a report is about. A reporter is told
by its constructor arguments; when it is not, a report that carries ``source`` / ``evidence_root``
/ ``max_unverified`` values is used, and otherwise the documented defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..config import Options
from ..model import ClaimResult, ClaimStatus, Report

STATUS_LABEL: dict[ClaimStatus, str] = {
    ClaimStatus.VERIFIED: "Verified",
    ClaimStatus.UNCITED: "Uncited",
    ClaimStatus.INVALID_CITATION: "Invalid citation",
    ClaimStatus.MISSING_EVIDENCE: "Missing evidence",
    ClaimStatus.UNSUPPORTED: "Unsupported",
    ClaimStatus.CONTRADICTED: "Contradicted",
    ClaimStatus.UNVERIFIED_OBSERVATION: "Unverified observation",
}

#: Failing statuses, most serious first (the order of the Markdown table and the HTML summary).
FAILURES: tuple[ClaimStatus, ...] = (
    ClaimStatus.CONTRADICTED,
    ClaimStatus.MISSING_EVIDENCE,
    ClaimStatus.INVALID_CITATION,
    ClaimStatus.UNSUPPORTED,
    ClaimStatus.UNCITED,
)

DEFAULT_FINDINGS_URI = "findings.md"

_COMMAND = re.compile(
    r"^(?P<lead>.*?: )(?P<cmd>(?:grep|jq|wc|find|cat|sed|head|tail|zcat|rg|ls) .+?)(?P<tail> \([^()]*\))?$"
)
_LINES = re.compile(r"^(?P<file>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?(?:,[\d,\-]*)?$")
_HAR = re.compile(r"^(?P<file>.+?) entr(?:y|ies) \d")


@dataclass(frozen=True)
class EvidenceSpot:
    """A bundle-relative file and, when the citation names lines, the first cited range."""

    file: str
    start_line: int | None = None
    end_line: int | None = None


def evidence_spot(location: str | None) -> EvidenceSpot | None:
    """The bundle file (and lines) a citation location or a suggested citation points at."""
    if not location or not location.strip():
        return None
    location = location.strip()
    har = _HAR.match(location)
    if har:
        return EvidenceSpot(har.group("file"))
    if "#" in location:
        file = location.split("#", 1)[0]
        return EvidenceSpot(file) if file else None
    lines = _LINES.match(location)
    if lines:
        start = int(lines.group("start"))
        end = int(lines.group("end") or start)
        return EvidenceSpot(lines.group("file"), start, max(start, end)) if start > 0 else EvidenceSpot(lines.group("file"))
    if " " in location or ":" in location:
        return None  # a prose location or an unparsed citation: not a file
    return EvidenceSpot(location)


@dataclass(frozen=True)
class ReportContext:
    """Where a report's findings and evidence live, and the unverified-observation cap it was run with."""

    source: str | None
    evidence_root: str | None
    max_unverified: int


def report_context(
    report: Report, source: str | None = None, evidence_root: str | None = None, max_unverified: int | None = None
) -> ReportContext:
    """Explicit values first, then the report's own (when the model carries them), then the defaults."""
    found_source = source or _optional_str(getattr(report, "source", None))
    found_root = evidence_root or _optional_str(getattr(report, "evidence_root", None))
    cap = max_unverified if max_unverified is not None else getattr(report, "max_unverified", None)
    if not isinstance(cap, int):
        cap = Options.model_fields["max_unverified"].default
    assert isinstance(cap, int)
    return ReportContext(found_source, found_root, cap)


def _optional_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def cap_exceeded(report: Report, cap: int) -> bool:
    """True when the report holds more unverified observations than allowed."""
    return len(report.unverified_observations) > cap


def one_line(text: str, limit: int = 0) -> str:
    """Whitespace collapsed to single spaces, cut at ``limit`` characters (0: no limit) with an ellipsis."""
    text = " ".join(text.split())
    return text if not limit or len(text) <= limit else text[: limit - 1].rstrip() + "…"


def split_command(option: str) -> tuple[str, str, str] | None:
    """A recovery option that quotes a shell command, as (text before, the command, a parenthesised note after)."""
    m = _COMMAND.match(one_line(option))
    return (m.group("lead"), m.group("cmd"), (m.group("tail") or "").strip()) if m else None


def failing(report: Report) -> list[ClaimResult]:
    """The counted claims that are not verified, in reading order."""
    return [c for c in report.claims if c.status is not ClaimStatus.VERIFIED]


def status_counts(report: Report) -> dict[ClaimStatus, int]:
    """How many claims (counted and unverified observations) have each status, zero counts left out."""
    counts: dict[ClaimStatus, int] = {}
    for claim in [*report.claims, *report.unverified_observations]:
        counts[claim.status] = counts.get(claim.status, 0) + 1
    order = [ClaimStatus.VERIFIED, *FAILURES, ClaimStatus.UNVERIFIED_OBSERVATION]
    return {s: counts[s] for s in order if s in counts}
