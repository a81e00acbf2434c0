"""The SARIF rules: one per failure kind, with the descriptions and help code scanning shows.

Claim statuses (``uncited`` ... ``contradicted``) and the unverified-observation cap have fixed texts
here; each contradiction rule of :data:`citeproof.contradictions.REGISTRY` becomes a rule
``contradiction/<id>`` (a rule added to the registry without a text here gets one from its summary).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SarifRule:
    id: str
    name: str
    short: str
    full: str
    help: str
    level: str = "error"

    def descriptor(self) -> dict[str, Any]:
        """The ``reportingDescriptor`` object."""
        return {
            "id": self.id,
            "name": self.name,
            "shortDescription": {"text": self.short},
            "fullDescription": {"text": self.full},
            "help": {"text": self.help.replace("`", ""), "markdown": self.help},
            "defaultConfiguration": {"level": self.level},
        }


def contradiction_rule_id(rule: str) -> str:
    return f"contradiction/{rule}"


_MARK = "Or mark it as an assumption ('Note: Unverified assumption - ...') so it is kept out of the verification rate."

_STATUS_RULES = (
    SarifRule(
        "uncited", "UncitedClaim", "Factual claim without a citation",
        "The claim states a fact but cites no evidence, so it cannot be checked and counts as not verified.",
        "Cite the evidence that shows it (e.g. `demisto.log:298`, `capture.har:entry-12`, `env:version=8.9.0`). " + _MARK,
        "warning",
    ),
    SarifRule(
        "invalid_citation", "InvalidCitation", "Citation is malformed or in no known format",
        "A citation of the claim could not be parsed: it is malformed (e.g. a line range that ends before it starts) "
        "or is in none of the supported citation formats.",
        "Rewrite the citation in one of the supported formats: file:line, har:entry, timestamp, pattern, jira, config, env.",
    ),
    SarifRule(
        "missing_evidence", "MissingEvidence", "Citation points at nothing in the evidence bundle",
        "The citation is well formed but names a file, line, HAR entry, key, pattern or ticket that the bundle does not hold.",
        "Check the cited file and position against the bundle; the related location shows a suggested citation when the "
        "quoted text is elsewhere in the bundle. Or request the missing evidence.",
    ),
    SarifRule(
        "unsupported", "UnsupportedClaim", "Cited evidence does not show what the claim says",
        "The cited evidence exists, but the quoted text, numbers, statuses, times or events of the claim are not in it.",
        "Re-read the cited evidence (the related location) and correct the claim or cite the evidence that shows it.",
        "warning",
    ),
    SarifRule(
        "contradicted", "ContradictedClaim", "Evidence or another claim shows the claim is wrong",
        "The cited evidence states the opposite of the claim, or a contradiction rule shows this claim to be the wrong one.",
        "Correct the claim to what the evidence shows; the message names the evidence and the resolution.",
    ),
)

_CONTRADICTION_TEXTS: dict[str, tuple[str, str, str, str]] = {
    "temporal": (
        "TemporalContradiction", "Claimed times cannot all be true",
        "The same event is given different times, order words ('before', 'after', 'the first') disagree with the stated "
        "times, or a claim's time differs from the time on the evidence it cites.",
        "Compare the stated times with the timestamps of the cited lines and entries, and correct the wrong one.",
    ),
    "causal": (
        "CausalContradiction", "Stated cause is impossible",
        "A stated cause is made impossible by the claims' own numbers or by the bundle (e.g. a timeout shorter than "
        "the configured limit).",
        "Check the configuration and numbers the cause depends on, and restate the cause the evidence supports.",
    ),
    "factual": (
        "FactualContradiction", "Two claims state different values",
        "Two claims give different values for the same attribute (version, host, count, limit, ...).",
        "Keep the value the evidence shows (named in the resolution) and correct the other claim.",
    ),
    "evidence": (
        "EvidenceContradiction", "Cited evidence states the opposite",
        "The evidence a claim cites states the opposite of the claim (e.g. the cited HAR entry returned 200, not 429).",
        "Correct the claim to what the cited evidence shows, or cite the evidence that supports it.",
    ),
}


def contradiction_rule(rule_id: str, summary: str) -> SarifRule:
    """The SARIF rule of the contradiction rule ``rule_id`` (``summary``: its one-line summary in the registry)."""
    name, short, full, help_text = _CONTRADICTION_TEXTS.get(
        rule_id,
        ("".join(part.title() for part in rule_id.replace("-", "_").split("_")) + "Contradiction",
         f"Contradiction: {summary}", f"The {rule_id} contradiction rule fired: {summary}.",
         "Read the resolution in the message and correct the claim the evidence shows to be wrong."),
    )
    return SarifRule(contradiction_rule_id(rule_id), name, short, full, help_text)


CAP_RULE = SarifRule(
    "unverified_observation_cap", "TooManyUnverifiedObservations", "More unverified observations than allowed",
    "Claims disclosed as unverified observations are kept out of the verification rate, but only a few are allowed "
    "(max_unverified, 3 by default); beyond that the findings are BLOCKED.",
    "Back some of the unverified observations with citations, or remove them.",
)

STATUS_RULES: dict[str, SarifRule] = {rule.id: rule for rule in _STATUS_RULES}
