"""`citeproof batch --engine ray` on a real local Ray cluster: the same JSON lines as the local engine, --resume,
--case-timeout, --cache-dir through runtime_env, and a worker that dies (retried once, counted once).

CI installs the extra (.ci/run: pip install -e '.[...,ray]'), so these tests run there; without Ray they are skipped.
One Ray instance (2 CPUs) serves the module: starting Ray takes several seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from citeproof.batch import run_batch
from citeproof.batch_ray import RayEngine

from .batch_cases import batch, generated, slow_case
from .test_first_use import on_tty

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'citeproof[ray]')")

CLI = [sys.executable, "-m", "citeproof"]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated(tmp_path_factory.mktemp("ray") / "cases", 20)  # 20 generated, a broken one, a packed one


@pytest.fixture(scope="module")
def local(cases: Path) -> tuple[int, str, str]:
    proc = subprocess.run([*CLI, "batch", str(cases), "--jobs", "2"], capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def test_the_command_starts_a_local_ray_and_prints_what_local_prints(cases: Path, local: tuple[int, str, str],
                                                                     tmp_path: Path) -> None:
    """No --address and no RAY_ADDRESS: the command starts Ray for this run, whose workers inherit its environment
    (the cache directory). Its stdout is the local engine's; on a terminal, stderr shows every count of cases done,
    then the same table (nothing from Ray)."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["CITEPROOF_CACHE_DIR"] = str(tmp_path / "cache")
    code, shown, out = on_tty(["batch", str(cases), "--engine", "ray"], env, "stderr")
    assert (code, out) == local[:2]
    assert all(f"batch: {n} of 22 cases" in shown for n in range(23)), shown
    assert shown.replace("\r\n", "\n").rsplit("\x1b[K", 1)[1] == local[2]  # after the erased progress line: the table
    assert local[0] == 2 and len(local[1].splitlines()) == 22
    assert len(list((tmp_path / "cache").glob("claims-*.json"))) == 20


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A local Ray instance for the module; its workers inherit this process's CITEPROOF_CACHE_DIR/KEY (conftest)."""
    ray.init(num_cpus=2, logging_level="error", log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_lines_are_the_local_lines(cluster: None, cases: Path, local: tuple[int, str, str],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = batch(capsys, str(cases), "--engine", "ray")
    assert (code, lines, err) == (local[0], [json.loads(line) for line in local[1].splitlines()], local[2])
    assert [r["status"] for r in lines].count("ERROR") == 1 and lines[0]["case"] == "broken"
    assert batch(capsys, str(cases), "--engine", "ray", "--jobs", "3") == (code, lines, err)  # at most 3 in flight


def test_resume_on_ray(cluster: None, cases: Path, local: tuple[int, str, str], tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    earlier = local[1].splitlines()
    resume = tmp_path / "half.jsonl"
    resume.write_text("\n".join(earlier[:11]) + "\n", encoding="utf-8")  # a run that stopped halfway
    code, lines, err = batch(capsys, str(cases), "--engine", "ray", "--resume", str(resume))
    assert (code, lines) == (local[0], [json.loads(line) for line in earlier])
    assert err.splitlines()[0] == f"resume: 10 of 22 cases kept from {resume}; 1 earlier ERROR run again; 12 to run"


def test_case_timeout_on_ray(cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "cases"
    generated(root, 2)
    slow_case(root, "a-slow")  # first: its worker goes on with the next cases
    code, lines, _ = batch(capsys, str(root), "--engine", "ray", "--case-timeout", "1")
    assert code == 2
    assert [(r["case"], r["status"]) for r in lines] == [
        ("a-slow", "ERROR"), ("broken", "ERROR"), ("case-0000", "PASSED"), ("case-0001", "PASSED"), ("packed", "PASSED")]
    assert lines[0]["error"] == "a-slow: timed out after 1 s (--case-timeout)"


def test_cache_dir_reaches_the_ray_workers(cluster: None, cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "node-cache"
    code, lines, _ = batch(capsys, str(cases), "--engine", "ray", "--cache-dir", str(target))
    assert code == 2 and len(lines) == 22
    assert len(list(target.glob("claims-*.json"))) == 20  # the generated cases (no cache for a bundle archive)
    for entry in target.iterdir():
        entry.unlink()
    batch(capsys, str(cases), "--engine", "ray")  # without --cache-dir the workers use their own environment's
    assert not any(target.iterdir())


def test_a_lost_worker_is_retried_once_and_its_case_counted_once(cluster: None, tmp_path: Path) -> None:
    root = tmp_path / "cases"
    generated(root, 3)
    marks = tmp_path / "attempts"
    marks.mkdir()
    where = str(marks)

    def dies(case, opts, timeout, version):  # type: ignore[no-untyped-def]
        """case-0001's worker dies the first time, case-0002's every time; each attempt leaves a mark."""
        from pathlib import Path

        from citeproof.batch_ray import case_task

        with open(Path(where) / case.name, "a", encoding="utf-8") as fh:
            fh.write("x")
        attempts = len((Path(where) / case.name).read_text(encoding="utf-8"))
        if case.name == "case-0002" or (case.name == "case-0001" and attempts == 1):
            os._exit(1)  # the worker process dies without answering
        return case_task(case, opts, timeout, version)

    emitted: list[str] = []
    results = run_batch(root, engine=RayEngine(None, None, {}, task=dies), emit=lambda r: emitted.append(r["case"]))
    expected = run_batch(root, jobs=1)
    assert emitted == [r["case"] for r in results] == ["broken", "case-0000", "case-0001", "case-0002", "packed"]
    assert results[2] == expected[2] and results[2]["status"] == "PASSED"  # retried, and counted once
    assert results[3] == {"case": "case-0002", "status": "ERROR", "error": "case-0002: the Ray worker running it was lost "
                                                                           "(WorkerCrashedError); a lost worker is retried once"}
    assert [results[n] for n in (0, 1, 4)] == [expected[n] for n in (0, 1, 4)]
    assert {p.name: len(p.read_text(encoding="utf-8")) for p in marks.iterdir()} == {
        "broken": 1, "case-0000": 1, "case-0001": 2, "case-0002": 2, "packed": 1}
