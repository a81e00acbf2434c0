"""Pipeline mode: check model-labelled claims against an evidence dict, and score them (SPEC §9).

An investigation pipeline (a LangGraph agent, say) ends with claims its model has sorted into
*validated* and *non-validated*, plus an evidence dict pulled from observability tools
(``cloudwatch_logs``, ``rds_metrics``, ``datadog_monitors``, ...). This module re-checks the labels
deterministically: each word of a claim that a rule knows ("disk", "memory", "lambda", ...) calls for
evidence keys that must hold data. The rule table is data (``citeproof/data/source_rules.json``,
extensible: :func:`load_rules`).

    >>> evidence = {"rds_metrics": {"Label": "FreeStorageSpace", "Datapoints": [{"Minimum": 0.0}]},
    ...             "cloudwatch_logs": {"events": []}}
    >>> validate_claim("The RDS disk filled up", evidence)
    True
    >>> validate_claim("The app logged disk errors", evidence)      # logs are empty
    False
    >>> validate_claim("The diskless workers were fine", evidence)  # words, not substrings: no rule applies
    True
    >>> extract_evidence_sources("The RDS disk filled up", evidence)
    ['rds_metrics']
    >>> extract_evidence_sources("Nothing a rule knows", evidence)
    ['evidence_analysis']

Re-labelling and the score. The model's validated claims stay validated, annotated with
``validation_status`` ("validated", or "failed_validation" when the check fails) and
``evidence_sources``; a non-validated claim that passes a real check is promoted:

    >>> validated, rest = validate_and_categorize_claims(
    ...     ["The RDS disk filled up", "The Lambda ingest timed out"], ["Replication lag hit 30 s"], evidence)
    >>> [(c["claim"], c["validation_status"], c["evidence_sources"]) for c in validated]  # doctest: +NORMALIZE_WHITESPACE
    [('The RDS disk filled up', 'validated', ['rds_metrics']),
     ('The Lambda ingest timed out', 'failed_validation', ['evidence_analysis']),
     ('Replication lag hit 30 s', 'validated', ['rds_metrics'])]
    >>> calculate_validity_score(validated, rest)   # (1.0 + 0.5 + 1.0) / 3 + 0.1 bonus
    0.93

Weights: 1.0 validated with real sources, 0.8 validated with only the generic ``evidence_analysis``
sentinel (no rule applies, nothing was checked), 0.5 ``failed_validation``, 0.0 non-validated; +0.1
when any validated item has a real source; rounded to 2 decimals, capped at 1.0; no claims: 0.0.
A claim no rule applies to is never promoted: unknown is never a pass.

:func:`check_sources` does all of it at once and explains it: per-claim weight and reason, and
warnings for evidence keys no rule knows, topics no rule covers (cache, network, ...), claims nothing
checked, and masked placeholders (``<IP_1>``, ``[REDACTED]``, ``***``) left in claims or evidence:

    >>> report = check_sources(["Redis evictions caused the errors"], [], {"apm_traces": [{"span": 1}]})
    >>> report.validity_score, report.explanations[0].status
    (0.5, 'failed_validation')
    >>> [w.code for w in report.warnings]
    ['unknown-evidence-key', 'no-rule-for-category']

From the command line: ``citeproof sources --claims CLAIMS.json --evidence EVIDENCE.json``.
"""

from __future__ import annotations

from .check import (
    BONUS,
    GENERIC_SOURCE,
    WEIGHT_FAILED,
    WEIGHT_GENERIC,
    WEIGHT_NON_VALIDATED,
    WEIGHT_REAL,
    ClaimCheck,
    RuleCheck,
    calculate_validity_score,
    check_claim,
    extract_evidence_sources,
    validate_and_categorize_claims,
    validate_claim,
)
from .report import ClaimExplanation, SourcesReport, SourceWarning, check_sources
from .rules import RuleSet, SourceRule, builtin_rules, load_rules

__all__ = [
    "BONUS",
    "GENERIC_SOURCE",
    "WEIGHT_FAILED",
    "WEIGHT_GENERIC",
    "WEIGHT_NON_VALIDATED",
    "WEIGHT_REAL",
    "ClaimCheck",
    "ClaimExplanation",
    "RuleCheck",
    "RuleSet",
    "SourceRule",
    "SourceWarning",
    "SourcesReport",
    "builtin_rules",
    "calculate_validity_score",
    "check_claim",
    "check_sources",
    "extract_evidence_sources",
    "load_rules",
    "validate_and_categorize_claims",
    "validate_claim",
]
