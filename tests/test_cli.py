"""The command line: golden outputs, exit codes and one-line errors (stdout, stderr and code together)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from citeproof.cli import main

from .conftest import ROOT, golden

FINDINGS = "examples/rate-limit/findings.md"
BUNDLE = "examples/rate-limit/bundle"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err




@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_example_report_is_golden(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, err = run(capsys, "check", FINDINGS, "--evidence", BUNDLE, "--format", fmt)
    assert (code, err) == (1, "")
    golden(f"example.{fmt}", out)


def test_json_output_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "check", FINDINGS, "--evidence", BUNDLE, "-f", "json")
    second = run(capsys, "check", FINDINGS, "--evidence", BUNDLE, "-f", "json")
    assert first == second


def test_passing_findings_exit_zero(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    findings = tmp_path / "good.md"
    findings.write_text(
        "- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n"
        "- The server runs XSOAR (env:product=XSOAR).\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "check", str(findings), "--evidence", BUNDLE)
    assert (code, err) == (0, "")
    assert out.startswith("PASSED ")


def test_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    code, out, err = run(capsys, "check", FINDINGS, "--evidence", BUNDLE, "-f", "json", "-o", str(target))
    assert (code, out, err) == (1, "", "")
    assert json.loads(target.read_text())["status"] == "BLOCKED"


PARTLY = (
    "- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n"
    "- The server runs XSOAR (env:product=XSOAR).\n"
    "- The vendor API limit is 100 requests per minute.\n"
)


def test_threshold_option_changes_the_verdict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    findings = tmp_path / "partly.md"
    findings.write_text(PARTLY, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(findings), "--evidence", BUNDLE, "-f", "json")
    assert (code, json.loads(out)["verification_rate"]) == (1, 0.667)
    code, out, _ = run(capsys, "check", str(findings), "--evidence", BUNDLE, "--threshold", "0.5", "-f", "json")
    report = json.loads(out)
    assert report["threshold"] == 0.5
    assert code == 0 and report["status"] == "PASSED"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "missing.md", "--evidence", BUNDLE], "citeproof: error: missing.md: findings file not found"),
        (["check", FINDINGS, "--evidence", "no/such/bundle"], "citeproof: error: no/such/bundle: evidence bundle not found"),
        (["check", FINDINGS, "--evidence", BUNDLE, "--threshold", "1.5"],
         "citeproof: error: threshold: Input should be less than or equal to 1"),
        (["check", FINDINGS, "--evidence", BUNDLE, "--assume-tz", "Mars/Base"], "citeproof: error: assume_tz: Value error, must be UTC"),
        (["check", FINDINGS], "citeproof: error: Missing option '--evidence'"),
        (["nope"], "citeproof: error: No such command 'nope'"),
    ],
)
def test_input_errors_are_one_line_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(message), err


def test_bad_config_file_names_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cfg = tmp_path / "eg.yaml"
    cfg.write_text("threshold: [1\n", encoding="utf-8")
    code, _, err = run(capsys, "check", FINDINGS, "--evidence", BUNDLE, "--config", str(cfg))
    assert code == 2 and err.startswith(f"citeproof: error: {cfg}: not valid YAML")
    cfg.write_text("threshhold: 0.5\n", encoding="utf-8")
    code, _, err = run(capsys, "check", FINDINGS, "--evidence", BUNDLE, "--config", str(cfg))
    assert code == 2 and "'threshhold' is not an option (did you mean threshold?)" in err


def test_config_file_sets_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cfg = tmp_path / "eg.toml"
    cfg.write_text("[tool.citeproof]\nthreshold = 0.6\n", encoding="utf-8")
    findings = tmp_path / "partly.md"
    findings.write_text(PARTLY, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(findings), "--evidence", BUNDLE, "--config", str(cfg), "-f", "json")
    assert json.loads(out)["threshold"] == 0.6 and code == 0


def test_console_script_runs_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "citeproof.cli", "check", FINDINGS, "--evidence", BUNDLE, "-f", "json"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["status"] == "BLOCKED"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("citeproof, version ")
