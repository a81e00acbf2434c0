"""A node and a router for LangGraph-style pipelines: plain functions over a state dict.

The node reads ``validated_claims``, ``non_validated_claims`` and ``evidence`` from the state and
returns a partial update: the re-checked lists (see :mod:`citeproof.sources`), ``validity_score``,
``validity_explanations``, ``validity_warnings`` and ``validation_attempts`` (incremented). The router
sends the graph to ``"publish"`` when the score reaches the threshold, back to ``"investigate"``
otherwise, and to ``give_up`` (``"give_up"`` by default; pass LangGraph's ``END``) once
``max_attempts`` validations have not reached it. A missing score is never a pass.

Nothing here imports LangGraph::

    from langgraph.graph import END, START, StateGraph
    from citeproof.integrations.langgraph_node import ValidationState, make_router, validate_node

    class State(ValidationState, total=False):
        report: str

    graph = StateGraph(State)
    graph.add_node("investigate", investigate)      # yours: gathers evidence, labels claims
    graph.add_node("validate", validate_node)
    graph.add_node("publish", publish)              # yours
    graph.add_edge(START, "investigate")
    graph.add_edge("investigate", "validate")
    graph.add_conditional_edges("validate", make_router(threshold=0.9, max_attempts=3, give_up=END),
                                ["publish", "investigate", END])
    graph.add_edge("publish", END)

Without LangGraph:

    >>> update = validate_node({"validated_claims": ["RDS CPU peaked at 97%"],
    ...                         "evidence": {"rds_metrics": {"Datapoints": [{"Maximum": 97.1}]}}})
    >>> update["validity_score"], update["validation_attempts"]
    (1.0, 1)
    >>> route({**update})
    'publish'
    >>> route({"validity_score": 0.8, "validation_attempts": 1}), route({"validity_score": 0.8, "validation_attempts": 3})
    ('investigate', 'give_up')
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, TypedDict

from ..errors import BundleError, ConfigError, FindingsError
from ..sources import RuleSet, check_sources, load_rules

PUBLISH, INVESTIGATE, GIVE_UP = "publish", "investigate", "give_up"


class ValidationState(TypedDict, total=False):
    """The state keys the node reads and writes (extend it with your own)."""

    validated_claims: list[Any]
    non_validated_claims: list[Any]
    evidence: dict[str, Any]
    validity_score: float
    validity_explanations: list[dict[str, Any]]
    validity_warnings: list[dict[str, Any]]
    validation_attempts: int


class Node(Protocol):
    """A graph node: state -> partial state update."""

    def __call__(self, state: ValidationState) -> dict[str, Any]: ...


class Router(Protocol):
    """A routing function: state -> the name of the next node."""

    def __call__(self, state: ValidationState) -> str: ...


def _claims(state: ValidationState, key: str) -> list[Any]:
    value = state.get(key) or []
    if not isinstance(value, list | tuple):
        raise FindingsError(f"state[{key!r}] must be a list of claims")
    return list(value)


def make_validate_node(rules: RuleSet | str | Path | Mapping[str, Any] | None = None) -> Node:
    """A node using ``rules`` (a loaded table, a user rules file or mapping merged over the shipped one)."""
    table = rules if isinstance(rules, RuleSet) else load_rules(rules)

    def validate(state: ValidationState) -> dict[str, Any]:
        evidence = state.get("evidence") or {}
        if not isinstance(evidence, Mapping):
            raise BundleError("state['evidence'] must be a dict of evidence keys")
        report = check_sources(_claims(state, "validated_claims"), _claims(state, "non_validated_claims"), evidence, table)
        data = report.to_dict()
        return {
            "validated_claims": data["validated_claims"],
            "non_validated_claims": data["non_validated_claims"],
            "validity_score": report.validity_score,
            "validity_explanations": data["explanations"],
            "validity_warnings": data["warnings"],
            "validation_attempts": _attempts(state) + 1,
        }

    return validate


def make_router(threshold: float = 0.9, max_attempts: int = 3, give_up: str = GIVE_UP,
                publish: str = PUBLISH, investigate: str = INVESTIGATE) -> Router:
    """A router: ``publish`` at or above ``threshold``, else ``investigate``, else ``give_up`` after ``max_attempts``."""
    if not 0.0 <= threshold <= 1.0:
        raise ConfigError(f"threshold must be between 0 and 1, not {threshold}")
    if max_attempts < 1:
        raise ConfigError(f"max_attempts must be at least 1, not {max_attempts}")

    def route(state: ValidationState) -> str:
        score = state.get("validity_score")
        if isinstance(score, int | float) and not isinstance(score, bool) and score >= threshold:
            return publish
        return give_up if _attempts(state) >= max_attempts else investigate

    return route


def _attempts(state: ValidationState) -> int:
    value = state.get("validation_attempts")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


validate_node: Node = make_validate_node()
route: Router = make_router()

__all__ = ["GIVE_UP", "INVESTIGATE", "PUBLISH", "ValidationState", "make_router", "make_validate_node", "route", "validate_node"]
