"""The values that flow through citeproof.

Reading a findings document gives :class:`Claim` values, each carrying the :class:`CitationRef`
values found in it. Checking a citation against the bundle gives a :class:`CitationResult`; the
claim's verdict is a :class:`ClaimResult`; the whole run is a :class:`Report`.

Everything here is immutable. The output models (:class:`CitationResult`, :class:`ClaimResult`,
:class:`ContradictionFinding`, :class:`Report`) are pydantic models: their field order is the JSON
order, and ``Report.model_json_schema()`` is the JSON Schema shipped as
``citeproof/schemas/report.schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ClaimStatus(StrEnum):
    """Verdict of one claim. Only ``verified`` counts towards the verification rate."""

    VERIFIED = "verified"
    UNCITED = "uncited"
    INVALID_CITATION = "invalid_citation"
    MISSING_EVIDENCE = "missing_evidence"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    UNVERIFIED_OBSERVATION = "unverified_observation"


class Verdict(StrEnum):
    PASSED = "PASSED"
    BLOCKED = "BLOCKED"


@dataclass(frozen=True)
class CitationRef:
    """A citation recognised in a claim, parsed into its format's fields.

    ``fields`` holds the typed parts a format module parsed (path, line range, entries, key, ...).
    ``parse_error`` is set when the text looks like a citation of this format but is malformed;
    such a citation is reported as ``format_valid: false``.
    """

    format_id: str
    raw: str
    start: int = 0
    end: int = 0
    fields: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    parse_error: str | None = None


@dataclass(frozen=True)
class Claim:
    """One factual statement from the findings, with the citations attached to it."""

    id: str
    text: str
    citations: tuple[CitationRef, ...] = ()
    line: int = 0
    column: int = 0
    unverified: bool = False
    zone: str | None = None  # the zone the document declares for times written without one ("All times below are CEST")


@dataclass(frozen=True)
class Evidence:
    """Text a resolved citation points at, used by the support check.

    ``kind`` is the evidence type (``log``, ``har``, ``config``, ``env``, ``pattern``, ``jira``,
    ``timestamp``). ``statuses`` lists the HTTP status codes of HAR entries, one per item; ``items`` are
    the separate lines or entries; ``source`` is the bundle file they come from. A config or env value
    names its ``key`` (the value is ``items[0]``) and the value its citation states (``config:a.b=5``);
    a pattern names its id as ``key``, its ``symptoms`` and where the first of them was ``seen`` in the
    bundle; a JIRA ticket names its key.
    """

    kind: str
    text: str
    statuses: tuple[int, ...] = ()
    items: tuple[str, ...] = ()
    source: str = ""
    location: str = ""  # the citation's location (file with line or entry), for anchors
    key: str = ""
    stated: str | None = None
    symptoms: tuple[str, ...] = ()
    seen: str = ""


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SubCheck(_Out):
    """One named step of a citation check (e.g. ``file_exists``, ``line_in_range``)."""

    name: str
    ok: bool | None = Field(description="true passed, false failed, null not checked")
    detail: str = ""


class CitationResult(_Out):
    citation: str
    citation_format: str = Field(description="format id, or 'unknown'")
    format_valid: bool
    citation_exists: bool
    evidence_supports: bool
    reason: str
    excerpt: str | None = None
    suggestion: str | None = None
    location: str | None = Field(default=None, description="bundle-relative file, with line or entry")
    checks: list[SubCheck] = Field(default_factory=list)


class AnchorResult(_Out):
    """How one content word of a claim is anchored in its cited evidence (or that it is not)."""

    word: str
    evidence_word: str | None = Field(description="the evidence word that anchors it; null when nothing does")
    via: str = Field(description="lemma, synonym, structure, source, or none")
    location: str = Field(default="", description="the cited location the anchor was read from")


class CheckVerdict(_Out):
    """One support check's answer about one fact kind of a claim (see :mod:`citeproof.support.checks`)."""

    check: str = Field(description="the support check's id in the registry, e.g. statuses, quantities, anchoring")
    outcome: str = Field(description="supported, unsupported, contradicted or not_checked")
    code: str = Field(description="stable code: <kind>.<what>, e.g. status.mismatch, quantity.absent, anchor.unanchored")
    kind: str = Field(description="the fact kind: status, quantity, time, event, anchor, ...")
    message: str
    claimed: str = Field(default="", description="the value the claim states")
    evidence: str = Field(default="", description="the value the cited evidence shows")
    location: str = Field(default="", description="the cited location the evidence value was read from")
    decides: bool = Field(default=False, description="true for the verdict that made the claim unsupported or contradicted")


class ClaimResult(_Out):
    id: str
    claim: str
    status: ClaimStatus
    validated: bool
    reason: str
    line: int = Field(default=0, description="1-based line of the claim in the findings; 0 if unknown")
    column: int = Field(default=0, description="1-based column of the claim in the findings; 0 if unknown")
    citations: list[CitationResult] = Field(default_factory=list)
    recovery: list[str] = Field(default_factory=list)
    anchors: list[AnchorResult] = Field(default_factory=list, description="each content word of the claim and its anchor")
    checks: list[CheckVerdict] = Field(default_factory=list, description="each support check's verdict, in registry order")


class ContradictionFinding(_Out):
    rule: str
    claims: list[str]
    detail: str
    resolution: str
    evidence: str | None = None


class Report(_Out):
    """The result of one validation run; ``to_dict()`` is the documented JSON output."""

    status: Verdict
    verification_rate: float
    threshold: float
    total_claims: int
    verified_claims: int
    contradictions: int
    uncited_claims: int
    uncited_claims_details: list[str]
    contradictions_details: list[str]
    recovery_options: list[str]
    message: str
    claims: list[ClaimResult]
    contradiction_findings: list[ContradictionFinding]
    unverified_observations: list[ClaimResult]
    warnings: list[str]
    tool_version: str
    source: str | None = Field(default=None, description="the findings file as given; null when findings were passed as text")
    evidence_root: str | None = Field(default=None, description="the bundle directory citation locations are relative to")
    max_unverified: int = Field(default=3, description="unverified observations allowed before BLOCKED")

    @property
    def passed(self) -> bool:
        return self.status is Verdict.PASSED

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
