"""Pipeline mode in a LangGraph graph: investigate -> validate -> publish, or investigate again.

    pip install langgraph        # optional: without it the same nodes run in a plain loop
    python examples/pipeline/langgraph_example.py

The first investigation loads claims.json and evidence.json (score 0.89: the Lambda claim has no
throttle datapoints). The second fetches the Lambda Throttles metric, the claim passes, and the
score reaches the 0.9 threshold, so the graph publishes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from citeproof.integrations.langgraph_node import GIVE_UP, ValidationState, make_router, validate_node

HERE = Path(__file__).resolve().parent
THROTTLES = [{"Timestamp": "2026-03-14T14:03:00Z", "Sum": 1843.0, "Unit": "Count"}]


class State(ValidationState, total=False):
    published: str


def investigate(state: State) -> dict[str, Any]:
    """Stand-in for the agent: load the findings, then fetch the metric the validator said was empty."""
    if not state.get("evidence"):
        claims = json.loads((HERE / "claims.json").read_text(encoding="utf-8"))
        evidence = json.loads((HERE / "evidence.json").read_text(encoding="utf-8"))
        return {"validated_claims": claims["validated_claims"], "non_validated_claims": claims["non_validated_claims"],
                "evidence": evidence}
    evidence = dict(state["evidence"])
    evidence["lambda_metrics"] = {"FunctionName": "order-ingest", "Throttles": {"Label": "Throttles", "Datapoints": THROTTLES}}
    return {"evidence": evidence}


def publish(state: State) -> dict[str, Any]:
    return {"published": f"published with validity score {state['validity_score']:.2f}"}


def give_up(state: State) -> dict[str, Any]:
    return {"published": f"not published: validity score {state.get('validity_score', 0.0):.2f} after "
                         f"{state.get('validation_attempts', 0)} attempts"}


route = make_router(threshold=0.9, max_attempts=3)


def run_with_langgraph() -> dict[str, Any]:
    from langgraph.graph import END, START, StateGraph

    graph = StateGraph(State)
    graph.add_node("investigate", investigate)
    graph.add_node("validate", validate_node)
    graph.add_node("publish", publish)
    graph.add_node(GIVE_UP, give_up)
    graph.add_edge(START, "investigate")
    graph.add_edge("investigate", "validate")
    graph.add_conditional_edges("validate", route, ["publish", "investigate", GIVE_UP])
    graph.add_edge("publish", END)
    graph.add_edge(GIVE_UP, END)
    return dict(graph.compile().invoke({}))


def run_without_langgraph() -> dict[str, Any]:
    state: dict[str, Any] = {}
    view = cast(State, state)  # the same dict, typed for the nodes
    step = "investigate"
    while step == "investigate":
        state.update(investigate(view))
        state.update(validate_node(view))
        step = route(view)
    state.update((publish if step == "publish" else give_up)(view))
    return state


def main() -> dict[str, Any]:
    try:
        import langgraph  # noqa: F401
    except ImportError:
        return run_without_langgraph()
    return run_with_langgraph()


if __name__ == "__main__":
    final = main()
    print(final["published"], f"({final['validation_attempts']} validation passes)")
    for warning in final["validity_warnings"]:
        print(f"warning: {warning['code']} {warning['location']}: {warning['message']}")
