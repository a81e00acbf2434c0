"""Per-claim results kept between runs, so the agent's "BLOCKED -> fix -> re-validate" loop only
re-checks the claims that changed.

A claim's verdict depends only on its own text and citations (and the zone its document declares), the
options, the tool and the bundle. The cache file is keyed by a fingerprint of all of these but the claim
(the version plus a digest of the package's code and rule data; every bundle file's path, size,
modification time and inode; the options; the day, for the "not in the future" check);
inside it each claim is keyed by its text and parsed citations. Any change to the bundle or options
starts a new file; an unreadable file is ignored. Contradiction rules always run afresh, since they
look across claims. The file lives in the index cache directory (:mod:`citeproof.evidence.cache`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from . import __version__
from .config import Options
from .evidence import Bundle
from .model import Claim, ClaimResult, Evidence


def _digest(value: Any) -> str:
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS, default=str)).hexdigest()[:40]


def claim_key(claim: Claim) -> str:
    refs = [[r.format_id, r.raw, r.start, r.end, sorted((k, repr(v)) for k, v in r.fields.items()), r.parse_error]
            for r in claim.citations]
    return _digest([claim.text, claim.unverified, refs, claim.zone])


@cache
def _rules() -> str:
    """A digest of the shipped rule data (lexicon, event table, units, ...) and of the checking code itself: a verdict
    cached by another build of citeproof, even one with the same version number, is a miss."""
    root = Path(__file__).parent
    files = sorted(p for p in (*root.joinpath("data").iterdir(), *root.rglob("*.py")) if p.is_file())
    return _digest([(str(p.relative_to(root)), hashlib.sha256(p.read_bytes()).hexdigest()) for p in files])


def _evidence(stored: dict[str, Any]) -> Evidence:
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in stored.items()}
    return Evidence(**fields)


class ClaimCache:
    """Loads the verdicts of a bundle + options once per run and writes them back at the end."""

    def __init__(self, bundle: Bundle, opts: Options) -> None:
        self.bundle = bundle
        self.root = bundle.index_cache.root
        stats = {f.rel: f.path.stat() for f in bundle.files.values()}
        files = sorted((rel, st.st_size, st.st_mtime_ns, st.st_ino) for rel, st in stats.items())
        day = (opts.now or dt.datetime.now(dt.UTC)).date().isoformat()
        settings = opts.model_dump(mode="json", exclude={"now"})
        self.name = f"claims-{_digest([__version__, _rules(), str(bundle.root), bundle.shown(), files, settings, day])}.json"
        self.entries: dict[str, Any] = {}
        self.dirty = False
        if self.root is not None:
            try:
                self.entries = orjson.loads((self.root / self.name).read_bytes())
            except (OSError, orjson.JSONDecodeError):
                self.entries = {}

    def get(self, claim: Claim) -> tuple[ClaimResult, list[str], tuple[Evidence, ...], str] | None:
        hit = self.entries.get(claim_key(claim))
        if not isinstance(hit, dict):
            return None
        try:
            result = ClaimResult.model_validate(hit["result"])
            evidence = tuple(_evidence(e) for e in hit["evidence"])
        except (KeyError, TypeError, ValueError):
            return None
        result = result.model_copy(update={"id": claim.id, "claim": claim.text, "line": claim.line, "column": claim.column})
        return result, list(hit["warnings"]), evidence, str(hit["stripped"])

    def put(self, claim: Claim, result: ClaimResult, warnings: list[str], evidence: tuple[Evidence, ...], stripped: str) -> None:
        if self.root is None:
            return
        self.entries[claim_key(claim)] = {
            "result": result.model_dump(mode="json"),
            "warnings": warnings,
            "evidence": [dataclasses.asdict(e) for e in evidence],
            "stripped": stripped,
        }
        self.dirty = True

    def save(self) -> None:
        if self.root is None or not self.dirty:
            return
        import os
        import tempfile

        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "wb") as fh:
                fh.write(orjson.dumps(self.entries))
            os.replace(tmp, self.root / self.name)
        except OSError:
            return


__all__ = ["ClaimCache", "claim_key"]
