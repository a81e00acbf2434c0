"""The labelled case corpus: one test per labelled claim (tests/cases/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .case_corpus import CORPUS, Outcome, case_dirs, labels, needs_corpus, run_case

_RESULTS: dict[str, list[Outcome]] = {}


def _outcomes(case: Path, tmp_factory: pytest.TempPathFactory) -> list[Outcome]:
    if case.name not in _RESULTS:
        _RESULTS[case.name] = run_case(case, tmp_factory.mktemp(case.name))[1]
    return _RESULTS[case.name]


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
