"""Shared fixtures: the public evidence corpus (../shared/corpus), the shipped example, bundle builders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rate-limit"
CORPUS = Path(os.environ.get("CITEPROOF_CORPUS") or os.environ.get("EVIDENCEGATE_CORPUS")  # the variable's name before the rename
              or ROOT.parent / "shared" / "corpus")
GOLDEN = Path(__file__).parent / "golden"


def golden(name: str, text: str) -> None:
    """Compare ``text`` with tests/golden/NAME; CITEPROOF_UPDATE_GOLDEN=1 rewrites it instead."""
    path = GOLDEN / name
    if os.environ.get("CITEPROOF_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {name} missing: rerun with CITEPROOF_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.fixture
def corpus() -> Path:
    """The public corpus folder; tests using it are skipped when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"public evidence corpus not found at {CORPUS} (set CITEPROOF_CORPUS)")
    return CORPUS


@pytest.fixture
def example() -> Path:
    return EXAMPLE


@pytest.fixture
def make_bundle(tmp_path: Path):  # type: ignore[no-untyped-def]
    """make_bundle({"a.log": "text" | b"bytes", "sub/b.json": ...}) -> bundle directory."""

    def build(files: dict[str, str | bytes], name: str = "bundle") -> Path:
        root = tmp_path / name
        for rel, content in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8", newline="")
        root.mkdir(exist_ok=True)
        return root

    return build


@pytest.fixture(autouse=True, scope="session")
def _private_index_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never touch the user's cache directory or cache key."""
    os.environ["CITEPROOF_CACHE_DIR"] = str(tmp_path_factory.mktemp("index-cache"))
    os.environ["CITEPROOF_CACHE_KEY"] = str(tmp_path_factory.mktemp("cache-key") / "cache.key")
