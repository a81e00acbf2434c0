"""The pipeline-mode report: categorized claims, the score, why each claim weighs what it does, warnings.

Warnings are values with a stable ``code``:

- ``unknown-evidence-key``: no rule accepts this evidence key, so it can support no claim;
- ``no-rule-for-category``: the claim names a topic (cache, network, ...) that no rule covers;
- ``not-checked``: no rule applies to the claim at all, so nothing was checked;
- ``masked-placeholder``: ``<IP_1>``, ``[REDACTED]``, ``***`` left in a claim or in evidence
  (unmask before validating: a placeholder hides the words the rules look for).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .check import GENERIC_SOURCE, Outcome, categorize, item_weight, score_parts, split
from .evidence import evidence_placeholders
from .rules import RuleSet, builtin_rules


@dataclass(frozen=True)
class SourceWarning:
    code: str
    location: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "location": self.location, "message": self.message}


@dataclass(frozen=True)
class ClaimExplanation:
    """Why one claim weighs what it does."""

    location: str
    claim: str
    status: str
    promoted: bool
    weight: float
    evidence_sources: tuple[str, ...]
    checks: tuple[dict[str, Any], ...]
    unchecked_categories: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "location": self.location, "claim": self.claim, "status": self.status, "promoted": self.promoted,
            "weight": self.weight, "evidence_sources": list(self.evidence_sources), "checks": list(self.checks),
            "unchecked_categories": list(self.unchecked_categories), "reason": self.reason,
        }


@dataclass(frozen=True)
class SourcesReport:
    validated_claims: tuple[Any, ...]
    non_validated_claims: tuple[Any, ...]
    validity_score: float
    base: float
    bonus: float
    explanations: tuple[ClaimExplanation, ...]
    warnings: tuple[SourceWarning, ...]
    threshold: float | None = None  # the score PASSED needs (``sources --threshold``); None: no gate

    @property
    def passed(self) -> bool:
        """Whether the validity score reaches the threshold (always, without one)."""
        return self.threshold is None or self.validity_score >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "validated_claims": list(self.validated_claims),
            "non_validated_claims": list(self.non_validated_claims),
            "validity_score": self.validity_score,
        }
        if self.threshold is not None:
            out |= {"threshold": self.threshold, "passed": self.passed}
        return out | {
            "score": {"base": self.base, "bonus": self.bonus, "cap": 1.0, "reason": self.score_reason()},
            "explanations": [e.to_dict() for e in self.explanations],
            "warnings": [w.to_dict() for w in self.warnings],
        }

    def score_reason(self) -> str:
        if not self.explanations:
            return "no claims: 0.0"
        bonus = "+0.1 because a validated item has a real evidence source" if self.bonus else "no +0.1 bonus: no real evidence source"
        return f"mean weight {self.base:g} over {len(self.explanations)} claims, {bonus}; rounded, capped at 1.0"


def _failing(o: Outcome) -> str:
    return "; ".join(f"{c.rule} (named by {', '.join(c.words)}) needs data in one of {', '.join(c.accepted)}"
                     + (f" ({', '.join(c.empty)} present but empty)" if c.empty else "")
                     for c in o.check.checks if not c.passed)


def _reason(o: Outcome, weight: float) -> str:
    unchecked = f"; not checked: {', '.join(n for n, _ in o.check.unruled)} (no rule)" if o.check.unruled else ""
    supported = "; ".join(f"{c.rule}: {', '.join(c.found)}" for c in o.check.checks)
    if o.status == "validated":
        how = "promoted from non-validated: " if o.promoted else "validated: "
        if o.check.sources != [GENERIC_SOURCE]:
            return f"{weight:.1f}: {how}every rule it names found evidence ({supported}){unchecked}"
        return f"{weight:.1f}: {how}no rule applies, so only the generic '{GENERIC_SOURCE}' sentinel stands behind it{unchecked}"
    if o.status == "failed_validation":
        return f"{weight:.1f}: labelled validated but failed the check: {_failing(o)}{unchecked}"
    if not o.check.checked:
        return f"{weight:.1f}: non-validated and not promoted: no rule applies, nothing could be checked{unchecked}"
    return f"{weight:.1f}: non-validated and not promoted: {_failing(o)}{unchecked}"


def _explain(o: Outcome) -> ClaimExplanation:
    annotated = o.annotated()
    weight = 0.0 if o.status == "non_validated" else item_weight(annotated)
    checks = tuple({"rule": c.rule, "words": list(c.words), "accepts": list(c.accepted), "found": list(c.found),
                    "empty": list(c.empty), "passed": c.passed}
                   for c in o.check.checks)
    return ClaimExplanation(o.location, o.check.text, o.status, o.promoted, weight, tuple(o.check.sources), checks,
                            tuple(n for n, _ in o.check.unruled), _reason(o, weight))


def _claim_warnings(o: Outcome) -> list[SourceWarning]:
    out = [SourceWarning("no-rule-for-category", o.location,
                         f"names {', '.join(repr(w) for w in words)} (category '{name}'), which no rule covers: that part was not checked")
           for name, words in o.check.unruled]
    if not o.check.checked:
        out.append(SourceWarning("not-checked", o.location, "no evidence-source rule applies to this claim: nothing was checked"))
    if o.check.placeholders:
        out.append(SourceWarning("masked-placeholder", o.location,
                                 f"contains masked placeholder(s) {', '.join(o.check.placeholders)}: unmask before validating"))
    return out


def _evidence_warnings(evidence: Mapping[str, Any], rules: RuleSet) -> list[SourceWarning]:
    out = []
    for key, value in evidence.items():
        if not rules.knows_key(key):
            out.append(SourceWarning("unknown-evidence-key", f"evidence.{key}",
                                     "no rule accepts this evidence key, so it supports no claim (add a rule for it)"))
        masked = evidence_placeholders(key, value, rules.placeholders)
        if masked:
            count, tokens, first = masked
            shown = ", ".join(tokens[:5]) + (", ..." if len(tokens) > 5 else "")
            out.append(SourceWarning("masked-placeholder", f"evidence.{key}",
                                     f"{count} value(s) contain masked placeholders ({shown}), first at {first}: unmask before validating"))
    return out


def check_sources(
    validated_claims: Sequence[Any], non_validated_claims: Sequence[Any], evidence: Mapping[str, Any], rules: RuleSet | None = None
) -> SourcesReport:
    """Categorize, score, explain every claim and collect the warnings, in one deterministic pass."""
    rules = rules or builtin_rules()
    outcomes = categorize(validated_claims, non_validated_claims, evidence, rules)
    validated, non_validated = split(outcomes)
    base, bonus, score = score_parts(validated, non_validated)
    warnings = _evidence_warnings(evidence, rules) + [w for o in outcomes for w in _claim_warnings(o)]
    return SourcesReport(tuple(validated), tuple(non_validated), score, base, bonus,
                         tuple(_explain(o) for o in outcomes), tuple(warnings))
