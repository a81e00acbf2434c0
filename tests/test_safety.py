"""Evidence is read-only and nothing outside the bundle is opened."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import ClaimStatus

_OPENED: list[str] | None = None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _OPENED is not None and event == "open" and args and isinstance(args[0], str | bytes | os.PathLike):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


def opened_during(fn: Any) -> tuple[Any, list[str]]:
    global _OPENED
    _OPENED = []
    try:
        result = fn()
        return result, [os.path.realpath(p) for p in _OPENED]
    finally:
        _OPENED = None


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.log"
    secret.parent.mkdir()
    secret.write_text("password=hunter2 HTTP 429\n" * 3, encoding="utf-8")
    return secret


def _bundle_with_link(make_bundle: Any, outside: Path) -> Path:
    root = make_bundle({"app.log": "2026-01-15 10:30:45 ERROR HTTP 429 Too Many Requests\n"})
    (root / "link.log").symlink_to(outside)
    (root / "linkdir").symlink_to(outside.parent, target_is_directory=True)
    return root


@pytest.mark.parametrize(
    ("citation", "why"),
    [
        ("../outside/secret.log:1", "climbs out with '..'"),
        ("{abs}:1", "absolute path"),
        ("link.log:1", "symlink that points outside the bundle"),
        ("linkdir/secret.log:1", "symlink that points outside the bundle"),
        ("config:../outside/secret.log#password", "climbs out with '..'"),
    ],
)
def test_citations_outside_the_bundle_are_rejected_unread(make_bundle: Any, outside: Path, citation: str, why: str) -> None:
    root = _bundle_with_link(make_bundle, outside)
    cited = citation.replace("{abs}", str(outside))
    findings = f"- The server logged HTTP 429 ({cited}).\n"
    report, opened = opened_during(lambda: citeproof.validate(findings, root))
    claim = report.claims[0]
    assert claim.status is ClaimStatus.MISSING_EVIDENCE, claim
    assert why in claim.citations[0].reason
    secret = os.path.realpath(outside)
    assert secret not in opened
    assert not any(p.startswith(os.path.realpath(outside.parent)) for p in opened), opened


def test_escaping_symlinks_are_listed_as_warnings(make_bundle: Any, outside: Path) -> None:
    root = _bundle_with_link(make_bundle, outside)
    report = citeproof.validate("- HTTP 429 was returned (app.log:1).\n", root)
    assert report.claims[0].status is ClaimStatus.VERIFIED
    assert any("link.log" in w and "outside the bundle" in w for w in report.warnings)


def _hashes(root: Path) -> dict[str, tuple[str, int]]:
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            out[str(path)] = (hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns)
    return out


def test_validation_never_modifies_evidence(example: Path, tmp_path: Path) -> None:
    import shutil

    bundle = tmp_path / "bundle"
    shutil.copytree(example / "bundle", bundle)
    before = _hashes(bundle)
    for fmt_run in range(2):
        report = citeproof.validate(example / "findings.md", bundle)
        assert report.total_claims > 0, fmt_run
    assert _hashes(bundle) == before
    assert sorted(p.name for p in bundle.rglob("*")) == sorted(p.name for p in (example / "bundle").rglob("*"))
