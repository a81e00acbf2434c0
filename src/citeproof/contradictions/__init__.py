"""The four contradiction rules of SPEC §6, as an explicit registry.

Each rule is a module exposing ``RULE`` (:class:`~.base.Rule`); its docstring is its documentation,
with a passing and a failing example. Rule tables are data files in ``citeproof/data/``
(``attributes.json`` for the factual rule, ``causal.json`` for the causal rule, ``events.json`` for
event words).

:func:`find_contradictions` runs every rule and returns the findings in a stable order, with the ids
of the claims the evidence shows to be wrong (those become ``contradicted``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model import ContradictionFinding
from . import causal, evidence, factual, temporal
from .base import ClaimView, Found, Rule, RuleContext

REGISTRY: Mapping[str, Rule] = {r.id: r for r in (temporal.RULE, causal.RULE, factual.RULE, evidence.RULE)}


def find_contradictions(ctx: RuleContext, registry: Mapping[str, Rule] = REGISTRY) -> tuple[list[ContradictionFinding], set[str]]:
    """All findings (ordered by rule, then claims) and the ids of the claims shown wrong."""
    found: list[Found] = []
    for rule in registry.values():
        found.extend(rule.check(ctx))
    order = {view.id: n for n, view in enumerate(ctx.claims)}
    found.sort(key=lambda f: (list(registry).index(f.finding.rule), [order.get(c, 0) for c in f.finding.claims], f.finding.detail))
    wrong = {cid for f in found for cid in f.wrong}
    return [f.finding for f in found], wrong


__all__ = ["REGISTRY", "ClaimView", "Found", "Rule", "RuleContext", "find_contradictions"]
