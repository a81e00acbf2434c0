"""The on-disk index cache (keyed, validated, never inside the bundle), `index` and `batch`."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import citeproof
from citeproof.cli import main
from citeproof.evidence.cache import IndexCache
from citeproof.evidence.lines import LineFile

from .conftest import EXAMPLE


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("CITEPROOF_CACHE_DIR", str(root))
    return root


def test_line_index_is_cached_and_invalidated(tmp_path: Path, cache: Path) -> None:
    log = tmp_path / "app.log"
    log.write_text("".join(f"line {i}\n" for i in range(1, 3001)), encoding="utf-8")
    store = IndexCache(cache)
    assert LineFile.open(log, store).line_count == 3000
    entries = list(cache.glob("lines-*.npz"))
    assert len(entries) == 1
    warm = LineFile.open(log, store)
    assert warm.line_count == 3000 and warm.lines(2999, 2999) == ["line 2999"]
    with open(log, "a", encoding="utf-8") as fh:
        fh.write("line 3001\n")
    assert LineFile.open(log, store).line_count == 3001  # size and mtime changed: a new key, rebuilt


def test_corrupt_cache_entry_is_rebuilt_not_trusted(tmp_path: Path, cache: Path) -> None:
    log = tmp_path / "app.log"
    log.write_text("a\nb\nc\n", encoding="utf-8")
    store = IndexCache(cache)
    assert LineFile.open(log, store).line_count == 3
    for entry in cache.glob("lines-*.npz"):
        entry.write_bytes(b"not an npz archive")
    assert LineFile.open(log, store).line_count == 3


def test_cache_inside_the_bundle_is_never_used(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    assert IndexCache(bundle / ".cache", bundle).root is None


def test_validation_with_and_without_cache_agree(tmp_path: Path, cache: Path) -> None:
    first = citeproof.validate(EXAMPLE / "findings.md", EXAMPLE / "bundle").to_dict()
    assert any(cache.iterdir())
    second = citeproof.validate(EXAMPLE / "findings.md", EXAMPLE / "bundle").to_dict()
    uncached = citeproof.validate(EXAMPLE / "findings.md", EXAMPLE / "bundle", use_cache=False).to_dict()
    assert first == second == uncached


def test_no_cache_flag_writes_nothing(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(EXAMPLE / "findings.md"), "--evidence", str(EXAMPLE / "bundle"), "--no-cache", "-f", "json"])
    assert code == 1
    assert not cache.exists() or not any(cache.iterdir())


def test_index_command(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(EXAMPLE / "bundle")]) == 0
    out = capsys.readouterr().out
    assert "demisto.log: 606 lines" in out and "capture.har: 40 entries" in out
    assert list(cache.glob("lines-*.npz")) and list(cache.glob("times-*.npz"))


def _case(root: Path, name: str, findings: str | None, bundle: bool = True) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    if findings is not None:
        (folder / "findings.md").write_text(findings, encoding="utf-8")
    if bundle:
        shutil.copytree(EXAMPLE / "bundle", folder / "bundle")


def test_batch_runs_every_case(tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = tmp_path / "cases"
    _case(cases, "a-good", "- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n")
    _case(cases, "b-bad", (EXAMPLE / "findings.md").read_text(encoding="utf-8"))
    _case(cases, "c-empty", None)
    code = main(["batch", str(cases), "--jobs", "2"])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [r["case"] for r in lines] == ["a-good", "b-bad", "c-empty"]
    assert [r["status"] for r in lines] == ["PASSED", "BLOCKED", "ERROR"]
    assert lines[1]["verification_rate"] == round(10 / 15, 3)
    assert "no findings file" in lines[2]["error"]
    assert code == 2
    assert "1 of 3 cases passed" in err


def test_batch_exit_codes(tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = tmp_path / "cases"
    _case(cases, "only", "- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n")
    assert main(["batch", str(cases), "-j", "1"]) == 0
    _case(cases, "second", "- The vendor API limit is 100 requests per minute.\n")
    assert main(["batch", str(cases)]) == 1
    capsys.readouterr()
    assert os.environ["CITEPROOF_CACHE_DIR"] == str(cache)
