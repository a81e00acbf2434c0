"""``--format sarif``: SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps, IDE viewers).

One run with one tool, ``citeproof``. Each kind of failure is a rule:

=============================  =======  ====================================================
rule id                        level    reported when
=============================  =======  ====================================================
``uncited``                    warning  a claim has no citation
``invalid_citation``           error    a citation is malformed or in no known format
``missing_evidence``           error    a citation points at nothing in the bundle
``unsupported``                warning  the cited evidence does not show what the claim says
``contradicted``               error    the evidence or another claim shows the claim is wrong
``contradiction/<rule>``       error    a contradiction rule fired (temporal, causal, factual, evidence)
``unverified_observation_cap`` error    more unverified observations than allowed
=============================  =======  ====================================================

A result is located at the claim's line and column in the findings file; the evidence its citations
point at (the bundle file, with the line when the citation names lines) and a suggested citation are
``relatedLocations``. Verified claims produce no result. The verdict, rate and counts are in
``runs[0].properties``.

Where the files are: every path is made relative to a source root, ``%SRCROOT%`` in
``originalUriBaseIds`` (SARIF 2.1.0 §3.14.14; its ``uri`` is the root as an absolute ``file:`` URI
ending in ``/``), so GitHub code scanning places the results in the repository whether the command
was given relative or absolute paths. The root is the repository the command ran in (the nearest
directory upward holding ``.git``), else the current directory; paths outside it stay absolute
``file:`` URIs. The findings ``uri`` is the findings file; evidence files are the bundle's path
joined with the bundle-relative file. When the bundle's path is unknown, evidence files are
bundle-relative with ``uriBaseId`` ``EVIDENCE``; findings given as text have the placeholder
``findings.md``. Output is deterministic: same report and directory, same bytes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path, PurePosixPath
from typing import Any, TextIO
from urllib.parse import quote

import orjson

from ..contradictions import REGISTRY as CONTRADICTION_RULES
from ..model import ClaimResult, ClaimStatus, ContradictionFinding, Report
from .base import Reporter, ReportSettings
from .common import DEFAULT_FINDINGS_URI, cap_exceeded, evidence_spot, one_line, report_context
from .sarif_rules import CAP_RULE, STATUS_RULES, SarifRule, contradiction_rule, contradiction_rule_id

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/citeproof/"
SRCROOT = "%SRCROOT%"


def find_srcroot(start: str | Path | None = None) -> str:
    """The source root for a run in ``start`` (default: the current directory): the nearest directory upward
    holding ``.git`` (a directory, or the file of a worktree), else ``start`` itself."""
    here = Path(os.path.abspath(start if start is not None else os.getcwd()))
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return str(folder)
    return str(here)


class SarifReporter(Reporter):
    name = "sarif"
    description = "SARIF 2.1.0 for code scanning: failing claims located in the findings file"

    def __init__(
        self, color: bool = False, *, source: str | None = None, evidence_root: str | None = None,
        max_unverified: int | None = None, srcroot: str | None = None, cwd: str | None = None,
    ) -> None:
        """``srcroot``: the ``%SRCROOT%`` directory (default: :func:`find_srcroot` of ``cwd``); ``cwd``: where
        relative paths in the report start (default: the current directory when the report is written)."""
        super().__init__(color)
        self.source = source
        self.evidence_root = evidence_root
        self.max_unverified = max_unverified
        self.srcroot = srcroot
        self.cwd = cwd

    @classmethod
    def configured(cls, settings: ReportSettings) -> SarifReporter:
        return cls(settings.color, srcroot=settings.srcroot, cwd=settings.cwd)

    def write(self, report: Report, stream: TextIO) -> None:
        stream.write(orjson.dumps(self.document(report), option=orjson.OPT_INDENT_2).decode())
        stream.write("\n")

    def document(self, report: Report) -> dict[str, Any]:
        """The SARIF log as a JSON-ready dict."""
        ctx = report_context(report, self.source, self.evidence_root, self.max_unverified)
        cwd = os.path.abspath(self.cwd or os.getcwd())
        paths = _Paths(os.path.abspath(self.srcroot) if self.srcroot else find_srcroot(cwd), cwd)
        findings = paths.artifact(ctx.source) if ctx.source else {"uri": DEFAULT_FINDINGS_URI}
        out = _Results(_rules(report), _Where(findings, ctx.evidence_root, paths))
        for claim in report.claims:
            if claim.status is not ClaimStatus.VERIFIED:
                out.claim(claim)
        by_id = {c.id: c for c in [*report.claims, *report.unverified_observations]}
        for finding in report.contradiction_findings:
            out.contradiction(finding, by_id)
        if cap_exceeded(report, ctx.max_unverified):
            out.cap(report.unverified_observations, ctx.max_unverified)
        run: dict[str, Any] = {
            "tool": {"driver": {
                "name": "citeproof",
                "semanticVersion": report.tool_version,
                "version": report.tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [rule.descriptor() for rule in out.rules],
            }},
            "columnKind": "unicodeCodePoints",
            "results": out.results,
            "properties": {
                "status": report.status.value,
                "verification_rate": report.verification_rate,
                "threshold": report.threshold,
                "total_claims": report.total_claims,
                "verified_claims": report.verified_claims,
                "contradictions": report.contradictions,
                "uncited_claims": report.uncited_claims,
                "unverified_observations": len(report.unverified_observations),
                "message": report.message,
            },
        }
        bases: dict[str, Any] = {SRCROOT: {"uri": _dir_uri(paths.root), "description": {
            "text": "the source root: the repository the report was made in, else the directory it was made in"}}}
        if ctx.evidence_root is None:
            bases["EVIDENCE"] = {"description": {"text": "the evidence bundle's root directory"}}
        run["originalUriBaseIds"] = bases
        return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _rules(report: Report) -> list[SarifRule]:
    """Claim-status rules, one per contradiction rule of the live registry (and any other the report names), the cap."""
    summaries = {rule_id: rule.summary for rule_id, rule in CONTRADICTION_RULES.items()}
    for finding in report.contradiction_findings:
        summaries.setdefault(finding.rule, f"{finding.rule} contradiction")
    statuses = [STATUS_RULES[s.value] for s in ClaimStatus if s.value in STATUS_RULES]
    return [*statuses, *(contradiction_rule(rule_id, summary) for rule_id, summary in summaries.items()), CAP_RULE]


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _uri(path: str) -> str:
    """A URI reference for a path: relative paths stay relative (forward slashes), absolute ones become file URIs."""
    posix = path.replace("\\", "/")
    pure = PurePosixPath(posix)
    if pure.is_absolute():
        return "file://" + quote(pure.as_posix())
    return quote(pure.as_posix(), safe="/")


def _dir_uri(path: str) -> str:
    uri = Path(path).as_uri()
    return uri if uri.endswith("/") else uri + "/"


class _Paths:
    """File paths as artifact locations: relative to the source root when inside it, else absolute file URIs."""

    def __init__(self, root: str, cwd: str) -> None:
        self.root = os.path.normpath(root)
        self.cwd = cwd

    def artifact(self, path: str) -> dict[str, str]:
        posix = path.replace("\\", "/")
        absolute = os.path.normpath(posix if PurePosixPath(posix).is_absolute() else os.path.join(self.cwd, posix))
        if absolute == self.root or absolute.startswith(self.root.rstrip("/") + "/"):
            return {"uri": _uri(os.path.relpath(absolute, self.root)), "uriBaseId": SRCROOT}
        return {"uri": _uri(absolute)}


class _Where:
    """Turns findings positions and bundle locations into SARIF locations."""

    def __init__(self, findings: dict[str, str], evidence_root: str | None, paths: _Paths) -> None:
        self.findings = findings
        self.evidence_root = evidence_root
        self.paths = paths

    def claim(self, claim: ClaimResult, message: str | None = None) -> dict[str, Any]:
        physical: dict[str, Any] = {"artifactLocation": dict(self.findings)}
        if claim.line > 0:
            region: dict[str, Any] = {"startLine": claim.line}
            if claim.column > 0:
                region["startColumn"] = claim.column
            region["snippet"] = {"text": claim.claim}
            physical["region"] = region
        location: dict[str, Any] = {"physicalLocation": physical}
        if message:
            location["message"] = {"text": message}
        return location

    def evidence(self, location: str | None, message: str, with_lines: bool = True) -> dict[str, Any] | None:
        spot = evidence_spot(location)
        if spot is None:
            return None
        artifact: dict[str, Any] = (
            {"uri": _uri(spot.file), "uriBaseId": "EVIDENCE"} if self.evidence_root is None
            else self.paths.artifact(f"{self.evidence_root.rstrip('/')}/{spot.file}")
        )
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if with_lines and spot.start_line is not None:
            region = {"startLine": spot.start_line}
            if spot.end_line is not None and spot.end_line != spot.start_line:
                region["endLine"] = spot.end_line
            physical["region"] = region
        return {"physicalLocation": physical, "message": {"text": message}}


class _Results:
    """Collects the results, each pointing at its rule by id and index."""

    def __init__(self, rules: list[SarifRule], where: _Where) -> None:
        self.rules = rules
        self.where = where
        self.index = {rule.id: n for n, rule in enumerate(rules)}
        self.results: list[dict[str, Any]] = []

    def claim(self, claim: ClaimResult) -> None:
        related: list[dict[str, Any]] = []
        for c in claim.citations:
            shown = one_line(c.excerpt.splitlines()[0], 200) if c.excerpt else one_line(c.reason)
            spot = self.where.evidence(c.location, f"{c.citation}: {shown}", with_lines=c.citation_exists)
            related += [spot] if spot else []
            hint = self.where.evidence(c.suggestion, f"suggested citation: {c.suggestion}") if c.suggestion else None
            related += [hint] if hint else []
        text = _sentence(f"{claim.id} {claim.status.value.replace('_', ' ')}: {one_line(claim.reason)}")
        if claim.recovery:
            text += " Fix: " + " | ".join(one_line(r) for r in claim.recovery)
        self._add(claim.status.value, text, [self.where.claim(claim)], related, [claim.id], claim.claim)

    def contradiction(self, finding: ContradictionFinding, claims: dict[str, ClaimResult]) -> None:
        involved = [claims[cid] for cid in finding.claims if cid in claims]
        text = _sentence(f"{finding.rule} contradiction between {', '.join(finding.claims)}: {one_line(finding.detail)}")
        text += " Resolution: " + one_line(finding.resolution)
        locations = [self.where.claim(involved[0])] if involved else []
        related = [self.where.claim(c, f"{c.id}: {one_line(c.claim, 200)}") for c in involved[1:]]
        self._add(contradiction_rule_id(finding.rule), text, locations, related, finding.claims,
                  "\0".join([*finding.claims, finding.detail]))

    def cap(self, observations: list[ClaimResult], cap: int) -> None:
        n = len(observations)
        text = f"{n} unverified observations, at most {cap} allowed: back {n - cap} of them with citations or remove them."
        related = [self.where.claim(c, f"{c.id}: {one_line(c.claim, 200)}") for c in observations[1:]]
        self._add(CAP_RULE.id, text, [self.where.claim(observations[0])], related, [c.id for c in observations], str(n))

    def _add(self, rule_id: str, text: str, locations: list[dict[str, Any]], related: list[dict[str, Any]],
             claim_ids: list[str], content: str) -> None:
        n = self.index[rule_id]
        result: dict[str, Any] = {
            "ruleId": rule_id, "ruleIndex": n, "level": self.rules[n].level, "message": {"text": text}, "locations": locations,
        }
        if related:
            result["relatedLocations"] = [{"id": i, **loc} for i, loc in enumerate(related, 1)]
        digest = hashlib.sha256(f"{rule_id}\0{content}".encode()).hexdigest()[:32]
        result["partialFingerprints"] = {"citeproofClaim/v1": digest}
        result["properties"] = {"claims": claim_ids}
        self.results.append(result)
