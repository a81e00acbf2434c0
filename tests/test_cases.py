"""The labelled case corpus: one test per labelled claim (tests/cases/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .case_corpus import CORPUS, Outcome, case_dirs, labels, needs_corpus, run_case, verdict

_RESULTS: dict[str, tuple[str, list[Outcome]]] = {}


def _run(case: Path, tmp_factory: pytest.TempPathFactory) -> tuple[str, list[Outcome]]:
    if case.name not in _RESULTS:
        report, outcomes = run_case(case, tmp_factory.mktemp(case.name))
        _RESULTS[case.name] = (report.status.value, outcomes)
    return _RESULTS[case.name]


def _outcomes(case: Path, tmp_factory: pytest.TempPathFactory) -> list[Outcome]:
    return _run(case, tmp_factory)[1]


def _params() -> list[object]:
    out: list[object] = []
    for case in case_dirs():
        for index, label in enumerate(labels(case)):
            marks = [pytest.mark.xfail(reason=label.known_gap, strict=True)] if label.known_gap else []
            out.append(pytest.param(case, index, id=f"{case.name}:{index + 1}", marks=marks))
    return out


@pytest.mark.parametrize(("case", "index"), _params())
def test_labelled_claim(case: Path, index: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    if needs_corpus(case) and not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS}")
    label = labels(case)[index]
    outcome = next(o for o in _outcomes(case, tmp_path_factory) if o.label == label)
    assert outcome.actual == label.status, f"{label.text!r}: expected {label.status} ({label.why}), got {outcome.actual}"


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_no_unlabelled_claims(case: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    if needs_corpus(case) and not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS}")
    extra = [o.claim for o in _outcomes(case, tmp_path_factory) if o.label is None]
    assert not extra, f"claims the reader found that have no label: {extra}"


def _verdict_params() -> list[object]:
    out: list[object] = []
    for case in case_dirs():
        gap = json.loads((case / "expected.json").read_text(encoding="utf-8")).get("verdict_known_gap")
        marks = [pytest.mark.xfail(reason=gap, strict=True)] if gap else []
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out


@pytest.mark.parametrize("case", _verdict_params())
def test_document_verdict(case: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    if needs_corpus(case) and not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS}")
    expected = verdict(case)
    assert expected in ("PASSED", "BLOCKED"), f"{case.name}: expected.json gives no verdict"
    assert _run(case, tmp_path_factory)[0] == expected
