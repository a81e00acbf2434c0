"""Record a validation in the investigation context, ``inv_context.json`` (``check --context FILE``).

Only the ``verification`` block is written; every other field keeps its value and its place::

    "verification": {
      "status": "BLOCKED",                 # PASSED | BLOCKED
      "verification_rate": 0.667,
      "threshold": 0.9,
      "total_claims": 15,
      "verified_claims": 10,
      "uncited_claims": ["The vendor API limit is 100 requests per minute."],
      "contradictions": ["... (factual)"],
      "message": "BLOCKED: ...",
      "validated_at": "2026-01-15T11:20:00Z",
      "tool": "citeproof",
      "tool_version": "0.1.0"
    }

Keys of an existing ``verification`` block that citeproof does not write (a reviewer's note, say)
are kept. The update is atomic: the new document is written to a temporary file beside the context,
flushed, and renamed over it, while an exclusive lock on the context file itself keeps two writers
(the hook and a CI run, say) from losing each other's update; a writer that wins the lock on a file
another writer has just replaced takes the lock again on the new one. No lock file is left beside
the context. The file's indentation and mode are kept.

The context file must be a JSON object. It is never written when it lies inside the evidence bundle:
evidence is read-only (a context shipped in the bundle is read as evidence, not updated).

An ``evidence_bundle`` field, a path relative to the context file, names the bundle the context
belongs to; :func:`bundle_of` reads it (the hook uses it to find the evidence).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import ConfigError
from ..evidence.access import open_regular, read_regular
from ..evidence.structured import MAX_DEPTH, too_deep
from ..model import Report
from .common import inside

MAX_CONTEXT_BYTES = 16 * 1024 * 1024


def verification_block(report: Report, now: dt.datetime | None = None) -> dict[str, Any]:
    """The ``verification`` fields for ``report``."""
    when = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    return {
        "status": report.status.value,
        "verification_rate": report.verification_rate,
        "threshold": report.threshold,
        "total_claims": report.total_claims,
        "verified_claims": report.verified_claims,
        "uncited_claims": list(report.uncited_claims_details),
        "contradictions": list(report.contradictions_details),
        "message": report.message,
        "validated_at": when.isoformat().replace("+00:00", "Z"),
        "tool": "citeproof",
        "tool_version": __version__,
    }


def update_verification(path: str | Path, report: Report, *, evidence_root: str | Path | None = None,
                        now: dt.datetime | None = None) -> dict[str, Any]:
    """Write ``report``'s verification block into the context file at ``path``; returns the block."""
    target = Path(os.path.realpath(path))  # resolved once: the file checked is the file written (a symlink keeps its link)
    if evidence_root is not None and inside(target, evidence_root):
        raise ConfigError("the context file lies inside the evidence bundle, which is read-only; "
                          "keep the inv_context.json you want updated outside the bundle", target)
    block = verification_block(report, now)
    with _locked(target):
        data, indent = _read(target)
        old = data.get("verification")
        data["verification"] = {**old, **block} if isinstance(old, dict) else block
        _write(target, data, indent)
    return block


def read_context(path: str | Path) -> dict[str, Any]:
    """The context document (a JSON object), or a :class:`ConfigError` naming the file."""
    return _read(Path(path))[0]


def bundle_of(path: str | Path) -> Path | None:
    """The bundle named by the context's ``evidence_bundle`` field (relative to the file), if any."""
    target = Path(path)
    value = read_context(target).get("evidence_bundle")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError("'evidence_bundle' must be a path (relative to the context file)", target)
    return (target.parent / value).resolve()


def _read(path: Path) -> tuple[dict[str, Any], int | None]:
    try:
        text = read_regular(path, MAX_CONTEXT_BYTES).decode("utf-8-sig")
    except FileNotFoundError:
        raise ConfigError("context file not found", path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the context file ({getattr(exc, 'strerror', None) or exc})", path) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"context file is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", path) from None
    except RecursionError:
        data = None
    if data is None or too_deep(data):
        raise ConfigError(f"context file is nested too deeply (more than {MAX_DEPTH} levels)", path)
    if not isinstance(data, dict):
        raise ConfigError("context file must hold a JSON object", path)
    m = re.search(r"\{\s*?\n([ \t]+)\S", text)
    indent = len(m.group(1).expandtabs(4)) if m else (None if "\n" not in text.strip() else 2)
    return data, indent


def _write(path: Path, data: dict[str, Any], indent: int | None) -> None:
    """Replace the file's content atomically (``path`` is already resolved: a symlinked context keeps its link)."""
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise ConfigError(f"cannot write the context file ({exc.strerror or exc})", path) from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive advisory lock on the context file itself (blocking), held on the file ``path`` names now."""
    while True:
        try:
            fd = open_regular(path)  # a FIFO or a device is an error, never a hang
        except FileNotFoundError:
            raise ConfigError("context file not found", path) from None
        except OSError as exc:
            raise ConfigError(f"cannot read the context file ({exc.strerror or exc})", path) from None
        try:
            _lock(fd)
            try:
                current = os.stat(path)
            except FileNotFoundError:
                current = None
            held = os.fstat(fd)
            if current is not None and (current.st_dev, current.st_ino) == (held.st_dev, held.st_ino):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # another writer replaced the file while we waited: lock the new one
    try:
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined,unused-ignore]
    else:
        fcntl.flock(fd, fcntl.LOCK_EX)


__all__ = ["bundle_of", "read_context", "update_verification", "verification_block"]
