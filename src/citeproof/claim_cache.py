"""Per-claim results kept between runs, so the agent's "BLOCKED -> fix -> re-validate" loop only
re-checks the claims that changed.

A claim's verdict depends only on its own text and citations (and the zone its document declares), the
options, the tool and the bundle. The cache file is keyed by a fingerprint of all of these but the claim
(the version plus a digest of the package's code and rule data; every bundle file's path, device, inode,
size, modification and change times, and for small files their content; the options; the day, for the
"not in the future" check); inside it each claim is keyed by its text and parsed citations. Any change to
the bundle or options starts a new file. The file lives in the index cache directory and is sealed like
its entries (:mod:`citeproof.evidence.cache`): a file whose seal does not match, that does not parse, or
whose entries have the wrong shape is a miss, never a verdict and never an error. Contradiction rules
always run afresh, since they look across claims.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from ._version import __version__
from .config import Options
from .evidence import Bundle
from .evidence.access import UnreadableEvidence, read_regular
from .evidence.bundle import EvidenceFile
from .evidence.cache import HASHED_BYTES, MAX_ENTRY_BYTES, seal, unseal, write_atomic
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


def _evidence(stored: Any) -> Evidence:
    if not isinstance(stored, dict):
        raise TypeError("stored evidence is not an object")
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in stored.items()}
    return Evidence(**fields)


class ClaimCache:
    """Loads the verdicts of a bundle + options once per run and writes them back at the end."""

    def __init__(self, bundle: Bundle, opts: Options) -> None:
        self.bundle = bundle
        self.root = bundle.index_cache.root
        files = sorted(_fingerprint(bundle, f) for f in bundle.files.values())
        day = (opts.now or dt.datetime.now(dt.UTC)).date().isoformat()
        settings = opts.model_dump(mode="json", exclude={"now"})
        self.name = f"claims-{_digest([__version__, _rules(), str(bundle.root), bundle.shown(), files, settings, day])}.json"
        self.entries: dict[str, Any] = {}
        self.dirty = False
        if self.root is not None:
            try:
                payload = unseal(read_regular(self.root / self.name, MAX_ENTRY_BYTES, nofollow=True))
                loaded = orjson.loads(payload) if payload is not None else {}
            except (OSError, orjson.JSONDecodeError):
                loaded = {}
            # the seal covers the name too: a sealed file copied over another bundle's or options' name is a miss
            ok = isinstance(loaded, dict) and loaded.get("name") == self.name and isinstance(loaded.get("claims"), dict)
            self.entries = loaded["claims"] if ok else {}

    def get(self, claim: Claim) -> tuple[ClaimResult, list[str], tuple[Evidence, ...], str] | None:
        hit = self.entries.get(claim_key(claim))
        if not isinstance(hit, dict):
            return None
        try:
            result = ClaimResult.model_validate(hit["result"])
            evidence = tuple(_evidence(e) for e in hit["evidence"])
            warnings = [str(w) for w in hit["warnings"]]
            stripped = hit["stripped"]
            if not isinstance(stripped, str):
                return None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        result = result.model_copy(update={"id": claim.id, "claim": claim.text, "line": claim.line, "column": claim.column})
        return result, warnings, evidence, stripped

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
        sealed = seal(orjson.dumps({"name": self.name, "claims": self.entries}))
        if sealed is not None:
            write_atomic(self.root, self.name, sealed)


def _fingerprint(bundle: Bundle, file: EvidenceFile) -> tuple[Any, ...]:
    """What a bundle file is now: an edit in place, even of the same size with the mtime restored, changes it."""
    ident = file.identity
    head: tuple[Any, ...] = (file.rel,) if ident is None else (file.rel, ident.dev, ident.ino, ident.size, ident.mtime_ns,
                                                               ident.ctime_ns)
    if file.size > HASHED_BYTES:
        return head
    try:
        return (*head, hashlib.sha256(bundle.read_bytes(file, HASHED_BYTES + 1)).hexdigest())
    except UnreadableEvidence as exc:
        return (*head, exc.reason)


__all__ = ["ClaimCache", "claim_key"]
