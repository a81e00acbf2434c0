"""inv_context.json: the verification block is written atomically, under a lock, and nothing else changes."""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import citeproof
from citeproof.errors import ConfigError
from citeproof.integrations.cli import record_context
from citeproof.integrations.inv_context import bundle_of, update_verification

from .conftest import EXAMPLE

NOW = dt.datetime(2026, 1, 15, 11, 20, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
def report() -> citeproof.Report:
    return citeproof.validate(EXAMPLE / "findings.md", EXAMPLE / "bundle")


def test_verification_block_and_everything_else_preserved(tmp_path: Path, report: citeproof.Report) -> None:
    shipped = EXAMPLE / "bundle" / "inv_context.json"
    context = tmp_path / "inv_context.json"
    context.write_bytes(shipped.read_bytes())
    before = json.loads(shipped.read_text(encoding="utf-8"))
    block = update_verification(context, report, now=NOW)
    text = context.read_text(encoding="utf-8")
    after = json.loads(text)
    assert list(after) == list(before)  # same keys, same order
    assert {k: v for k, v in after.items() if k != "verification"} == {k: v for k, v in before.items() if k != "verification"}
    assert after["verification"] == block == {
        "status": "BLOCKED", "verification_rate": 0.667, "threshold": 0.9, "total_claims": 15, "verified_claims": 10,
        "uncited_claims": ["The vendor API limit is 100 requests per minute."],
        "contradictions": report.contradictions_details, "message": report.message,
        "validated_at": "2026-01-15T11:20:00Z", "tool": "citeproof", "tool_version": citeproof.__version__,
    }
    assert text.startswith('{\n  "schema_version": "3.0",\n')  # indentation kept
    assert [p.name for p in tmp_path.iterdir()] == ["inv_context.json"]  # no temp or lock files


def test_other_verification_keys_kept_and_indent_followed(tmp_path: Path, report: citeproof.Report) -> None:
    context = tmp_path / "ctx.json"
    context.write_text('{\n    "verification": {"status": "pending", "reviewer": "jdoe"},\n    "phase": 3\n}\n', encoding="utf-8")
    os.chmod(context, 0o640)
    update_verification(context, report, now=NOW)
    data = json.loads(context.read_text(encoding="utf-8"))
    assert data["verification"]["reviewer"] == "jdoe" and data["verification"]["status"] == "BLOCKED"
    assert context.read_text(encoding="utf-8").startswith('{\n    "verification"')
    assert (context.stat().st_mode & 0o777) == 0o640


@pytest.mark.parametrize(("content", "message"), [
    ("{broken", "context file is not valid JSON"),
    ("[1, 2]", "context file must hold a JSON object"),
])
def test_bad_context_is_an_error_and_untouched(tmp_path: Path, report: citeproof.Report, content: str, message: str) -> None:
    context = tmp_path / "inv_context.json"
    context.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        update_verification(context, report)
    assert context.read_text(encoding="utf-8") == content


def test_missing_context_is_an_error(tmp_path: Path, report: citeproof.Report) -> None:
    with pytest.raises(ConfigError, match="context file not found"):
        update_verification(tmp_path / "nope.json", report)
    assert not (tmp_path / "nope.json").exists()


def test_context_inside_the_bundle_is_never_written(tmp_path: Path, report: citeproof.Report) -> None:
    shipped = EXAMPLE / "bundle" / "inv_context.json"
    before = shipped.read_bytes()
    with pytest.raises(ConfigError, match="inside the evidence bundle, which is read-only"):
        record_context(shipped, report, EXAMPLE / "bundle")
    assert shipped.read_bytes() == before


def test_the_update_waits_for_the_lock(tmp_path: Path) -> None:
    context = tmp_path / "inv_context.json"
    context.write_text('{"phase": 3}', encoding="utf-8")
    script = (
        "import citeproof, sys\n"
        "from citeproof.integrations.inv_context import update_verification\n"
        f"r = citeproof.validate({str(EXAMPLE / 'findings.md')!r}, {str(EXAMPLE / 'bundle')!r})\n"
        "print('ready', flush=True)\n"
        f"update_verification({str(context)!r}, r)\n"
    )
    with open(context) as lock:  # the lock is on the context file itself
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        time.sleep(0.5)
        assert json.loads(context.read_text(encoding="utf-8")) == {"phase": 3}  # still waiting
    assert proc.wait(timeout=60) == 0
    assert json.loads(context.read_text(encoding="utf-8"))["verification"]["status"] == "BLOCKED"


def test_concurrent_writers_leave_valid_json(tmp_path: Path) -> None:
    context = tmp_path / "inv_context.json"
    context.write_text('{"phase": 3, "notes": ["a"]}', encoding="utf-8")
    script = (
        "import sys, citeproof\n"
        "from citeproof.integrations.inv_context import update_verification\n"
        f"r = citeproof.validate({str(EXAMPLE / 'findings.md')!r}, {str(EXAMPLE / 'bundle')!r})\n"
        f"for _ in range(20): update_verification({str(context)!r}, r)\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    data = json.loads(context.read_text(encoding="utf-8"))
    assert data["phase"] == 3 and data["notes"] == ["a"] and data["verification"]["total_claims"] == 15


def test_the_example_context_names_its_bundle() -> None:
    assert bundle_of(EXAMPLE / "inv_context.json") == (EXAMPLE / "bundle").resolve()
    assert bundle_of(EXAMPLE / "bundle" / "inv_context.json") is None


def _check_has(option: str) -> bool:
    from citeproof.cli import check

    return any(p.name == option for p in check.params)


@pytest.mark.skipif(not _check_has("context"), reason="`check --context` is not registered in cli.py yet")
def test_check_context_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from citeproof.cli import main

    context = tmp_path / "inv_context.json"
    data = json.loads((EXAMPLE / "inv_context.json").read_text(encoding="utf-8"))
    context.write_text(json.dumps({**data, "evidence_bundle": str(EXAMPLE / "bundle")}, indent=2), encoding="utf-8")
    findings, bundle = str(EXAMPLE / "findings.md"), str(EXAMPLE / "bundle")
    assert main(["check", findings, "--evidence", bundle, "--context", str(context), "-f", "json"]) == 1
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["status"] == "BLOCKED"
    written = json.loads(context.read_text(encoding="utf-8"))
    assert written["verification"]["status"] == "BLOCKED" and written["case"] == data["case"]
    shipped = EXAMPLE / "bundle" / "inv_context.json"
    before = shipped.read_bytes()
    assert main(["check", findings, "--evidence", bundle, "--context", str(shipped)]) == 2
    assert "inside the evidence bundle, which is read-only" in capsys.readouterr().err
    assert shipped.read_bytes() == before


def test_a_context_file_that_is_a_symlink_keeps_its_link(tmp_path: Path, report: citeproof.Report) -> None:
    target = tmp_path / "shared" / "inv_context.json"
    target.parent.mkdir()
    target.write_bytes((EXAMPLE / "bundle" / "inv_context.json").read_bytes())
    link = tmp_path / "inv_context.json"
    link.symlink_to(target)
    update_verification(link, report, now=NOW)
    assert link.is_symlink() and os.path.realpath(link) == str(target)
    assert json.loads(target.read_text(encoding="utf-8"))["verification"]["status"] == "BLOCKED"
