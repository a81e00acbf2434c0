"""The on-disk index cache, so that re-validating a bundle costs almost nothing.

Indexes (line offsets, HAR entry ranges, timestamp blocks) are stored outside the bundle, in
``$CITEPROOF_CACHE_DIR``, else ``$XDG_CACHE_HOME/citeproof``, else ``~/.cache/citeproof``.
Each entry is keyed by the evidence file as it was opened (:func:`file_key`: its real path, device, inode,
size, modification and change times, and for files up to :data:`HASHED_BYTES` a SHA-256 of the content)
and carries that key and a format version inside it.

A cache directory may be shared, so nothing in it is trusted because it is there: every entry (and the
claim cache's verdict files) is sealed with an HMAC-SHA256 under a per-user key kept outside the cache,
in ``$CITEPROOF_CACHE_KEY`` or ``$XDG_CONFIG_HOME/citeproof/cache.key`` (``~/.config/...``), created
with mode 0600 on first use. An entry whose seal, key or version does not match, that does not load, or
whose arrays fail the reader's own checks (shape, order, bounds) is a miss and is rebuilt — never an error.
Without a usable key file (one that others can read or write is not used) the cache is off. Entries are
written atomically (a temporary file renamed into place). Nothing is ever written inside an evidence
bundle: a cache directory that lies inside the bundle is not used.

``--no-cache`` (``use_cache=False``) turns the cache off for a run.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import secrets
import stat
import tempfile
import zipfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .access import read_regular

if TYPE_CHECKING:
    import numpy as np

FORMAT_VERSION = 4
HASHED_BYTES = 256 * 1024  # files up to this size are also keyed by their content
_MAC = 64  # hex digits of the HMAC-SHA256 that seals an entry
MAX_ENTRY_BYTES = 512 * 1024 * 1024  # a cache entry is read only if it is a regular file no larger than this


def cache_dir() -> Path:
    override = os.environ.get("CITEPROOF_CACHE_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "citeproof"


def file_key(fd: int, st: os.stat_result, real: str, content: bytes | memoryview | None = None) -> dict[str, Any]:
    """The key of an open evidence file: what it is now, so an edit in place (even with its mtime restored) is a miss."""
    key: dict[str, Any] = {"path": real, "dev": st.st_dev, "inode": st.st_ino, "size": st.st_size,
                           "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns}
    if st.st_size <= HASHED_BYTES:
        key["sha256"] = hashlib.sha256(content if content is not None else os.pread(fd, st.st_size, 0)).hexdigest()
    return key


def key_file() -> Path:
    override = os.environ.get("CITEPROOF_CACHE_KEY")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "citeproof" / "cache.key"


@cache
def _secret(path: Path) -> bytes | None:
    """The per-user sealing key: read, or created (0600) on first use; None when it cannot be trusted."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_hex(32).encode())
        except OSError:
            return None
        return _secret(path)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077 or st.st_uid != os.getuid():
            return None  # a key others can read or replace seals nothing
        data = fh.read(4096).strip()
    return data if len(data) >= 32 else None


def secret() -> bytes | None:
    return _secret(key_file())


def seal(payload: bytes) -> bytes | None:
    """``payload`` with its HMAC in front, or None without a key."""
    key = secret()
    if key is None:
        return None
    return hmac.new(key, payload, hashlib.sha256).hexdigest().encode() + b"\n" + payload


def unseal(data: bytes) -> bytes | None:
    """The payload of a sealed entry, or None when the seal is missing or wrong."""
    key = secret()
    if key is None or len(data) <= _MAC or data[_MAC:_MAC + 1] != b"\n":
        return None
    payload = data[_MAC + 1:]
    expected = hmac.new(key, payload, hashlib.sha256).hexdigest().encode()
    return payload if hmac.compare_digest(expected, data[:_MAC]) else None


def write_atomic(root: Path, name: str, data: bytes) -> None:
    """Write ``root/name`` by renaming a temporary file into place; a cache that cannot be written only costs speed."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".tmp-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, root / name)
    except OSError:
        return


class IndexCache:
    """Loads and stores index arrays for evidence files. Disabled when ``root`` is None."""

    def __init__(self, root: Path | None, bundle_root: Path | None = None) -> None:
        if root is not None and bundle_root is not None:
            real = os.path.realpath(root)
            bundle = os.path.realpath(bundle_root)
            if os.path.commonpath([real, bundle]) == bundle:
                root = None  # never write inside the evidence
        self.root = root

    def _entry(self, kind: str, key: dict[str, Any]) -> Path:
        digest = hashlib.sha256(json.dumps([kind, key, FORMAT_VERSION], sort_keys=True).encode()).hexdigest()[:40]
        assert self.root is not None
        return self.root / f"{kind}-{digest}.npz"

    def load(self, kind: str, key: dict[str, Any], valid: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any] | None:
        """The entry stored for ``key``, or None: a missing, unsealed, stale or malformed entry is a miss.
        ``valid`` is the reader's own check of the loaded fields and arrays."""
        import numpy as np
        if self.root is None:
            return None
        try:
            payload = unseal(read_regular(self._entry(kind, key), MAX_ENTRY_BYTES, nofollow=True))
            if payload is None:
                return None
            with np.load(io.BytesIO(payload), allow_pickle=False) as data:
                meta = json.loads(bytes(data["__meta__"]).decode())
                if not isinstance(meta, dict) or meta.get("key") != key or meta.get("version") != FORMAT_VERSION \
                        or meta.get("kind") != kind or not isinstance(meta.get("fields", {}), dict):
                    return None
                arrays = {name: data[name] for name in data.files if name != "__meta__"}
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, json.JSONDecodeError, EOFError, UnicodeDecodeError):
            return None
        loaded = {**meta.get("fields", {}), **arrays}
        try:
            return loaded if valid is None or valid(loaded) else None
        except (KeyError, TypeError, ValueError, IndexError):
            return None

    def store(self, kind: str, key: dict[str, Any], fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        import numpy as np
        if self.root is None:
            return
        meta = {"key": key, "version": FORMAT_VERSION, "kind": kind, "fields": fields}
        buf = io.BytesIO()
        payload: dict[str, Any] = {"__meta__": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays}
        np.savez(buf, **payload)
        sealed = seal(buf.getvalue())
        if sealed is not None:
            write_atomic(self.root, self._entry(kind, key).name, sealed)
