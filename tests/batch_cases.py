"""Cases for the batch tests: generated ones (those of benchmarks/batch_ray.py), a broken one and a slow one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from benchmarks.batch_ray import make_cases

from citeproof.cli import main

SLOW_CLAIMS = 10_000  # about 9 s of real work on the 2-core CI machine: far past the 1 s timeouts of the tests


def generated(root: Path, count: int = 20) -> Path:
    """``count`` generated cases plus ``broken`` (its bundle.zip is no archive) and ``packed`` (a good bundle.zip)."""
    make_cases(root, count, lines=600)
    broken = root / "broken"
    broken.mkdir()
    (broken / "findings.md").write_text("- The server logged HTTP 503 (app.log:1).\n", encoding="utf-8")
    (broken / "bundle.zip").write_bytes(b"PK\x03\x04 this is not a zip archive")
    packed = root / "packed"
    shutil.copytree(root / "case-0000", packed)
    shutil.make_archive(str(packed / "bundle"), "zip", packed / "bundle")
    shutil.rmtree(packed / "bundle")
    return root


def slow_case(root: Path, name: str = "slow") -> Path:
    """A case that really takes long: SLOW_CLAIMS claims, each checked against its cited line."""
    folder = root / name
    (folder / "bundle").mkdir(parents=True)
    (folder / "bundle" / "app.log").write_text("2026-01-15 10:30:45 ERROR HTTP 429\n" * 3, encoding="utf-8")
    claims = (f"- The server logged HTTP 429 at 10:30:{i % 60:02d} (app.log:{i % 3 + 1})." for i in range(SLOW_CLAIMS))
    (folder / "findings.md").write_text("\n".join(claims) + "\n", encoding="utf-8")
    return folder


def batch(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]], str]:
    """``citeproof batch ARGS`` in this process: (exit code, the JSON lines, stderr)."""
    code = main(["batch", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


__all__ = ["SLOW_CLAIMS", "batch", "generated", "make_cases", "slow_case"]
