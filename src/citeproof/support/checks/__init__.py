"""The support checks, as an explicit registry.

Each check is one module exposing ``CHECK``, a :class:`~.base.Check` that reads one kind of fact of a
claim against its cited evidence and answers a :class:`~.base.FactVerdict` (outcome, stable code, fact
kind, claimed value, evidence value, location). The module docstring is the check's documentation,
with a passing and a failing example that the test suite runs.

:func:`decide` runs every check of a registry in order: the claim is *contradicted* when any check
says so, else *unsupported* by the first check that does not find its fact (a fact a check cannot
check counts against the claim), else supported.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import (
    anchoring,
    counts,
    dates,
    events,
    identifiers,
    negation,
    patterns,
    presence,
    quantities,
    quotes,
    statuses,
    tickets,
    times,
    universals,
    values,
    versions,
)
from .base import Check, FactVerdict, Outcome, Subject

REGISTRY: Mapping[str, Check] = {
    c.id: c
    for c in (
        values.CHECK,
        tickets.CHECK,
        patterns.CHECK,
        negation.CHECK,
        counts.CHECK,
        quotes.CHECK,
        statuses.CHECK,
        identifiers.CHECK,
        universals.CHECK,
        versions.CHECK,
        quantities.CHECK,
        times.CHECK,
        dates.CHECK,
        events.CHECK,
        presence.CHECK,
        anchoring.CHECK,
    )
}


def run(subject: Subject, registry: Mapping[str, Check] = REGISTRY) -> tuple[FactVerdict, ...]:
    """Every verdict the checks of ``registry`` give on ``subject``, in registry order."""
    return tuple(v for c in registry.values() if (v := c.run(subject)) is not None)


def decide(verdicts: tuple[FactVerdict, ...]) -> FactVerdict | None:
    """The verdict that decides the claim: the first contradiction, else the first other failure, else None (supported)."""
    contradiction = next((v for v in verdicts if v.outcome is Outcome.CONTRADICTED), None)
    return contradiction or next((v for v in verdicts if not v.ok), None)


__all__ = ["REGISTRY", "Check", "FactVerdict", "Outcome", "Subject", "decide", "run"]
