"""The on-disk index cache, so that re-validating a bundle costs almost nothing.

Indexes (line offsets, HAR entry ranges, timestamp blocks) are stored outside the bundle, in
``$CITEPROOF_CACHE_DIR``, else ``$XDG_CACHE_HOME/citeproof``, else ``~/.cache/citeproof``.
Each entry is keyed by the evidence file's real path, size, modification time and inode, and carries
that key and a format version inside it: an entry whose key or version does not match, or that does
not load, is ignored and rebuilt — never trusted. Entries are written atomically (a temporary file
renamed into place). Nothing is ever written inside an evidence bundle: a cache directory that lies
inside the bundle is not used.

``--no-cache`` (``use_cache=False``) turns the cache off for a run.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

FORMAT_VERSION = 3


def cache_dir() -> Path:
    override = os.environ.get("CITEPROOF_CACHE_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "citeproof"


def file_key(path: Path) -> dict[str, Any]:
    st = os.stat(path)
    return {"path": os.path.realpath(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


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

    def load(self, kind: str, path: Path) -> dict[str, Any] | None:
        import numpy as np
        if self.root is None:
            return None
        key = file_key(path)
        entry = self._entry(kind, key)
        try:
            with np.load(entry, allow_pickle=False) as data:
                meta = json.loads(bytes(data["__meta__"]).decode())
                if meta.get("key") != key or meta.get("version") != FORMAT_VERSION or meta.get("kind") != kind:
                    return None
                arrays = {name: data[name] for name in data.files if name != "__meta__"}
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError, EOFError):
            return None
        return {**meta.get("fields", {}), **arrays}

    def store(self, kind: str, path: Path, fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        import numpy as np
        if self.root is None:
            return
        key = file_key(path)
        meta = {"key": key, "version": FORMAT_VERSION, "kind": kind, "fields": fields}
        buf = io.BytesIO()
        payload: dict[str, Any] = {"__meta__": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays}
        np.savez(buf, **payload)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".tmp-", suffix=".npz")
            with os.fdopen(fd, "wb") as fh:
                fh.write(buf.getvalue())
            os.replace(tmp, self._entry(kind, key))
        except OSError:
            return  # a cache that cannot be written only costs speed
