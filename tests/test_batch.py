"""`citeproof batch` beyond the basics of test_cache_batch.py: bundle archives, --resume, --case-timeout, the order of
the lines, and the Ray engine's absence (the core never imports Ray; without it, one clear error)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citeproof.batch import _Ordered, read_resume
from citeproof.cli import main

from .batch_cases import batch, generated, slow_case
from .test_first_use import on_tty

CLI = [sys.executable, "-m", "citeproof"]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated(tmp_path_factory.mktemp("batch") / "cases", 8)


@pytest.fixture(scope="module")
def full(cases: Path) -> list[str]:
    """The JSON lines of a plain local run over ``cases``."""
    proc = subprocess.run([*CLI, "batch", str(cases), "--jobs", "2"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2, proc.stderr  # the broken case
    return proc.stdout.splitlines()


def test_lines_are_sorted_and_a_bundle_archive_is_a_bundle(full: list[str]) -> None:
    results = [json.loads(line) for line in full]
    assert [r["case"] for r in results] == ["broken", *(f"case-{n:04d}" for n in range(8)), "packed"]
    by_case = {r["case"]: r for r in results}
    assert by_case["broken"]["status"] == "ERROR" and "bundle.zip: cannot unpack archive" in by_case["broken"]["error"]
    assert "\n" not in by_case["broken"]["error"]
    assert by_case["case-0004"]["status"] == "BLOCKED"
    assert {k: v for k, v in by_case["packed"].items() if k != "case"} == \
        {k: v for k, v in by_case["case-0000"].items() if k != "case"}  # bundle.zip reads as the folder it packs


def test_ordered_emits_each_result_once_when_all_before_it_are_in() -> None:
    seen: list[int] = []
    ordered = _Ordered(3, lambda r: seen.append(r["n"]))
    assert ordered.put(2, {"n": 2}) and seen == []
    assert ordered.put(0, {"n": 0}) and seen == [0]
    assert not ordered.put(0, {"n": 0})  # a second result for the same case is not counted
    assert ordered.put(1, {"n": 1}) and seen == [0, 1, 2]


def test_resume_keeps_earlier_lines_and_runs_the_rest(cases: Path, full: list[str], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    earlier = [json.loads(line) for line in full]
    earlier[2]["message"] = "kept from the earlier run"  # case-0001: if it were run again, this would be gone
    earlier[3] = {"case": "case-0002", "status": "ERROR", "error": "case-0002: the worker process was lost"}
    lines = [*earlier[:4], {**earlier[5], "case": "gone"}]  # case-0003 and later missing; one case no longer there
    resume = tmp_path / "out.jsonl"
    resume.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    code, results, err = batch(capsys, str(cases), "--resume", str(resume), "--jobs", "2")
    assert code == 2
    expected = [json.loads(line) for line in full]
    expected[2]["message"] = "kept from the earlier run"
    assert results == expected  # the whole batch again, sorted; the ERROR line run again
    assert err.splitlines()[0] == (f"resume: 2 of 10 cases kept from {resume}; 2 earlier ERRORs run again; "
                                   "1 case no longer in the cases folder left out; 8 to run")


def test_resume_of_a_complete_run_runs_nothing(cases: Path, full: list[str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    done = [line for line in full if '"ERROR"' not in line]
    resume = tmp_path / "out.jsonl"
    resume.write_text("\n".join(done) + "\n", encoding="utf-8")
    code, results, err = batch(capsys, str(cases), "--resume", str(resume), "--jobs", "2")
    assert (code, [json.dumps(r, separators=(",", ":")) for r in results]) == (2, full)
    assert err.splitlines()[0].endswith("9 of 10 cases kept from " + str(resume) + "; 1 to run")


@pytest.mark.parametrize(("content", "message"), [
    ('{"case": "a", "status": "PASSED"\n{}\n', "1: not a JSON line of citeproof batch (unexpected end of data)"),
    ('[1, 2]\n', "1: not a JSON object but a list"),
    ('{"status": "ERROR"}\n', '1: no "case" name'),
    ('{"case": "a", "status": "OK"}\n', '1: "status" is not one of PASSED, BLOCKED, ERROR'),
    ('{"case": "a", "status": "PASSED", "total_claims": 1, "verified_claims": 1, "contradictions": 0}\n',
     '1: a PASSED line needs "verification_rate" (a number)'),
    ('{"case": "a", "status": "BLOCKED", "verification_rate": 0.5, "total_claims": 2, "verified_claims": 1.0, '
     '"contradictions": 0}\n', '1: a BLOCKED line needs "verified_claims" (an integer)'),
    ('{"case": "a", "status": "ERROR", "error": "x"}\n\n{"case": "a", "status": "ERROR", "error": "x"}\n',
     "3: case 'a' appears twice (first on line 1)"),
])
def test_a_malformed_resume_file_is_one_error_naming_file_and_line(cases: Path, tmp_path: Path, content: str, message: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    resume = tmp_path / "out.jsonl"
    resume.write_text(content, encoding="utf-8")
    code = main(["batch", str(cases), "--resume", str(resume)])
    assert (code, *capsys.readouterr()) == (2, "", f"citeproof: error: {resume}:{message}\n")


def test_an_incomplete_last_line_is_run_again(cases: Path, full: list[str], tmp_path: Path) -> None:
    resume = tmp_path / "out.jsonl"
    resume.write_text("\n".join(full[:3]) + "\n" + full[3][:40], encoding="utf-8")  # the run died while writing
    resumed = read_resume(resume)
    assert sorted(resumed.results) == ["broken", "case-0000", "case-0001"] and resumed.incomplete == 4


def test_an_interrupted_run_leaves_lines_that_resume_picks_up(tmp_path: Path) -> None:
    """A run killed while its last case works has already written every line before it; --resume runs only that case."""
    root = tmp_path / "cases"
    generated(root, 4)
    slow_case(root, "z-slow")
    out = tmp_path / "first.jsonl"
    with open(out, "wb") as fh:
        proc = subprocess.Popen([*CLI, "batch", str(root), "--jobs", "1"], stdout=fh, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while out.read_bytes().count(b"\n") < 6 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert out.read_bytes().count(b"\n") == 6  # broken, case-0000..0003, packed; z-slow never finished
    second = tmp_path / "second.jsonl"
    with open(second, "wb") as fh:
        proc2 = subprocess.run([*CLI, "batch", str(root), "--resume", str(out), "--case-timeout", "1"], stdout=fh,
                               stderr=subprocess.PIPE, check=False)
    lines = second.read_text(encoding="utf-8").splitlines()
    assert proc2.returncode == 2
    assert lines[:6] == out.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[6]) == {"case": "z-slow", "status": "ERROR", "error": "z-slow: timed out after 1 s (--case-timeout)"}
    assert proc2.stderr.decode().startswith(f"resume: 5 of 7 cases kept from {out}; 1 earlier ERROR run again; 2 to run")


def test_the_output_may_not_go_into_the_resume_file(cases: Path, full: list[str], tmp_path: Path) -> None:
    resume = tmp_path / "out.jsonl"
    resume.write_text("\n".join(full) + "\n", encoding="utf-8")
    with open(resume, "ab") as fh:  # citeproof batch CASES --resume out.jsonl >> out.jsonl
        proc = subprocess.run([*CLI, "batch", str(cases), "--resume", str(resume)], stdout=fh, stderr=subprocess.PIPE,
                              check=False)
    assert proc.returncode == 2
    assert proc.stderr.decode() == (f"citeproof: error: {resume}: the output goes into the resume file itself: "
                                    "write it to another file\n")
    assert resume.read_text(encoding="utf-8") == "\n".join(full) + "\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_case_timeout_stops_a_slow_case_and_the_others_finish(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              jobs: str) -> None:
    root = tmp_path / "cases"
    generated(root, 2)
    slow_case(root, "a-slow")  # first: its worker goes on with the next cases
    code, results, _ = batch(capsys, str(root), "--case-timeout", "1", "--jobs", jobs)
    assert code == 2
    assert [(r["case"], r["status"]) for r in results] == [
        ("a-slow", "ERROR"), ("broken", "ERROR"), ("case-0000", "PASSED"), ("case-0001", "PASSED"), ("packed", "PASSED")]
    assert results[0]["error"] == "a-slow: timed out after 1 s (--case-timeout)"


def test_engine_options_are_checked(cases: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["batch", str(cases), "--address", "auto"]) == 2
    assert capsys.readouterr().err == "citeproof: error: --address needs --engine ray\n"
    assert main(["batch", str(cases), "--jobs", "65"]) == 2
    assert capsys.readouterr().err == "citeproof: error: --jobs 65: --engine local runs at most 64 worker processes\n"
    assert main(["batch", str(cases), "--case-timeout", "0"]) == 2
    assert "--case-timeout" in capsys.readouterr().err


def test_the_core_never_imports_ray(cases: Path) -> None:
    script = ("import sys, citeproof, citeproof.cli, citeproof.batch\n"
              "from citeproof.cli import main\n"
              f"code = main(['batch', {str(cases)!r}, '--jobs', '2'])\n"
              "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'ray'))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert proc.stdout.splitlines()[-1] == "2 []", proc.stderr  # a local batch ran (the broken case: 2), no Ray module


def test_the_ray_engine_without_ray_is_one_error_naming_the_extra(cases: Path) -> None:
    script = ("import sys\n"
              "sys.modules['ray'] = None  # what `import ray` meets when Ray is not installed: ImportError\n"
              "from citeproof.cli import main\n"
              f"sys.exit(main(['batch', {str(cases)!r}, '--engine', 'ray']))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "citeproof: error: --engine ray needs Ray: pip install 'citeproof[ray]'\n"


def test_cache_dir_option_is_where_the_workers_cache(cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "node-cache"
    before = dict(os.environ)
    code, results, _ = batch(capsys, str(cases), "--jobs", "2", "--cache-dir", str(target))
    assert code == 2 and len(results) == 10
    # a verdict file per case with a bundle folder (an unpacked archive is never cached; the broken case has none)
    assert len(list(target.glob("claims-*.json"))) == 8
    assert dict(os.environ) == before  # the command's own environment is left as it was
    code, _, _ = batch(capsys, str(cases), "--jobs", "1", "--cache-dir", str(tmp_path / "in-process"))
    assert len(list((tmp_path / "in-process").glob("claims-*.json"))) == 8 and dict(os.environ) == before


def test_lines_and_progress_on_one_terminal_do_not_run_together(cases: Path, full: list[str]) -> None:
    """stdout and stderr on the same terminal: the progress line is erased before each JSON line and drawn again after."""
    code, screen, _ = on_tty(["batch", str(cases), "--jobs", "2"], dict(os.environ), "both")
    assert code == 2
    assert "batch: 10 of 10 cases (100%)" in screen and "%){" not in screen
    shown = [piece.rsplit("\x1b[K", 1)[-1] for piece in screen.split("\r\n")]
    assert [line for line in shown if line.startswith("{")] == full
