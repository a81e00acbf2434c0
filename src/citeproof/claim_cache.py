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
run afresh whenever any claim changed, since they look across claims.

A run whose findings text and source are also unchanged returns the stored report whole
(:class:`ReportCache`, a file per findings text beside the claims file), without loading the checking code.
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
from .model import Claim, ClaimResult, Evidence, Report


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


def run_key(bundle: Bundle, opts: Options) -> str:
    """The digest of everything but the claims that a verdict depends on: the build, the bundle's files, the options,
    the day."""
    files = sorted(_fingerprint(bundle, f) for f in bundle.files.values())
    day = (opts.now or dt.datetime.now(dt.UTC)).date().isoformat()
    settings = opts.model_dump(mode="json", exclude={"now"})
    return _digest([__version__, _rules(), str(bundle.root), bundle.shown(), files, settings, day])


def _load(root: Path | None, name: str, field: str) -> Any:
    """The ``field`` of the sealed cache file ``name``, or None when it is absent, altered or not ours."""
    if root is None:
        return None
    try:
        payload = unseal(read_regular(root / name, MAX_ENTRY_BYTES, nofollow=True))
        loaded = orjson.loads(payload) if payload is not None else {}
    except (OSError, orjson.JSONDecodeError):
        return None
    # the seal covers the name too: a sealed file copied over another bundle's or options' name is a miss
    return loaded.get(field) if isinstance(loaded, dict) and loaded.get("name") == name else None


def _save(root: Path | None, name: str, field: str, value: Any) -> None:
    if root is None:
        return
    sealed = seal(orjson.dumps({"name": name, field: value}))
    if sealed is not None:
        write_atomic(root, name, sealed)


class ClaimCache:
    """Loads the verdicts of a bundle + options once per run and writes them back at the end."""

    def __init__(self, bundle: Bundle, opts: Options, key: str | None = None) -> None:
        self.bundle = bundle
        self.root = bundle.index_cache.root
        self.name = f"claims-{key or run_key(bundle, opts)}.json"
        loaded = _load(self.root, self.name, "claims")
        self.entries: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
        self.dirty = False

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
        if self.dirty:
            _save(self.root, self.name, "claims", self.entries)


class ReportCache:
    """The whole report of a run, kept under the digest of its findings text and source and of :func:`run_key`:
    a re-run on unchanged inputs returns it without checking anything. A file that is altered, not sealed by
    this installation, or not a valid report is a miss."""

    def __init__(self, bundle: Bundle, opts: Options, text: str, source: str) -> None:
        self.root = bundle.index_cache.root
        self.run_key = run_key(bundle, opts) if self.root is not None else None
        rejected = sorted(bundle.rejected.items())
        self.name = f"report-{_digest([self.run_key, text, source, rejected])}.json"

    def get(self) -> Report | None:
        stored = _load(self.root, self.name, "report")
        if not isinstance(stored, dict):
            return None
        try:
            return Report.model_validate(stored)
        except ValueError:  # pydantic's ValidationError: a stored shape this build does not read
            return None

    def put(self, report: Report) -> None:
        _save(self.root, self.name, "report", report.model_dump(mode="json"))


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


__all__ = ["ClaimCache", "ReportCache", "claim_key", "run_key"]
