"""Pipeline mode (SPEC §9): evidence-source rules, the validity score, the CLI, the graph node and router."""

from __future__ import annotations

import doctest
import json
import runpy
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import citeproof.integrations.langgraph_node as node_module
import citeproof.sources as sources
import citeproof.sources.evidence as evidence_module
from citeproof.errors import BundleError, ConfigError, FindingsError
from citeproof.integrations.langgraph_node import make_router, make_validate_node, route, validate_node
from citeproof.sources import (
    GENERIC_SOURCE,
    builtin_rules,
    calculate_validity_score,
    check_sources,
    extract_evidence_sources,
    load_rules,
    validate_and_categorize_claims,
    validate_claim,
)
from citeproof.sources.cli import sources_command
from citeproof.sources.evidence import has_data

from .conftest import ROOT, golden

EXAMPLE = ROOT / "examples" / "pipeline"
DATA_KEYS = builtin_rules().data_keys

LOGS = {"cloudwatch_logs": {"events": [{"message": "ERROR boom"}]}}
RDS = {"rds_metrics": {"Label": "CPUUtilization", "Datapoints": [{"Average": 97.0}]}}


def item(status: str | None, sources_: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"claim": "c"}
    if status is not None:
        out["validation_status"] = status
    if sources_ is not None:
        out["evidence_sources"] = sources_
    return out


REAL, GENERIC, FAILED = item("validated", ["rds_metrics"]), item("validated", [GENERIC_SOURCE]), item("failed_validation", [GENERIC_SOURCE])


# -- the score: the seed's weights, bonus, cap and rounding ----------------------------------------

@pytest.mark.parametrize(("validated", "non_validated", "score"), [
    ([], [], 0.0),
    ([REAL], [], 1.0),                      # 1.0 + 0.1 bonus, capped
    ([GENERIC], [], 0.8),                   # generic sentinel only: no bonus
    ([FAILED], [], 0.5),
    ([], ["x", "y"], 0.0),
    ([GENERIC], ["x"], 0.4),
    ([REAL], ["x"], 0.6),                   # 0.5 + 0.1
    ([REAL, GENERIC, FAILED], ["x", "y"], 0.56),   # 2.3 / 5 + 0.1
    ([REAL, GENERIC, GENERIC], [], 0.97),   # 0.8667 + 0.1, rounded
    ([REAL, REAL, REAL], [], 1.0),          # never above 1.0
    ([item("failed_validation", ["rds_metrics"])], ["x"], 0.35),  # seed: any item of the validated list earns the bonus
    ([item(None, ["rds_metrics"])], [], 0.6),        # no status is not a pass: 0.5 (+ bonus)
    ([item("validated")], [], 0.8),                  # no sources: generic
    (["a bare string"], [], 0.5),
])
def test_validity_score_weights(validated: list[Any], non_validated: list[Any], score: float) -> None:
    assert calculate_validity_score(validated, non_validated) == score


# -- validate_claim: the seed's keyword checks ----------------------------------------------------

@pytest.mark.parametrize(("claim", "evidence", "ok"), [
    ("The service failed", {}, False),
    ("The service failed", LOGS, True),
    ("The service failed", {"datadog_error_logs": [{"message": "x"}]}, True),      # any *_logs key
    ("Memory climbed to 95%", {"host_metrics": {"host": "web-1", "data": []}}, False),
    ("Memory climbed to 95%", {"host_metrics": {"host": "web-1", "data": [{"mem": 95}]}}, True),
    ("Memory climbed to 95%", RDS, True),
    ("Memory climbed to 95%", {"performance_insights": {"MetricList": [{"DataPoints": [{"Value": 1}]}]}}, True),
    ("CPU alerts fired", {"datadog_monitors": [{"id": 1, "overall_state": "Alert"}]}, False),
    ("The Datadog monitor fired on CPU", {"datadog_monitors": [{"id": 1, "overall_state": "Alert"}]}, True),
    ("Postgres replication lag grew", {}, False),
    ("Postgres replication lag grew", {"rds_events": {"Events": [{"Message": "lag"}]}}, True),
    ("The database failed over", RDS, False),   # names logs too ("failed"), and there are none
    ("The database failed over", {**RDS, **LOGS}, True),
    ("The lambda timed out", {"lambda_metrics": {"FunctionName": "f", "Duration": {"Datapoints": []}}}, False),
    ("The lambda timed out", {"lambda_metrics": {"FunctionName": "f", "Duration": {"Datapoints": [{"Maximum": 900}]}}}, True),
    ("A schema migration dropped a column", {"migration_history": [{"version": "42"}]}, True),
    ("The k8s pods restarted", {"k8s_events": {"items": []}}, False),
    ("Nothing any rule knows about", {}, True),   # passes, but unchecked (see the warnings and promotion tests)
])
def test_validate_claim(claim: str, evidence: dict[str, Any], ok: bool) -> None:
    assert validate_claim(claim, evidence) is ok


@pytest.mark.parametrize("rule", builtin_rules().rules, ids=lambda r: r.id)
def test_every_rule_has_a_passing_and_a_failing_case(rule: sources.SourceRule) -> None:
    word = rule.words.words[0]
    key = next(p for p in rule.evidence if "*" not in p)
    other = {"unrelated_key": [1]}
    assert validate_claim(f"It was the {word} again", {key: [{"value": 1}]}) is True
    assert validate_claim(f"It was the {word} again", {key: [], **other}) is False
    assert extract_evidence_sources(f"It was the {word} again", {key: [{"value": 1}], **other}) == [key]


@pytest.mark.parametrize(("claim", "fires"), [
    ("the disk filled up", True),
    ("the diskless workers were fine", False),
    ("RDS instance rds-prod-1 was slow", True),
    ("the DB_CONNECTIONS gauge", True),    # underscores separate words, like spaces and hyphens
    ("a dbt model ran", False),
    ("Storage ran out", True),
    ("the storages", False),
])
def test_database_words_match_whole_words(claim: str, fires: bool) -> None:
    check = sources.check_claim(claim, {})
    assert any(c.rule == "database" for c in check.checks) is fires


@pytest.mark.parametrize(("claim", "fires"), [
    ("see the logs", True), ("the catalog and logistics teams", False), ("errors everywhere", True),
    ("an errorless run", False), ("cloudwatch_logs show it", True), ("a stack trace", True), ("a stack-trace", True),
])
def test_log_words_match_whole_words(claim: str, fires: bool) -> None:
    assert any(c.rule == "logs" for c in sources.check_claim(claim, {}).checks) is fires


# -- extract_evidence_sources and the sentinel -----------------------------------------------------

def test_sources_are_the_accepted_present_keys_sorted() -> None:
    evidence = {**LOGS, **RDS, "rds_events": {"Events": []}, "lambda_metrics": {"Datapoints": [{"Sum": 1}]}}
    assert extract_evidence_sources("RDS errors", evidence) == ["cloudwatch_logs", "rds_metrics"]


def test_sentinel_when_nothing_real_matches() -> None:
    assert extract_evidence_sources("RDS was slow", {"rds_metrics": {"Datapoints": []}}) == [GENERIC_SOURCE]
    assert extract_evidence_sources("no rule here", {**LOGS, **RDS}) == [GENERIC_SOURCE]


def test_a_failing_claim_keeps_the_real_sources_it_has() -> None:
    assert extract_evidence_sources("RDS errors", LOGS) == ["cloudwatch_logs"]
    assert validate_claim("RDS errors", LOGS) is False


# -- validate_and_categorize_claims -----------------------------------------------------------------

def test_categorize_annotates_keeps_failures_and_promotes() -> None:
    validated_in = ["RDS CPU hit 97%", {"claim": "The lambda throttled", "evidence_sources": ["lambda_metrics"], "id": 7}]
    non_validated_in = [{"text": "Postgres was rebooted"}, "Something unknowable", "The S3 bucket was deleted"]
    validated, non_validated = validate_and_categorize_claims(validated_in, non_validated_in, RDS)
    assert validated == [
        {"claim": "RDS CPU hit 97%", "validation_status": "validated", "evidence_sources": ["rds_metrics"]},
        {"claim": "The lambda throttled", "id": 7, "validation_status": "failed_validation", "evidence_sources": [GENERIC_SOURCE]},
        {"text": "Postgres was rebooted", "validation_status": "validated", "evidence_sources": ["rds_metrics"]},
    ]
    # an unchecked claim is never promoted (unknown is never a pass); a failing one stays too
    assert non_validated == ["Something unknowable", "The S3 bucket was deleted"]
    assert validated_in[1] == {"claim": "The lambda throttled", "evidence_sources": ["lambda_metrics"], "id": 7}  # not mutated
    assert calculate_validity_score(validated, non_validated) == round((1.0 + 0.5 + 1.0) / 5 + 0.1, 2)


def test_unchecked_validated_claim_scores_generic() -> None:
    validated, _ = validate_and_categorize_claims(["The deploy went out at noon"], [], {**LOGS, **RDS})
    assert validated[0]["validation_status"] == "validated"
    assert validated[0]["evidence_sources"] == [GENERIC_SOURCE]
    assert calculate_validity_score(validated, []) == 0.8


def test_bad_claim_shape_is_a_findings_error() -> None:
    with pytest.raises(FindingsError, match=r"non_validated_claims\[0\]"):
        validate_and_categorize_claims([], [{"summary": "no claim key"}], {})


# -- what counts as data -------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "present"), [
    (None, False), (False, False), ("", False), ("  ", False), ([], False), ({}, False), ([None, ""], False),
    ("a line", True), (0, True), (3.5, True), (True, True), ([{"id": 1}], True),
    ({"host": "web-1", "data": []}, False), ({"host": "web-1", "data": [{"cpu": 1}]}, True),
    ({"status": "Complete", "results": []}, False), ({"status": "Complete", "results": [[{"field": "@message"}]]}, True),
    ({"MetricDataResults": [{"Id": "m1", "Timestamps": [], "Values": []}]}, False),
    ({"MetricDataResults": [{"Id": "m1", "Values": [1.0]}]}, True),
    ({"FunctionName": "f", "Throttles": {"Datapoints": []}}, False),
    ({"id": 1, "name": "monitor", "tags": []}, True),       # a record, not a series
    ({"series": [], "from_date": 1}, False),
])
def test_has_data(value: Any, present: bool) -> None:
    assert has_data(value, DATA_KEYS) is present


# -- warnings: unknown keys, categories without a rule, unchecked claims, masked placeholders ------

def codes(report: sources.SourcesReport) -> list[tuple[str, str]]:
    return [(w.code, w.location) for w in report.warnings]


def test_unknown_evidence_keys_are_warned_known_and_context_keys_are_not() -> None:
    evidence = {"incident_id": "INC-1", "apm_traces": [{"span": 1}], "nginx_logs": [], "empty_unknown": [], **RDS}
    report = check_sources(["RDS CPU"], [], evidence)
    assert codes(report) == [("unknown-evidence-key", "evidence.apm_traces"), ("unknown-evidence-key", "evidence.empty_unknown")]


def test_category_without_rule_is_warned_and_a_user_rule_covers_it(tmp_path: Path) -> None:
    report = check_sources([], ["Redis evictions spiked"], {"redis_metrics": [{"evicted_keys": 9}]})
    assert codes(report) == [("unknown-evidence-key", "evidence.redis_metrics"), ("no-rule-for-category", "non_validated_claims[0]"),
                             ("not-checked", "non_validated_claims[0]")]
    assert "'redis'" in report.warnings[1].message and "category 'cache'" in report.warnings[1].message
    assert report.non_validated_claims == ("Redis evictions spiked",)
    rules_file = tmp_path / "rules.json"
    rules_file.write_text(json.dumps({"rules": [{"id": "cache", "words": ["redis", "evict*"], "evidence": ["redis_*"]}]}))
    rules = load_rules(rules_file)
    report = check_sources([], ["Redis evictions spiked"], {"redis_metrics": [{"evicted_keys": 9}]}, rules)
    assert report.warnings == ()
    assert report.validated_claims[0]["evidence_sources"] == ["redis_metrics"]   # promoted
    assert report.validity_score == 1.0


def test_partly_unruled_claim_is_explained() -> None:
    report = check_sources(["The cache errors filled the logs"], [], LOGS)
    explanation = report.explanations[0]
    assert (explanation.weight, explanation.unchecked_categories) == (1.0, ("cache",))
    assert "not checked: cache (no rule)" in explanation.reason
    assert codes(report) == [("no-rule-for-category", "validated_claims[0]")]


@pytest.mark.parametrize("token", ["<IP_1>", "<EMAIL_2>", "<AWS_ACCOUNT_12>", "[REDACTED]", "[masked]", "***"])
def test_masked_placeholders_in_claims_and_evidence(token: str) -> None:
    evidence = {"cloudwatch_logs": {"events": [{"message": "ok"}, {"message": f"login from {token}"}, {"message": f"{token} again"}]}}
    report = check_sources([f"Errors for {token}"], [], evidence)
    assert codes(report) == [("masked-placeholder", "evidence.cloudwatch_logs"), ("masked-placeholder", "validated_claims[0]")]
    assert f"2 value(s) contain masked placeholders ({token}), first at cloudwatch_logs.events[1].message" in report.warnings[0].message
    assert token in report.warnings[1].message


@pytest.mark.parametrize("text", ["a **bold** word", "<html> tag", "<ip_1> lowercase", "[note]", "a*b"])
def test_no_placeholder_false_positives(text: str) -> None:
    assert evidence_module.placeholders_in(text, builtin_rules().placeholders) == ()


# -- explanations ------------------------------------------------------------------------------

def test_every_weight_is_explained() -> None:
    report = check_sources(["RDS CPU spiked", "Nothing a rule knows", "The lambda throttled"],
                           ["The failover happened", "Also unknowable", "Kubernetes pods crashed"],
                           {**RDS, "lambda_metrics": {"Datapoints": []}})
    got = [(e.location, e.status, e.promoted, e.weight, e.reason.split(":")[0]) for e in report.explanations]
    assert got == [
        ("validated_claims[0]", "validated", False, 1.0, "1.0"),
        ("validated_claims[1]", "validated", False, 0.8, "0.8"),
        ("validated_claims[2]", "failed_validation", False, 0.5, "0.5"),
        ("non_validated_claims[0]", "validated", True, 1.0, "1.0"),
        ("non_validated_claims[1]", "non_validated", False, 0.0, "0.0"),
        ("non_validated_claims[2]", "non_validated", False, 0.0, "0.0"),
    ]
    reasons = [e.reason for e in report.explanations]
    assert "database: rds_metrics" in reasons[0]
    assert "only the generic 'evidence_analysis' sentinel" in reasons[1]
    assert "lambda (named by lambda) needs data in one of lambda_metrics" in reasons[2] and "lambda_metrics present but empty" in reasons[2]
    assert reasons[3].startswith("1.0: promoted from non-validated")
    assert "no rule applies, nothing could be checked" in reasons[4]
    assert "k8s (named by kubernetes, pods) needs data" in reasons[5]
    data = report.to_dict()
    assert list(data) == ["validated_claims", "non_validated_claims", "validity_score", "score", "explanations", "warnings"]
    assert data["score"] == {"base": 0.55, "bonus": 0.1, "cap": 1.0, "reason": report.score_reason()}
    assert data["validity_score"] == 0.65
    assert data["explanations"][2]["checks"] == [{"rule": "lambda", "words": ["lambda"], "accepts": list(builtin_rules().rules[3].evidence),
                                                  "found": [], "empty": ["lambda_metrics"], "passed": False}]


def test_no_claims() -> None:
    report = check_sources([], [], {})
    assert (report.validity_score, report.score_reason()) == (0.0, "no claims: 0.0")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=80), max_size=4), st.lists(st.text(max_size=80), max_size=4),
       st.dictionaries(st.sampled_from(["cloudwatch_logs", "rds_metrics", "x"]), st.lists(st.text(max_size=5), max_size=2)))
def test_any_text_gives_a_bounded_deterministic_score(validated: list[str], non_validated: list[str], evidence: dict[str, Any]) -> None:
    first = check_sources(validated, non_validated, evidence).to_dict()
    assert 0.0 <= first["validity_score"] <= 1.0
    assert len(first["validated_claims"]) + len(first["non_validated_claims"]) == len(validated) + len(non_validated)
    assert first == check_sources(validated, non_validated, evidence).to_dict()


# -- rules files --------------------------------------------------------------------------------

def test_user_rule_replaces_a_shipped_rule_by_id() -> None:
    rules = load_rules({"rules": [{"id": "lambda", "words": ["lambda"], "evidence": ["xray_traces"]}]})
    assert len(rules.rules) == len(builtin_rules().rules)
    assert validate_claim("the lambda", {"xray_traces": [1]}, rules) is True
    assert validate_claim("the lambda", {"lambda_metrics": [1]}, rules) is False


@pytest.mark.parametrize(("content", "message"), [
    ("[1, 2]", "a rules file must be a JSON object"),
    ('{"rules": {"id": "x"}}', "'rules' must be a list"),
    ('{"rules": [{"words": ["a"], "evidence": ["b"]}]}', r"rules\[0\] must be an object with a non-empty 'id'"),
    ('{"rules": [{"id": "x", "words": [], "evidence": ["b"]}]}', r"rules\[0\] \(x\): 'words' must be a non-empty list"),
    ('{"rules": [{"id": "x", "words": ["a"], "evidence": ["b"], "also": [{"words": ["c"]}]}]}', r"also\[0\].evidence"),
    ('{"placeholders": [{"id": "p", "pattern": "("}]}', r"placeholders\[0\] \(p\): bad pattern"),
    ('{"rules": [', r"not valid JSON \(line 1 column 12: Expecting value"),
])
def test_bad_rules_file_is_a_config_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "rules.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message) as info:
        load_rules(path)
    assert info.value.path == str(path)


# -- the command --------------------------------------------------------------------------------

def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(sources_command, list(args))
    return result.exit_code, result.stdout, result.stderr




@pytest.mark.parametrize("fmt", ["json", "text"])
def test_cli_example_is_golden(fmt: str) -> None:
    code, out, err = invoke("--claims", str(EXAMPLE / "claims.json"), "--evidence", str(EXAMPLE / "evidence.json"), "--format", fmt)
    assert (code, err) == (0, "")
    golden(f"sources.{fmt}", out)
    if fmt == "json":
        data = json.loads(out)
        assert data["validity_score"] == 0.89
        assert [w["code"] for w in data["warnings"]].count("masked-placeholder") == 4


def test_cli_defaults_to_json_and_accepts_a_bare_list(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text('["RDS CPU was high"]')
    (tmp_path / "e.json").write_text(json.dumps(RDS))
    code, out, err = invoke("--claims", str(tmp_path / "c.json"), "--evidence", str(tmp_path / "e.json"))
    assert (code, err, json.loads(out)["validity_score"]) == (0, "", 1.0)


def test_cli_rules_option(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text('{"non_validated_claims": ["Redis was evicting"]}')
    (tmp_path / "e.json").write_text('{"redis_metrics": [{"evicted": 1}]}')
    (tmp_path / "r.json").write_text('{"rules": [{"id": "cache", "words": ["redis"], "evidence": ["redis_metrics"]}]}')
    base = ["--claims", str(tmp_path / "c.json"), "--evidence", str(tmp_path / "e.json")]
    assert json.loads(invoke(*base)[1])["validity_score"] == 0.0
    assert json.loads(invoke(*base, "--rules", str(tmp_path / "r.json"))[1])["validity_score"] == 1.0


@pytest.mark.parametrize(("which", "content", "message"), [
    ("claims", None, "cannot read (No such file or directory)"),
    ("claims", "{not json", "not valid JSON (line 1 column 2"),
    ("claims", '{"claims": []}', "expected a list of claims or an object with 'validated_claims'"),
    ("claims", '{"validated_claims": "x"}', "'validated_claims' must be a list"),
    ("claims", '{"validated_claims": [42]}', "validated_claims[0] must be a string or an object with a 'claim' or 'text' string"),
    ("evidence", "[]", "expected a JSON object of evidence keys"),
    ("evidence", "\xff", "not valid JSON"),
    ("rules", '{"rules": 1}', "'rules' must be a list"),
])
def test_cli_unusable_input_exits_2_with_one_line(tmp_path: Path, which: str, content: str | None, message: str) -> None:
    files = {"claims": tmp_path / "c.json", "evidence": tmp_path / "e.json", "rules": tmp_path / "r.json"}
    files["claims"].write_text('["x"]')
    files["evidence"].write_text("{}")
    files["rules"].write_text("{}")
    if content is None:
        files[which].unlink()
    else:
        files[which].write_text(content, encoding="utf-8")
    code, out, err = invoke("--claims", str(files["claims"]), "--evidence", str(files["evidence"]), "--rules", str(files["rules"]))
    assert (code, out) == (2, "")
    assert err == f"citeproof: error: {files[which]}: {message}" + err.split(message, 1)[1]
    assert err.count("\n") == 1


def test_registered_in_the_main_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from citeproof.cli import cli, main

    if "sources" not in cli.commands:
        pytest.skip("sources_command is not registered in citeproof/cli.py yet")
    args = ["sources", "--claims", str(EXAMPLE / "claims.json"), "--evidence"]
    assert main([*args, str(EXAMPLE / "evidence.json")]) == 0
    assert json.loads(capsys.readouterr().out)["validity_score"] == 0.89
    assert main([*args, str(EXAMPLE / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith(f"citeproof: error: {EXAMPLE / 'missing.json'}: cannot read")


# -- the graph node and router ----------------------------------------------------------------------

def test_node_returns_a_partial_update() -> None:
    state: Any = {"validated_claims": ["RDS CPU spiked"], "non_validated_claims": ["The failover happened"], "evidence": RDS,
                  "validation_attempts": 2, "other": "kept by the graph, not returned"}
    update = validate_node(state)
    assert sorted(update) == ["non_validated_claims", "validated_claims", "validation_attempts", "validity_explanations",
                              "validity_score", "validity_warnings"]
    assert (update["validity_score"], update["validation_attempts"], update["non_validated_claims"]) == (1.0, 3, [])
    assert [c["validation_status"] for c in update["validated_claims"]] == ["validated", "validated"]


def test_node_with_user_rules_and_bad_state() -> None:
    node = make_validate_node({"rules": [{"id": "cache", "words": ["redis"], "evidence": ["redis_metrics"]}]})
    state: Any = {"validated_claims": ["redis was slow"], "evidence": {"redis_metrics": [1]}}
    assert node(state)["validity_warnings"] == []
    with pytest.raises(BundleError, match="must be a dict"):
        validate_node({"evidence": ["not", "a", "dict"]})  # type: ignore[typeddict-item]
    with pytest.raises(FindingsError, match="must be a list"):
        validate_node({"validated_claims": "one claim"})  # type: ignore[typeddict-item]


@pytest.mark.parametrize(("state", "expected"), [
    ({"validity_score": 0.95, "validation_attempts": 1}, "publish"),
    ({"validity_score": 0.9, "validation_attempts": 5}, "publish"),
    ({"validity_score": 0.89, "validation_attempts": 1}, "investigate"),
    ({"validity_score": 0.89, "validation_attempts": 3}, "give_up"),
    ({}, "investigate"),                                   # no score yet: never a pass
    ({"validity_score": "1.0", "validation_attempts": 1}, "investigate"),
    ({"validity_score": True, "validation_attempts": 1}, "investigate"),
])
def test_router(state: Any, expected: str) -> None:
    assert route(state) == expected


def test_router_options() -> None:
    router = make_router(threshold=0.5, max_attempts=1, give_up="__end__", publish="report", investigate="dig")
    got = [router({"validity_score": s, "validation_attempts": n}) for s, n in [(0.5, 1), (0.4, 0), (0.4, 1)]]
    assert got == ["report", "dig", "__end__"]
    with pytest.raises(ConfigError):
        make_router(threshold=1.5)
    with pytest.raises(ConfigError):
        make_router(max_attempts=0)




def _has_langgraph() -> bool:
    try:
        import langgraph.graph  # noqa: F401
    except ImportError:
        return False
    return True


HAS_LANGGRAPH = _has_langgraph()
NEEDS_LANGGRAPH = pytest.mark.skipif(not HAS_LANGGRAPH, reason="langgraph is not installed (pip install langgraph)")


@NEEDS_LANGGRAPH
@pytest.mark.parametrize(("arrives", "expected"), [(True, ("published", 2)), (False, ("gave up", 3))])
def test_real_state_graph(arrives: bool, expected: tuple[str, int]) -> None:
    from langgraph.graph import END, START, StateGraph

    class State(node_module.ValidationState, total=False):
        outcome: str

    def investigate(state: State) -> dict[str, Any]:
        if not state.get("validated_claims"):
            return {"validated_claims": ["RDS CPU spiked", "The lambda throttled"], "evidence": dict(RDS)}
        extra = {"lambda_metrics": {"Throttles": {"Datapoints": [{"Sum": 3.0}] if arrives else []}}}
        return {"evidence": {**state["evidence"], **extra}}

    graph = StateGraph(State)
    graph.add_node("investigate", investigate)
    graph.add_node("validate", validate_node)
    graph.add_node("publish", lambda state: {"outcome": "published"})
    graph.add_node("give_up", lambda state: {"outcome": "gave up"})
    graph.add_edge(START, "investigate")
    graph.add_edge("investigate", "validate")
    graph.add_conditional_edges("validate", make_router(threshold=0.9, max_attempts=3), ["publish", "investigate", "give_up"])
    graph.add_edge("publish", END)
    graph.add_edge("give_up", END)
    final = graph.compile().invoke({})
    assert (final["outcome"], final["validation_attempts"]) == expected
    assert final["validity_score"] == (1.0 if arrives else 0.85)


@pytest.mark.parametrize("with_langgraph", [False, pytest.param(True, marks=NEEDS_LANGGRAPH)])
def test_example_script(with_langgraph: bool) -> None:
    namespace = runpy.run_path(str(EXAMPLE / "langgraph_example.py"))
    final = namespace["run_with_langgraph" if with_langgraph else "run_without_langgraph"]()
    assert (final["published"], final["validation_attempts"]) == ("published with validity score 0.95", 2)


# -- the documentation is executable -------------------------------------------------------------

@pytest.mark.parametrize("module", [sources, evidence_module, node_module], ids=lambda m: m.__name__)
def test_docstring_examples(module: Any) -> None:
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted and not failed
