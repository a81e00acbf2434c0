"""The labelled contradiction corpus: one test per expected contradiction and per near miss (issue 14).

Cases in ``tests/cases`` whose ``expected.json`` lists ``"contradictions"`` (pairs of claims that contradict
each other, with the rule) and ``"near_misses"`` (pairs that look contradictory but are not). An expected pair
passes when some finding names both claims under its rule; a near miss passes when no finding names both. A pair
the tool does not get right yet carries ``"known_gap"`` and is a strict xfail, so fixing it shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import citeproof

from .case_corpus import CORPUS, build_bundle, case_dirs, findings_file, needs_corpus, options
from .score_contradictions import _claim_id

_REPORTS: dict[str, citeproof.Report] = {}


def _report(case: Path, tmp_factory: pytest.TempPathFactory) -> citeproof.Report:
    if case.name not in _REPORTS:
        bundle = build_bundle(case, tmp_factory.mktemp(case.name))
        _REPORTS[case.name] = citeproof.validate(findings_file(case), bundle, **options(case))
    return _REPORTS[case.name]


def _items(case: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    data = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    return list(data.get("contradictions", [])), list(data.get("near_misses", []))


def _params(kind: str) -> list[object]:
    out: list[object] = []
    for case in case_dirs():
        expected, near = _items(case)
        for index, item in enumerate(expected if kind == "contradiction" else near):
            marks = [pytest.mark.xfail(reason=item["known_gap"], strict=True)] if item.get("known_gap") else []
            out.append(pytest.param(case, index, id=f"{case.name}:{kind}{index + 1}", marks=marks))
    return out


def _pair(case: Path, item: dict[str, Any], tmp_factory: pytest.TempPathFactory) -> tuple[citeproof.Report, str, str]:
    if needs_corpus(case) and not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS}")
    report = _report(case, tmp_factory)
    a, b = _claim_id(report, item["a"]), _claim_id(report, item["b"])
    assert a and b, f"label texts not found among the claims: {item['a']!r} / {item['b']!r}"
    return report, a, b


@pytest.mark.parametrize(("case", "index"), _params("contradiction"))
def test_expected_contradiction_is_found(case: Path, index: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    item = _items(case)[0][index]
    report, a, b = _pair(case, item, tmp_path_factory)
    rules = [f.rule for f in report.contradiction_findings if {a, b} <= set(f.claims)]
    assert item["rule"] in rules, f"{a}/{b} [{item['rule']}]: {item['why']} (found: {rules})"


@pytest.mark.parametrize(("case", "index"), _params("near_miss"))
def test_near_miss_is_no_contradiction(case: Path, index: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    item = _items(case)[1][index]
    report, a, b = _pair(case, item, tmp_path_factory)
    found = [f.detail for f in report.contradiction_findings if {a, b} <= set(f.claims)]
    assert not found, f"{a}/{b}: {item['why']} — reported: {found}"
