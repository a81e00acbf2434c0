"""Startup (issue 15): the command line loads only what a run needs, and a re-run on unchanged inputs
returns the stored report without loading the checking code. Checked by what a fresh interpreter has
imported, not by timing (the speed itself is measured in ``benchmarks/``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import citeproof

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rate-limit"
HEAVY = ("citeproof.checking", "citeproof.support", "citeproof.contradictions", "citeproof.citations", "lemminflect",
         "numpy", "pydantic", "rich")


def _loaded(code: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[set[str], str, int]:
    """The modules a fresh interpreter has imported after ``code`` (which may print to stdout)."""
    script = f"{code}\nimport sys\nprint('\\x00' + ' '.join(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=cwd, check=False)
    out, _, mods = proc.stdout.rpartition("\x00")
    assert "Traceback" not in proc.stderr, proc.stderr
    return set(mods.split()), out, proc.returncode


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_the_command_line_and_the_package_import_no_checking_code() -> None:
    for code in ("import citeproof.cli", "import citeproof", "import citeproof.cli; citeproof.cli.cli.list_commands(None)"):
        modules, _, rc = _loaded(code)
        assert rc == 0
        assert _heavy(modules) == [], code


def test_every_public_name_resolves_on_first_use() -> None:
    for name in citeproof.__all__:
        assert getattr(citeproof, name) is not None, name
    assert set(citeproof.__all__) <= set(dir(citeproof))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        citeproof.nothing_here  # noqa: B018


def test_every_command_is_listed_and_a_command_loads_only_itself() -> None:
    proc = subprocess.run([sys.executable, "-m", "citeproof", "--help"], capture_output=True, text=True, check=True)
    for name in ("check", "sources", "hook", "init", "mcp", "batch", "index"):
        assert f"  {name} " in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "citeproof", "sources", "--help"], capture_output=True, text=True, check=True)
    assert "--claims" in proc.stdout
    modules, out, _ = _loaded("from citeproof.cli import main\nmain(['check', '--help'])")
    assert "--evidence" in out
    assert not {"citeproof.sources", "citeproof.integrations.hook", "citeproof.integrations.mcp_server"} & modules


def _check(case: Path, env: dict[str, str], *extra: str) -> tuple[set[str], str, int]:
    code = ("import sys\nfrom citeproof.cli import main\n"
            f"rc = main(['check', 'findings.md', '-e', 'bundle', '-f', 'json', *{list(extra)!r}])\nprint('rc', rc)")
    return _loaded(code, env, case)


@pytest.fixture()
def case(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp_path / "case"
    shutil.copytree(EXAMPLE, folder)
    env = {**os.environ, "CITEPROOF_CACHE_DIR": str(tmp_path / "cache"), "CITEPROOF_CACHE_KEY": str(tmp_path / "key" / "cache.key")}
    return folder, env


def test_a_rerun_on_unchanged_inputs_returns_the_stored_report_without_checking(case: tuple[Path, dict[str, str]]) -> None:
    folder, env = case
    first_modules, first, _ = _check(folder, env)
    assert "citeproof.checking" in first_modules
    again_modules, again, _ = _check(folder, env)
    assert again == first
    assert [m for m in _heavy(again_modules) if not m.startswith("pydantic")] == []
    fresh_modules, fresh, _ = _check(folder, env, "--no-cache")
    assert "citeproof.checking" in fresh_modules and fresh == first


def test_any_change_to_the_inputs_is_a_fresh_run(case: tuple[Path, dict[str, str]]) -> None:
    folder, env = case
    _, first, _ = _check(folder, env)
    findings = folder / "findings.md"
    findings.write_text(findings.read_text() + "\n- The gateway returned HTTP 200 for every request (api.log:1).\n")
    modules, changed, _ = _check(folder, env)
    assert "citeproof.checking" in modules and changed != first
    # an edit in place of an evidence file, same size: the stored report no longer belongs to these inputs
    log = next(p for p in sorted((folder / "bundle").rglob("*")) if p.is_file() and p.suffix == ".log")
    data = bytearray(log.read_bytes())
    at = data.index(b"429")
    data[at:at + 3] = b"503"
    log.write_bytes(bytes(data))
    modules, edited, _ = _check(folder, env)
    assert "citeproof.checking" in modules
    assert json.loads(edited.split("\nrc ")[0])["claims"] != json.loads(changed.split("\nrc ")[0])["claims"]


def test_an_altered_stored_report_is_a_miss_never_a_verdict(case: tuple[Path, dict[str, str]]) -> None:
    folder, env = case
    _, first, _ = _check(folder, env)
    stored = sorted(Path(env["CITEPROOF_CACHE_DIR"]).rglob("report-*.json"))
    assert len(stored) == 1
    raw = stored[0].read_bytes()
    stored[0].write_bytes(raw.replace(b'"BLOCKED"', b'"PASSED"'))  # a forged verdict: the seal no longer matches
    modules, again, _ = _check(folder, env)
    assert "citeproof.checking" in modules and again == first
