"""Contradictions between two claims (issue 14): beginnings of events, opposite orders, bounds that were not
reached, more attempts than a policy allows, and one named thing with two values — each with its near miss."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof.contradictions import causal, factual, readings, temporal

LOG = "\n".join(
    [
        "2026-03-03T03:02:10.467Z deploy payments-api image=payments-api:2.14.0 by ci-deployer",
        "2026-03-03T03:14:07.120Z worker-a1 kernel: Memory cgroup out of memory: Killed process 24811 (java)",
        "2026-03-03T03:16:40.002Z worker-a1 kernel: Memory cgroup out of memory: Killed process 25102 (java)",
        "2026-03-03T03:20:48.881Z worker-b2 kernel: Memory cgroup out of memory: Killed process 9931 (java)",
        "2026-03-03T03:21:00.000Z db-2 mysqld: Plugin group_replication: db-2 (10.20.1.12) elected primary",
        "2026-03-03T03:25:00.000Z orders-service: giving up on order ORD-1 after 3 attempts",
        "2026-03-03T03:26:00.000Z orders-service: Max_used_connections=143 max_connections=200",
    ]
) + "\n"


@pytest.fixture
def bundle(make_bundle: Any) -> Path:
    return make_bundle({"app.log": LOG, "app.yaml": "orders:\n  retry:\n    maxAttempts: 3\n"})  # type: ignore[no-any-return]


def pairs(text: str, bundle: Path) -> list[tuple[str, list[str]]]:
    report = citeproof.validate(text, bundle)
    return [(f.rule, sorted(set(f.claims))) for f in report.contradiction_findings if len(set(f.claims)) >= 2]


# -- beginnings --------------------------------------------------------------------------------------
def test_a_beginning_after_an_occurrence_of_the_event(bundle: Path) -> None:
    found = pairs("- OOM kills only started at 03:20:48 UTC (app.log:4).\n"
                  "- 03:16:40 UTC: a second replica was OOMKilled on worker-a1 (app.log:3).\n", bundle)
    assert found == [("temporal", ["c1", "c2"])]


def test_two_beginnings_of_one_event(bundle: Path) -> None:
    found = pairs("- The first OOM kill was at 03:14:07 UTC (app.log:2).\n"
                  "- OOM kills began at 03:20:48 UTC (app.log:4).\n", bundle)
    assert found == [("temporal", ["c1", "c2"])]


def test_a_beginning_in_another_zone_is_the_same_instant(bundle: Path) -> None:
    near = pairs("- The first OOM kill was at 03:14:07 UTC (app.log:2).\n"
                 "- In Bangkok the OOM kills began at 10:14:07 ICT (app.log:2).\n", bundle)
    assert near == []


def test_occurrences_after_the_beginning_and_on_other_hosts_are_no_contradiction(bundle: Path) -> None:
    near = pairs("- The first OOM kill was at 03:14:07 UTC (app.log:2).\n"
                 "- A second replica was OOMKilled at 03:16:40 UTC (app.log:3).\n"
                 "- The first OOM kill on worker-b2 was at 03:20:48 UTC (app.log:4).\n", bundle)
    assert near == []


# -- orders ------------------------------------------------------------------------------------------
def test_two_claims_in_opposite_orders(bundle: Path) -> None:
    found = pairs("- I bounced orders-service after the failover had completed (app.log:6).\n"
                  "- The orders-service pods were restarted before the failover (app.log:6).\n", bundle)
    assert ("temporal", ["c1", "c2"]) in found


def test_the_same_order_said_both_ways_is_no_contradiction(bundle: Path) -> None:
    near = pairs("- The orders-service restart came after the failover (app.log:6).\n"
                 "- The failover happened before the orders-service restart (app.log:6).\n", bundle)
    assert near == []


# -- bounds ------------------------------------------------------------------------------------------
def test_a_bound_the_measurement_never_reached(bundle: Path) -> None:
    found = pairs("- Connections to db-2 were rejected because it exceeded max_connections=200 (app.log:7).\n"
                  "- Max_used_connections on db-2 peaked at 143 (app.log:7).\n", bundle)
    assert found == [("causal", ["c1", "c2"])]


def test_a_bound_that_was_reached_is_no_contradiction(bundle: Path) -> None:
    near = pairs("- Connections to db-2 were rejected because it exceeded max_connections=200 (app.log:7).\n"
                 "- Max_used_connections on db-2 peaked at 201 (app.log:7).\n", bundle)
    assert near == []


def test_a_limit_beside_a_smaller_measurement_without_a_cause_is_no_contradiction(bundle: Path) -> None:
    near = pairs("- db-2 allows max_connections=200 (app.log:7).\n"
                 "- Max_used_connections on db-2 peaked at 143 (app.log:7).\n", bundle)
    assert near == []


def test_more_attempts_than_the_policy_allows(bundle: Path) -> None:
    found = pairs("- orders-service gave up on each failed order after 5 retries (app.log:6).\n"
                  "- The orders retry policy allows at most 3 attempts (config:app.yaml#orders.retry.maxAttempts).\n", bundle)
    assert ("causal", ["c1", "c2"]) in found
    near = pairs("- orders-service gave up on each failed order after 3 attempts (app.log:6).\n"
                 "- The orders retry policy allows at most 3 attempts (config:app.yaml#orders.retry.maxAttempts).\n", bundle)
    assert near == []


# -- one named thing, two values ---------------------------------------------------------------------
def test_one_host_with_two_addresses(bundle: Path) -> None:
    found = pairs("- db-2 (10.20.1.12) was elected primary (app.log:5).\n"
                  "- orders-db-primary now resolves to db-2 at 10.20.1.13 (app.log:5).\n", bundle)
    assert found == [("factual", ["c1", "c2"])]
    near = pairs("- db-2 (10.20.1.12) was elected primary (app.log:5).\n"
                 "- db-3 at 10.20.1.13 stayed a secondary (app.log:5).\n", bundle)
    assert near == []


def test_two_counts_of_the_same_thing(bundle: Path) -> None:
    found = pairs("- In total 37 clients were dropped with query_wait_timeout (app.log:6).\n"
                  "- In total 41 clients were dropped with query_wait_timeout (app.log:6).\n", bundle)
    assert found == [("factual", ["c1", "c2"])]
    near = pairs("- 3 of the 5 replicas were OOMKilled (app.log:2-4).\n- The Deployment runs 5 replicas (app.log:1).\n", bundle)
    assert near == []


def test_exit_codes_of_one_container_and_of_a_clean_sidecar(bundle: Path) -> None:
    found = pairs("- The container exited with code 137 (app.log:2).\n"
                  "- The flag made the container exit with code 143 on each restart (app.log:2).\n", bundle)
    assert found == [("factual", ["c1", "c2"])]
    near = pairs("- The container exited with code 137 (app.log:2).\n"
                 "- The log-shipper sidecar exited with code 0 when the pod was torn down (app.log:2).\n", bundle)
    assert near == []


# -- the docstrings' examples ------------------------------------------------------------------------
_EXAMPLE = re.compile(r'(Passing|Failing)[^:]*:\s*(.+?)(?=\n\s*(?:Passing|Failing)|\n\s*"""|\Z)', re.S)


@pytest.mark.parametrize("check", [temporal._starts_across, temporal._orders_across, causal._bounds_passed,
                                   causal._more_than_allowed, factual._bindings], ids=lambda f: f.__name__)
def test_each_pair_check_documents_a_passing_and_a_failing_example(check: Any, bundle: Path) -> None:
    doc = check.__doc__ or ""
    examples = dict((kind, body) for kind, body in _EXAMPLE.findall(doc))
    assert set(examples) == {"Passing", "Failing"}, check.__name__
    for kind, body in examples.items():
        quoted = re.findall(r'"([^"]+)"', body)
        assert len(quoted) >= 2, (check.__name__, body)
        text = "".join(f"- {q.rstrip('.')} (app.log:1).\n" for q in quoted[:2])
        found = [f for f in citeproof.validate(text, bundle).contradiction_findings if len(set(f.claims)) >= 2]
        assert bool(found) == (kind == "Failing"), (check.__name__, kind, text, found)


def test_readings_docstring_examples() -> None:
    import doctest

    assert doctest.testmod(readings).failed == 0
