"""Each support check's documented examples, run: the passing one verifies the claim, the failing one is
decided by that check with the outcome it names."""

from __future__ import annotations

import datetime as dt
import importlib
import re
from pathlib import Path

import pytest

import citeproof
from citeproof.support import REGISTRY
from citeproof.support.checks import Outcome

NOW = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
_BLOCK = re.compile(r"^(Passing|Failing)::\n\n((?:    .*\n)+)", re.M)


def examples() -> list[tuple[str, str, str, dict[str, list[str]], str]]:
    out = []
    for check_id, check in REGISTRY.items():
        doc = importlib.import_module(check.run.__module__).__doc__ or ""
        blocks = _BLOCK.findall(doc)
        assert {b[0] for b in blocks} == {"Passing", "Failing"}, f"{check_id}: its docstring needs a Passing:: and a Failing:: block"
        for kind, body in blocks:
            files: dict[str, list[str]] = {}
            claim = verdict = ""
            for line in body.splitlines():
                line = line[4:]
                if line.startswith("evidence "):
                    name, _, text = line[len("evidence "):].partition(": ")
                    files.setdefault(name, []).append(text)
                elif line.startswith("claim: "):
                    claim = line[len("claim: "):]
                elif line.startswith("verdict: "):
                    verdict = line[len("verdict: "):]
            assert files and claim and verdict, f"{check_id} {kind}: needs evidence, claim and verdict lines"
            out.append((check_id, kind, claim, files, verdict))
    return out


@pytest.mark.parametrize(("check_id", "kind", "claim", "files", "verdict"), examples(),
                         ids=[f"{e[0]}-{e[1]}" for e in examples()])
def test_documented_example(tmp_path: Path, check_id: str, kind: str, claim: str, files: dict[str, list[str]],
                            verdict: str) -> None:
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = citeproof.validate(f"- {claim}\n", tmp_path, now=NOW, use_cache=False)
    assert len(report.claims) == 1, [c.claim for c in report.claims]
    result = report.claims[0]
    mine = [v for v in result.checks if v.check == check_id]
    assert mine, f"{check_id} gave no verdict on {claim!r}: {result.status.value} {result.reason}"
    assert mine[0].outcome == verdict, (mine[0], result.reason)
    if kind == "Passing":
        assert result.status.value == "verified", result.reason
    else:
        assert mine[0].decides, f"{check_id}'s verdict did not decide the claim: {result.reason}"
        assert result.status.value == ("contradicted" if verdict == Outcome.CONTRADICTED else "unsupported")


def test_every_verdict_code_is_namespaced_by_its_kind(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text("2026-03-02T14:02:11Z ERROR GET /api/orders returned 503 after 30000ms\n", encoding="utf-8")
    report = citeproof.validate("- At 14:02:11 GET /api/orders returned HTTP 503 after 30 seconds (app.log:1).\n", tmp_path,
                                now=NOW, use_cache=False)
    result = report.claims[0]
    assert result.status.value == "verified", result.reason
    assert {v.check for v in result.checks} >= {"statuses", "quantities", "times", "anchoring"}
    for v in result.checks:
        assert v.code.startswith(v.kind + "."), v
    assert not any(v.decides for v in result.checks)


def test_unknown_is_never_a_pass_for_a_time_the_evidence_cannot_show(tmp_path: Path) -> None:
    (tmp_path / "app.yaml").write_text("pool:\n  size: 20\n", encoding="utf-8")
    result = citeproof.validate("- At 14:02 the pool size was 20 (config:pool.size).\n", tmp_path, now=NOW, use_cache=False).claims[0]
    assert result.status.value == "unsupported", result.reason
    decided = next(v for v in result.checks if v.decides)
    assert (decided.code, decided.outcome) == ("time.no_instants", "not_checked")


def test_a_custom_registry_is_used(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text("2026-03-02T14:02:11Z INFO connecting to vendor api\n", encoding="utf-8")
    findings = "- The vendor secretly deleted our production database (app.log:1).\n"
    full = citeproof.validate(findings, tmp_path, now=NOW, use_cache=False).claims[0]
    assert full.status.value == "unsupported"
    without = {k: v for k, v in REGISTRY.items() if k != "anchoring"}
    loose = citeproof.validate(findings, tmp_path, now=NOW, use_cache=False, checks=without).claims[0]
    assert loose.status.value == "verified", "without the anchoring check nothing else refutes this claim"
    assert "anchoring" not in {v.check for v in loose.checks}


def test_no_function_in_support_is_over_60_lines() -> None:
    import ast

    root = Path(citeproof.__file__).parent / "support"
    long = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_function and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 60:
                long.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert not long, long
