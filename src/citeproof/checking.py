"""The checking behind :func:`citeproof.validate`: every claim's citations through the format registry,
the support checks over the union of each claim's cited evidence, the contradiction rules across the
claims, and the decision (:mod:`citeproof.decide`). :mod:`citeproof.engine` opens the inputs and calls
:func:`run`; this module is imported only when a run has work to do, so a command line whose report is
already cached never loads it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ._version import __version__
from .citations import REGISTRY, CheckContext, Checked, CitationFormat, Scope
from .citations.base import quote
from .claim_cache import ClaimCache
from .config import Options
from .contradictions import ClaimView, RuleContext, find_contradictions
from .decide import decide
from .evidence import Bundle, FileKind
from .evidence.access import UnreadableEvidence
from .evidence.har import load_har
from .evidence.prepare import prepare
from .evidence.structured import jira_issues
from .evidence.timestamps import parse_iso
from .extract import read_claims
from .model import (
    AnchorResult,
    CheckVerdict,
    CitationRef,
    CitationResult,
    Claim,
    ClaimResult,
    ClaimStatus,
    ContradictionFinding,
    Evidence,
    Report,
    SubCheck,
)
from .support import REGISTRY as CHECKS
from .support import Support, check_support, claim_facts, strip_citations, suggest_lines
from .support.checks import Check
from .support.facts import ClaimTime, Facts, document_zone, split_negation


@dataclass(frozen=True)
class Registries:
    """The citation formats and the support checks a run uses."""

    formats: Mapping[str, CitationFormat]
    checks: Mapping[str, Check]

    @property
    def default(self) -> bool:
        return self.formats is REGISTRY and self.checks is CHECKS

    @classmethod
    def of(cls, formats: Mapping[str, CitationFormat] | None, checks: Mapping[str, Check] | None) -> Registries:
        """The registries given, the shipped one standing in for each that is not."""
        return cls(REGISTRY if formats is None else formats, CHECKS if checks is None else checks)


def scope_of(bundle: Bundle, opts: Options) -> Scope:
    """What citation parsing needs to know of the bundle: the JIRA projects whose bare keys are tickets."""
    projects = {key.split("-")[0] for key in jira_issues(bundle)} | set(opts.jira_projects)
    return Scope(bundle, frozenset(projects))


def _prepare(claims: list[Claim], bundle: Bundle, opts: Options, progress: bool) -> None:
    """Index, concurrently, the files the claims' citations will read."""
    refs = [r for c in claims for r in c.citations]
    times = any(r.format_id == "timestamp" and not r.parse_error for r in refs)
    files = {f for f in bundle.files.values() if times and f.kind in (FileKind.LOG, FileKind.HAR)}
    for ref in refs:
        path = ref.fields.get("path") if ref.format_id in ("file:line", "har:entry") else None
        if path:
            found = bundle.resolve(str(path)).file
            if found is not None:
                files.add(found)
    prepare(bundle, files, times, opts.tzinfo, progress)


def run(text: str, source: str, bundle: Bundle, opts: Options, regs: Registries,
        progress: bool = False, given: list[Claim] | None = None, run_key: str | None = None) -> Report:
    """The report of one run; ``run_key`` is the claim cache's key of these inputs when the caller computed it."""
    claims = given if given is not None else read_claims(text, scope_of(bundle, opts), source, structured=_is_json(source))
    zone = document_zone(text)
    if zone:
        claims = [c if c.zone else dataclasses.replace(c, zone=zone) for c in claims]  # a table's time column may name its own
    warnings: list[str] = [f"{rel}: {why}" for rel, why in sorted(bundle.rejected.items())]
    views: list[ClaimView] = []
    cache = ClaimCache(bundle, opts, run_key) if regs.default and not opts.jira_url else None  # live JIRA: per run only
    hits = {c.id: cache.get(c) for c in claims} if cache is not None else {}
    _prepare([c for c in claims if hits.get(c.id) is None], bundle, opts, progress)
    seen = set(warnings)
    for claim in claims:
        view, extra = _check_claim(claim, bundle, opts, regs, cache, hits.get(claim.id))
        views.append(view)
        for w in extra:
            if w not in seen:
                seen.add(w)
                warnings.append(w)
    if cache is not None:
        cache.save()
    warnings.extend(f"{rel}: {why}" for rel, why in sorted(bundle.unreadable.items()))
    counted_views = tuple(v for v in views if v.result.status is not ClaimStatus.UNVERIFIED_OBSERVATION)
    readable = tuple(v for v in counted_views if len(v.text) <= MAX_CLAIM_CHARS)  # an overlong claim is not read
    findings, wrong = find_contradictions(RuleContext(readable, bundle, opts))
    counted = [_mark_wrong(v.result, findings) if v.id in wrong else v.result for v in counted_views]
    observations = [v.result for v in views if v.result.status is ClaimStatus.UNVERIFIED_OBSERVATION]
    decision = decide(counted, findings, len(observations), opts.threshold, opts.max_unverified)
    uncited = [r for r in counted if r.status is ClaimStatus.UNCITED]
    recovery: list[str] = []
    for r in counted:
        for option in r.recovery:
            line = f"{r.id}: {option}"
            if line not in recovery:
                recovery.append(line)
    if len(observations) > opts.max_unverified:
        recovery.append(
            f"Back {len(observations) - opts.max_unverified} of the {len(observations)} unverified observations with citations, "
            f"or remove them (at most {opts.max_unverified} allowed)"
        )
    return Report(
        status=decision.status,
        verification_rate=decision.rate,
        threshold=opts.threshold,
        total_claims=decision.total,
        verified_claims=decision.verified,
        contradictions=len(findings),
        uncited_claims=len(uncited),
        uncited_claims_details=[r.claim for r in uncited],
        contradictions_details=[f"{f.detail} ({f.rule})" for f in findings],
        recovery_options=recovery,
        message=decision.message,
        claims=counted,
        contradiction_findings=findings,
        unverified_observations=observations,
        warnings=warnings,
        tool_version=__version__,
        source=None if source == "findings" else source,
        evidence_root=bundle.shown(),
        max_unverified=opts.max_unverified,
    )


def _is_json(source: str) -> bool | None:
    """A ``.json`` findings file must be JSON; anything else is told apart by its content."""
    return True if source != "findings" and source.lower().endswith(".json") else None


def _mark_wrong(result: ClaimResult, findings: list[ContradictionFinding]) -> ClaimResult:
    """A claim a contradiction rule shows to be wrong becomes ``contradicted``."""
    if result.status is ClaimStatus.CONTRADICTED:
        return result
    finding = next(f for f in findings if result.id in f.claims)
    return result.model_copy(update={
        "status": ClaimStatus.CONTRADICTED, "validated": False,
        "reason": f"{finding.detail} ({finding.rule}); {finding.resolution}",
        "recovery": [*result.recovery, finding.resolution],
    })


def check_each(claims: list[Claim], bundle: Bundle, opts: Options, regs: Registries) -> Iterator[tuple[ClaimResult, list[str]]]:
    """Per-claim results (with the warnings raised while checking), in reading order, before contradiction rules."""
    for claim in claims:
        view, warnings = _check_claim(claim, bundle, opts, regs)
        yield view.result, warnings


def _check_claim(
    claim: Claim, bundle: Bundle, opts: Options, regs: Registries, cache: ClaimCache | None = None,
    hit: tuple[ClaimResult, list[str], tuple[Evidence, ...], str] | None = None,
) -> tuple[ClaimView, list[str]]:
    """One claim's view: from the claim cache when ``hit`` holds its stored verdict, else checked now."""
    if hit is not None:
        result, warnings, evidence, stripped = hit
    else:
        stripped = strip_citations(claim)
        result, warnings, evidence = _verdict(claim, stripped, bundle, opts, regs)
        if cache is not None:
            cache.put(claim, result, warnings, evidence, stripped)
    facts = claim_facts(split_negation(stripped)[0]) if len(stripped) <= MAX_CLAIM_CHARS else Facts()
    return ClaimView(claim, result, stripped, facts, evidence), warnings


MAX_CLAIM_CHARS = 10_000  # a longer "sentence" is not a claim a reader can check either: it is reported, not read


def _verdict(
    claim: Claim, stripped: str, bundle: Bundle, opts: Options, regs: Registries
) -> tuple[ClaimResult, list[str], tuple[Evidence, ...]]:
    ctx = CheckContext(bundle, opts, stripped)
    first: dict[tuple[str, str], int] = {}
    for position, ref in enumerate(claim.citations):
        first.setdefault((ref.format_id, repr(sorted(ref.fields.items()))), position)
    refs = [claim.citations[p] for p in sorted(first.values())]
    checked = [_check_ref(ref, ctx, regs.formats) for ref in refs]
    warnings = [w for c in checked for w in c.warnings]
    recovery = [r for c in checked for r in c.recovery]
    citations = [c.result for c in checked]
    evidence = tuple(e for c in checked for e in c.evidence)
    base = dict(id=claim.id, claim=claim.text, line=claim.line, column=claim.column)

    if claim.unverified:
        return ClaimResult(status=ClaimStatus.UNVERIFIED_OBSERVATION, validated=False,
                           reason="disclosed as an unverified observation", citations=citations, **base), warnings, evidence
    if len(stripped) > MAX_CLAIM_CHARS:
        return ClaimResult(status=ClaimStatus.UNSUPPORTED, validated=False, citations=citations, **base,
                           reason=f"the claim is {len(stripped)} characters long, more than the {MAX_CLAIM_CHARS} that are "
                                  "checked: split it into sentences",
                           recovery=["Split the claim into sentences of one fact each, each with its citation"]), warnings, evidence
    if not checked:
        recovery = [
            f"Cite the evidence for it, e.g. search the bundle: {_grep_hint(stripped, bundle)}",
            "Or request the missing evidence from the customer",
            "Or mark it: 'Note: Unverified assumption - <claim>'",
        ]
        return ClaimResult(status=ClaimStatus.UNCITED, validated=False, reason="no citation",
                           recovery=recovery, **base), warnings, evidence
    bad = next((c for c in citations if not c.format_valid), None)
    if bad is not None:
        return ClaimResult(status=ClaimStatus.INVALID_CITATION, validated=False,
                           reason=f"invalid citation {bad.citation}: {bad.reason}", citations=citations,
                           recovery=recovery or ["Rewrite the citation in one of the seven formats (e.g. demisto.log:4521)"],
                           **base), warnings, evidence
    gone = next((c for c in citations if not c.citation_exists), None)
    if gone is not None:
        citations, hints = _suggest(claim, stripped, citations, bundle, gone.reason, search=False)
        return ClaimResult(status=ClaimStatus.MISSING_EVIDENCE, validated=False,
                           reason=f"{gone.citation}: {gone.reason}", citations=citations,
                           recovery=hints + recovery, **base), warnings, evidence
    refuted = next((c for c in checked if not c.result.evidence_supports), None)
    if refuted is not None:
        status = ClaimStatus.CONTRADICTED if refuted.contradicts else ClaimStatus.UNSUPPORTED
        return ClaimResult(status=status, validated=False,
                           reason=f"{refuted.result.citation}: {refuted.result.reason}", citations=citations,
                           recovery=recovery, **base), warnings, evidence
    stamps = [r for r, c in zip(refs, citations, strict=True) if r.format_id == "timestamp" and c.citation_exists]
    tolerance = max([float(r.fields.get("tolerance_s") or opts.default_time_window_s) for r in stamps] + [0.0])
    support = check_support(stripped, list(evidence), opts.tzinfo, tolerance, cited_times(stamps, opts),
                            opts.anchor_slack, opts.anchor_strict_verbs, regs.checks, claim.zone)
    if not support.ok:
        citations, hints = _suggest(claim, stripped, citations, bundle, support.reason)
        hints = [h for c in checked for h in _har_hints(c, support.statuses, bundle, opts)] + hints
        updated = [c.model_copy(update={"evidence_supports": False, "reason": support.reason}) for c in citations]
        status = ClaimStatus.CONTRADICTED if support.contradicted else ClaimStatus.UNSUPPORTED
        return ClaimResult(status=status, validated=False, reason=support.reason, citations=updated,
                           recovery=recovery + hints, anchors=_anchors(support),
                           checks=_verdicts(support), **base), warnings, evidence
    return ClaimResult(status=ClaimStatus.VERIFIED, validated=True, reason=support.reason,
                       citations=citations, anchors=_anchors(support), checks=_verdicts(support), **base), warnings, evidence


def _verdicts(support: Support) -> list[CheckVerdict]:
    return [CheckVerdict(check=v.check, outcome=v.outcome.value, code=v.code, kind=v.kind, message=v.message, claimed=v.claimed,
                         evidence=v.evidence, location=v.location, decides=v is support.decided_by) for v in support.verdicts]


def _anchors(support: Support) -> list[AnchorResult]:
    return [AnchorResult(word=a.word, evidence_word=a.evidence_word, via=a.via, location=a.location) for a in support.anchors]


def cited_times(refs: list[CitationRef], opts: Options) -> tuple[ClaimTime, ...]:
    """The instants of timestamp citations, as times of day to find in the claim's other evidence."""
    out = []
    for ref in refs:
        value = str(ref.fields.get("value", ""))
        instant = parse_iso(value, opts.tzinfo)
        if instant is not None:
            utc = instant.astimezone(dt.UTC)
            secs = utc.hour * 3600 + utc.minute * 60 + utc.second + utc.microsecond / 1e6
            out.append(ClaimTime(value, secs, 1.0 if re.search(r"\d:\d{2}:\d{2}", value) else 60.0, "UTC"))
        elif re.fullmatch(r"\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?", value):
            parts = [float(p.replace(",", ".")) for p in value.split(":")]
            secs = parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0.0)
            out.append(ClaimTime(value, secs, 1.0 if len(parts) > 2 else 60.0, None))
    return tuple(out)


def _check_ref(ref: CitationRef, ctx: CheckContext, registry: Mapping[str, CitationFormat]) -> Checked:
    fmt = registry.get(ref.format_id)
    if fmt is None:
        reason = ref.parse_error or f"'{ref.raw}' is in no known citation format"
        return Checked(CitationResult(
            citation=ref.raw, citation_format="unknown", format_valid=False, citation_exists=False,
            evidence_supports=False, reason=reason, checks=[SubCheck(name="format", ok=False, detail=reason)],
        ))
    try:
        return fmt.check(ref, ctx)
    except UnreadableEvidence as exc:  # swapped, replaced, truncated or unreadable since the bundle was listed
        reason = f"{exc.rel} {exc.reason}"
        return Checked(CitationResult(
            citation=ref.raw, citation_format=ref.format_id, format_valid=True, citation_exists=False,
            evidence_supports=False, reason=reason, checks=[SubCheck(name="readable", ok=False, detail=reason)],
        ))


def _har_hints(checked: Checked, statuses: tuple[int, ...], bundle: Bundle, opts: Options) -> list[str]:
    """For a HAR citation whose entries lack the stated status: the jq command, and an off-by-one hint."""
    res = checked.result
    if res.citation_format != "har:entry" or not statuses or not res.location:
        return []
    rel = res.location.split(" entr", 1)[0]
    file = bundle.files.get(rel)
    if file is None:
        return []
    doc = load_har(bundle, file)
    base = opts.har_index_base
    hints = []
    numbers = [int(n) for n in re.findall(r"\d+", res.location[len(rel):])]
    for n in numbers:
        entry = doc.entry(n - base)
        if entry.status in statuses:
            continue
        hints.append(f"Check it: jq '.log.entries[{n - base}].response.status' {quote(bundle.shown(rel))} (returns {entry.status})")
        for near in (n - 1, n + 1):
            if 0 <= near - base < len(doc) and doc.entry(near - base).status in statuses:
                hints.append(f"Entry {near} returned {doc.entry(near - base).status}: did you mean {rel}:entry-{near}? (off by one)")
                break
        break
    return hints


def _suggest(
    claim: Claim, stripped: str, citations: list[CitationResult], bundle: Bundle, reason: str, search: bool = True
) -> tuple[list[CitationResult], list[str]]:
    """When a quoted string is not on the cited lines, point at lines of the same file that hold it."""
    quotes = claim_facts(stripped).quotes
    hints: list[str] = []
    out: list[CitationResult] = []
    for c in citations:
        if c.citation_format == "file:line" and c.location and quotes:
            rel, _, rng = c.location.rpartition(":")
            first = int(rng.split("-")[0]) if rng.split("-")[0].isdigit() else 1
            lines = [n for q in quotes for n in suggest_lines(bundle, rel, first, q)]
            if lines:
                best = f"{rel}:{lines[0]}"
                c = c.model_copy(update={"suggestion": best})
                hints.append(f"The quoted text is at {best}, not {c.location}: cite that line")
        out.append(c)
    if not search:
        return out, hints
    if quotes and not hints:
        hints.append(f"Search the bundle for it: grep -rn {_sh(quotes[0])} {bundle.shown()}")
    elif not hints:
        hints.append(f"Re-read the cited evidence: {reason}")
    return out, hints


def _grep_hint(text: str, bundle: Bundle) -> str:
    facts = claim_facts(text)
    if facts.quotes:
        needle = facts.quotes[0]
    elif facts.statuses:
        needle = str(facts.statuses[0])
    else:
        number = re.search(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", text)
        words = sorted((w.strip(".,;:()") for w in text.split()), key=lambda w: (-len(w), w))
        needle = number.group(0) if number else words[0] if words else ""
    return f"grep -rn {_sh(needle)} {bundle.shown()}"


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
