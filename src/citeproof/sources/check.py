"""Checking claims against the evidence dict, moving them between the lists, and the validity score.

A claim is a string or an object with a ``"claim"`` (or ``"text"``) string. Each rule whose words the
claim names is one check; the check passes when some evidence key it accepts holds data. A claim
passes when every check passes. A claim that names no rule's words passes nothing: it is *unchecked*
(validated by the model alone it scores 0.8 at most, and it is never promoted).

Weights (the seed's, deterministic): validated with real evidence sources 1.0, validated with only
the generic ``"evidence_analysis"`` sentinel 0.8, labelled validated but failing the check
(``"failed_validation"``) 0.5, non-validated 0.0. The mean is raised by 0.1 when any item of the
validated list has a real (non-sentinel) source, rounded to 2 decimals and capped at 1.0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal

from ..errors import FindingsError
from .evidence import data_map, placeholders_in
from .rules import RuleSet, builtin_rules

GENERIC_SOURCE = "evidence_analysis"
WEIGHT_REAL, WEIGHT_GENERIC, WEIGHT_FAILED, WEIGHT_NON_VALIDATED = 1.0, 0.8, 0.5, 0.0
BONUS = 0.1

ClaimInput = str | Mapping[str, Any]
Status = Literal["validated", "failed_validation", "non_validated"]


def claim_text(claim: Any, where: str = "claim") -> str:
    """The text of a claim given as a string or as an object with a "claim" or "text" string."""
    if isinstance(claim, str):
        return claim
    if isinstance(claim, Mapping):
        for key in ("claim", "text"):
            if isinstance(claim.get(key), str):
                return str(claim[key])
    raise FindingsError(f"{where} must be a string or an object with a 'claim' or 'text' string")


@dataclass(frozen=True)
class RuleCheck:
    """One rule applied to one claim: the words that triggered it, what it accepts, what was found."""

    rule: str
    words: tuple[str, ...]
    accepted: tuple[str, ...]
    found: tuple[str, ...]
    empty: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return bool(self.found)


@dataclass(frozen=True)
class ClaimCheck:
    text: str
    checks: tuple[RuleCheck, ...]
    unruled: tuple[tuple[str, tuple[str, ...]], ...]
    placeholders: tuple[str, ...]

    @property
    def checked(self) -> bool:
        return bool(self.checks)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def sources(self) -> list[str]:
        real = sorted({k for c in self.checks for k in c.found})
        return real or [GENERIC_SOURCE]


def check_text(text: str, present: Mapping[str, bool], rules: RuleSet) -> ClaimCheck:
    """Apply every rule to ``text`` given the evidence keys and whether each holds data."""
    checks = []
    for rule in rules.rules:
        words = rule.words.found_in(text)
        if not words:
            continue
        accepted = rule.evidence + tuple(p for alt in rule.also if alt.words.found_in(text) for p in alt.evidence)
        matching = [k for k in present if any(fnmatchcase(k.lower(), p) for p in accepted)]
        checks.append(RuleCheck(rule.id, words, accepted, tuple(k for k in matching if present[k]),
                                tuple(k for k in matching if not present[k])))
    unruled = tuple((name, hits) for name, ws in rules.unruled_categories().items() if (hits := ws.found_in(text)))
    return ClaimCheck(text, tuple(checks), unruled, placeholders_in(text, rules.placeholders))


def check_claim(claim: ClaimInput, evidence: Mapping[str, Any], rules: RuleSet | None = None) -> ClaimCheck:
    rules = rules or builtin_rules()
    return check_text(claim_text(claim), data_map(evidence, rules.data_keys), rules)


def validate_claim(claim: ClaimInput, evidence: Mapping[str, Any], rules: RuleSet | None = None) -> bool:
    """True when every rule the claim names finds data in an evidence key it accepts."""
    return check_claim(claim, evidence, rules).passed


def extract_evidence_sources(claim: ClaimInput, evidence: Mapping[str, Any], rules: RuleSet | None = None) -> list[str]:
    """The evidence keys with data that the claim's rules accept (sorted), else ``["evidence_analysis"]``."""
    return check_claim(claim, evidence, rules).sources


@dataclass(frozen=True)
class Outcome:
    """Where a claim came from, what the check said, and where it ends up."""

    location: str
    item: Any
    check: ClaimCheck
    status: Status

    @property
    def promoted(self) -> bool:
        return self.location.startswith("non_validated") and self.status == "validated"

    def annotated(self) -> Any:
        if self.status == "non_validated":
            return self.item
        keep = self.item.items() if isinstance(self.item, Mapping) else [("claim", self.item)]
        base = {k: v for k, v in keep if k not in ("validation_status", "evidence_sources")}
        return {**base, "validation_status": self.status, "evidence_sources": self.check.sources}


def categorize(
    validated_claims: Sequence[Any], non_validated_claims: Sequence[Any], evidence: Mapping[str, Any], rules: RuleSet | None = None
) -> list[Outcome]:
    """One outcome per claim: the model's validated claims first, then the non-validated ones."""
    rules = rules or builtin_rules()
    present = data_map(evidence, rules.data_keys)
    outcomes = []
    for name, claims in (("validated_claims", validated_claims), ("non_validated_claims", non_validated_claims)):
        for n, item in enumerate(claims):
            where = f"{name}[{n}]"
            check = check_text(claim_text(item, where), present, rules)
            if name == "validated_claims":
                status: Status = "validated" if check.passed else "failed_validation"
            else:
                status = "validated" if check.passed and check.checked else "non_validated"
            outcomes.append(Outcome(where, item, check, status))
    return outcomes


def split(outcomes: Sequence[Outcome]) -> tuple[list[dict[str, Any]], list[Any]]:
    kept = [o.annotated() for o in outcomes if o.status != "non_validated" and not o.promoted]
    promoted = [o.annotated() for o in outcomes if o.promoted]
    return kept + promoted, [o.item for o in outcomes if o.status == "non_validated"]


def validate_and_categorize_claims(
    validated_claims: Sequence[Any], non_validated_claims: Sequence[Any], evidence: Mapping[str, Any], rules: RuleSet | None = None
) -> tuple[list[dict[str, Any]], list[Any]]:
    """(validated, non_validated): validated items annotated; passing non-validated claims promoted."""
    return split(categorize(validated_claims, non_validated_claims, evidence, rules))


def _has_real(item: Any) -> bool:
    sources = item.get("evidence_sources") if isinstance(item, Mapping) else None
    return isinstance(sources, list | tuple) and any(s != GENERIC_SOURCE for s in sources)


def item_weight(item: Any) -> float:
    """The weight of one item of the validated list (a missing status counts as failed)."""
    if isinstance(item, Mapping) and item.get("validation_status") == "validated":
        return WEIGHT_REAL if _has_real(item) else WEIGHT_GENERIC
    return WEIGHT_FAILED


def score_parts(validated: Sequence[Any], non_validated: Sequence[Any]) -> tuple[float, float, float]:
    """(base, bonus, score): the weighted mean, the real-evidence bonus, and the capped rounded sum."""
    total = len(validated) + len(non_validated)
    if not total:
        return 0.0, 0.0, 0.0
    base = (sum(item_weight(c) for c in validated) + WEIGHT_NON_VALIDATED * len(non_validated)) / total
    bonus = BONUS if any(_has_real(c) for c in validated) else 0.0
    return round(base, 4), bonus, min(1.0, round(base + bonus, 2))


def calculate_validity_score(validated: Sequence[Any], non_validated: Sequence[Any]) -> float:
    """The validity score in [0, 1] (see the module documentation); 0.0 when both lists are empty."""
    return score_parts(validated, non_validated)[2]
