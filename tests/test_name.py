"""The product is called citeproof everywhere: the old name survives only in the changelog's rename entry."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OLD = "evidence" + "gate"  # spelt in two parts so that this file does not match itself
CORPUS_VARIABLE = OLD + "_corpus"  # (lower-cased like the text it is looked for in)


def _tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked-file list is unavailable")
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_old_name_only_in_the_changelog_entry() -> None:
    hits: list[str] = []
    for path in _tracked_files():
        if not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8", "replace").lower()
        for n, line in enumerate(text.splitlines(), 1):
            # the one exception: the tests also read the public corpus from the variable the project brief names
            if OLD in line.replace(CORPUS_VARIABLE, "").replace("-", "").replace("_", ""):
                hits.append(f"{path.relative_to(ROOT)}:{n}")
    assert [h for h in hits if not h.startswith("CHANGELOG.md:")] == []
    assert len([h for h in hits if h.startswith("CHANGELOG.md:")]) == 1


def test_console_script_and_module_use_the_new_name() -> None:
    import citeproof.cli

    out = subprocess.run([sys.executable, "-m", "citeproof", "--help"], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "citeproof" in out.stdout
    assert callable(citeproof.cli.main)
