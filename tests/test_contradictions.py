"""The four contradiction rules of SPEC §6 on the seed document's examples, each with a near miss."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof.contradictions import REGISTRY

LOG = "\n".join(
    [
        "2026-01-15 10:29:58.101 INFO  [poller] polling https://api.vendor.example/v2/feed",
        "2026-01-15 10:30:12.282 WARN  [poller] HTTP 429 Too Many Requests (Retry-After: 30)",
        "2026-01-15 10:30:42.004 ERROR [poller] Error message: upstream returned an invalid payload",
        "2026-01-15 10:30:45.456 ERROR [poller] Read timed out after 30000 ms (java.net.SocketTimeoutException)",
        "2026-01-15 10:31:52.418 WARN  [poller] HTTP 429 Too Many Requests (Retry-After: 30)",
        "2026-01-15 10:40:00.000 INFO  [deploy] deploy started for poller 2.4.1",
        "2026-01-15 10:45:10.000 INFO  [deploy] service restart completed",
    ]
) + "\n"


def _har() -> str:
    def entry(n: int, status: int, text: str) -> dict[str, Any]:
        return {
            "startedDateTime": f"2026-01-15T10:30:{10 + n:02d}.000Z", "time": 120,
            "request": {"method": "GET", "url": f"https://api.vendor.example/v2/feed?page={n}", "headers": []},
            "response": {"status": status, "statusText": text, "headers": [], "content": {"size": 0, "mimeType": "application/json"}},
        }

    entries = [entry(1, 200, "OK"), entry(2, 429, "Too Many Requests"), entry(3, 429, "Too Many Requests")]
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": entries}})


@pytest.fixture
def bundle(make_bundle: Any) -> Path:
    return make_bundle(  # type: ignore[no-any-return]
        {
            "app.log": LOG,
            "capture.har": _har(),
            "env.log": "product: XSOAR\nversion: 8.9.0-2464525\nhostname: xsoar-prod-01\n",
            "config.yaml": "integration:\n  polling_rate: 150\n  timeout_ms: 30000\nvendor_api:\n  rate_limit_per_minute: 100\n",
        }
    )


def run(text: str, bundle: Path) -> citeproof.Report:
    return citeproof.validate(text, bundle)


def rules(report: citeproof.Report) -> list[str]:
    return [f.rule for f in report.contradiction_findings]


def test_every_rule_is_registered_and_documented() -> None:
    assert list(REGISTRY) == ["temporal", "causal", "factual", "evidence"]
    for rule in REGISTRY.values():
        doc = __import__(rule.check.__module__, fromlist=["_"]).__doc__ or ""
        assert "Passing" in doc and "Failing" in doc, rule.id


# -- temporal --------------------------------------------------------------------------------------
def test_temporal_seed_example_error_came_first(bundle: Path) -> None:
    report = run(
        "- The timeout at 10:30:45Z was the first failure (app.log:4).\n"
        "- An error message appeared at 10:30:42Z (app.log:3).\n",
        bundle,
    )
    temporal = [f for f in report.contradiction_findings if f.rule == "temporal"]
    assert len(temporal) == 1
    assert temporal[0].claims == ["c1", "c2"]
    assert "3 s earlier" in temporal[0].detail
    assert "came first, then" in temporal[0].resolution and "3 s later" in temporal[0].resolution
    assert report.status.value == "BLOCKED"


def test_temporal_near_miss_two_events_at_different_times(bundle: Path) -> None:
    report = run(
        "- The first HTTP 429 arrived at 10:30:12 (app.log:2).\n"
        "- The last HTTP 429 arrived at 10:31:52 (app.log:5).\n"
        "- An error message appeared at 10:30:42Z (app.log:3).\n"
        "- The read timed out at 10:30:45Z (app.log:4).\n",
        bundle,
    )
    assert rules(report) == []
    assert report.status.value == "PASSED"


def test_temporal_same_event_at_two_times(bundle: Path) -> None:
    report = run(
        "- The deploy started at 10:40:00 UTC (app.log:6).\n"
        "- The deploy began at 10:44:00 UTC.\n",
        bundle,
    )
    assert "temporal" in rules(report)
    near = run("- The deploy started at 10:40:00 UTC (app.log:6).\n- The restart completed at 10:45:10 UTC (app.log:7).\n", bundle)
    assert rules(near) == []


def test_temporal_order_words_within_a_claim(bundle: Path) -> None:
    report = run("- The timeout at 10:30:45 happened before the error at 10:30:42 (app.log:3-4).\n", bundle)
    assert "temporal" in rules(report)
    fine = run("- The error at 10:30:42 happened before the timeout at 10:30:45 (app.log:3-4).\n", bundle)
    assert rules(fine) == []


# -- causal ----------------------------------------------------------------------------------------
def test_causal_seed_example_rate_below_limit(bundle: Path) -> None:
    report = run(
        "- The vendor answered HTTP 429 because of rate limiting (capture.har:entry-2).\n"
        "- The integration sent 50 requests/minute (config:integration.polling_rate).\n"
        "- The vendor API limit is 100 requests per minute (config:vendor_api.rate_limit_per_minute).\n",
        bundle,
    )
    causal = [f for f in report.contradiction_findings if f.rule == "causal"]
    assert len(causal) == 1
    assert set(causal[0].claims) == {"c1", "c2", "c3"}
    assert "50 requests/minute" in causal[0].detail and "100 requests/minute" in causal[0].detail
    assert "higher than stated" in causal[0].resolution


def test_causal_near_miss_rate_above_limit(bundle: Path) -> None:
    report = run(
        "- The vendor answered HTTP 429 because of rate limiting (capture.har:entry-2).\n"
        "- The integration sent 150 requests/minute (config:integration.polling_rate).\n"
        "- The vendor API limit is 100 requests per minute (config:vendor_api.rate_limit_per_minute).\n",
        bundle,
    )
    assert rules(report) == []
    assert report.status.value == "PASSED"


def test_causal_limit_from_config_when_no_claim_states_it(bundle: Path) -> None:
    report = run(
        "- The vendor answered HTTP 429 Too Many Requests (capture.har:entry-2).\n"
        "- The poller was sending about 60 requests/minute (app.log:1).\n",
        bundle,
    )
    causal = [f for f in report.contradiction_findings if f.rule == "causal"]
    assert causal and causal[0].evidence == "config.yaml#vendor_api.rate_limit_per_minute = 100"


def test_causal_timeout_shorter_than_configured(bundle: Path) -> None:
    report = run("- The request timed out after 10 seconds (app.log:4).\n", bundle)
    assert "causal" in rules(report)
    fine = run("- The request timed out after 30000 ms (app.log:4).\n", bundle)
    assert "causal" not in rules(fine)


def test_causal_cause_absent_from_the_bundle(bundle: Path) -> None:
    report = run("- The poller failed due to an OutOfMemoryError (app.log:3).\n", bundle)
    causal = [f for f in report.contradiction_findings if f.rule == "causal"]
    assert causal and "OutOfMemoryError" in causal[0].detail
    fine = run("- The poller failed due to a java.net.SocketTimeoutException (app.log:4).\n", bundle)
    assert "causal" not in rules(fine)


# -- factual ---------------------------------------------------------------------------------------
def test_factual_seed_example_two_versions_resolved_from_env(bundle: Path) -> None:
    report = run(
        "- XSOAR version is 8.9.0 (env:version).\n"
        "- XSOAR version is 8.8.0 according to the support portal.\n",
        bundle,
    )
    factual = [f for f in report.contradiction_findings if f.rule == "factual"]
    assert len(factual) == 1
    assert factual[0].claims == ["c1", "c2"]
    assert "env.log#version says 8.9.0-2464525" in factual[0].resolution and "c2 is wrong" in factual[0].resolution
    statuses = {c.id: c.status.value for c in report.claims}
    assert statuses == {"c1": "verified", "c2": "contradicted"}


def test_factual_near_miss_versions_of_two_products(bundle: Path) -> None:
    report = run(
        "- XSOAR version is 8.9.0 (env:version).\n"
        "- The Python version is 3.11.4 on the engine.\n",
        bundle,
    )
    assert "factual" not in rules(report)


def test_factual_near_miss_earlier_and_later_state(bundle: Path) -> None:
    report = run(
        "- XSOAR version is 8.9.0 (env:version).\n"
        "- The server was upgraded from version 8.8.0 the week before.\n",
        bundle,
    )
    assert "factual" not in rules(report)


def test_factual_unresolved_names_both_claims(bundle: Path) -> None:
    report = run("- The Acme API limit is 100 requests/minute.\n- The Acme API limit is 60 requests/minute.\n", bundle)
    factual = [f for f in report.contradiction_findings if f.rule == "factual"]
    assert factual and factual[0].claims == ["c1", "c2"] and "correct c1 or c2" in factual[0].resolution


# -- evidence --------------------------------------------------------------------------------------
def test_evidence_seed_example_negative_claim_refuted(bundle: Path) -> None:
    report = run("- No HTTP 429 errors were found (capture.har:entries-1-3).\n", bundle)
    assert rules(report) == ["evidence"]
    assert report.claims[0].status.value == "contradicted"
    assert "HTTP 429" in report.contradiction_findings[0].detail
    assert report.contradictions == 1 and report.contradictions_details[0].endswith("(evidence)")


def test_evidence_entry_status_and_count(bundle: Path) -> None:
    report = run(
        "- Entry 1 of capture.har returned HTTP 429.\n"
        "- Three requests returned 429 (capture.har:entries-1-3).\n",
        bundle,
    )
    assert [c.status.value for c in report.claims] == ["contradicted", "contradicted"]


def test_evidence_near_miss_uncited_negative_claim(bundle: Path) -> None:
    report = run("- No disk errors occurred during the incident.\n", bundle)
    assert rules(report) == []
    assert report.claims[0].status.value == "uncited"


def test_evidence_near_miss_negative_claim_that_holds(bundle: Path) -> None:
    report = run("- No HTTP 5xx responses appear in capture.har:entries-1-3.\n", bundle)
    assert rules(report) == []
    assert report.claims[0].status.value == "verified"


def test_temporal_claim_against_its_own_evidence_reads_the_time_verdict(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text("2026-03-02T14:02:11Z ERROR upstream connect error host=10.0.4.22\n", encoding="utf-8")
    findings = "- At 14:12:11 UTC the upstream connection to 10.0.4.22 failed (app.log:1).\n"
    report = citeproof.validate(findings, tmp_path, use_cache=False)
    found = [f for f in report.contradiction_findings if f.rule == "temporal"]
    assert [f.claims for f in found] == [["c1"]]
    assert "14:12:11 UTC" in found[0].detail and "14:02:11" in found[0].detail
    right = citeproof.validate(findings.replace("14:12:11", "14:02:11"), tmp_path, use_cache=False)
    assert not right.contradiction_findings and right.claims[0].status.value == "verified"
