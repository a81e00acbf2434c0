"""The hook's loop guard: how many times in a row it has blocked one agent from stopping.

A Stop hook that blocks makes the agent continue; the next stop then carries
``stop_hook_active: true``. The guard counts the blocks of such a chain per session (and per subagent)
in a small state file outside the evidence: ``$CITEPROOF_STATE_DIR``, else ``hook-state/`` in the
index cache directory (:func:`citeproof.evidence.cache.cache_dir`). A stop without
``stop_hook_active`` starts a new chain; a passing validation ends one. After ``hook_max_attempts``
blocks (default 3) the next stop is allowed and the user is told why, so a claim the agent cannot fix
never traps it. ``hook_max_attempts: 0`` never blocks a stop (report only).

State files older than a week are removed when a new one is written. A state file that cannot be
read counts as zero attempts; one that cannot be written is reported but does not stop the hook.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

from ..evidence.cache import cache_dir

MAX_AGE_S = 7 * 24 * 3600


def state_dir() -> Path:
    override = os.environ.get("CITEPROOF_STATE_DIR")
    return Path(override) if override else cache_dir() / "hook-state"


class Attempts:
    """The block count of one session (or subagent) chain."""

    def __init__(self, session_id: str, agent_id: str = "", root: Path | None = None) -> None:
        self.root = root or state_dir()
        digest = hashlib.sha256(f"{session_id}\0{agent_id}".encode()).hexdigest()[:32]
        self.path = self.root / f"attempts-{digest}.json"

    def count(self) -> int:
        try:
            value = json.loads(self.path.read_text(encoding="utf-8")).get("attempts", 0)
        except (OSError, ValueError, AttributeError):
            return 0
        return value if isinstance(value, int) and value >= 0 else 0

    def set(self, attempts: int) -> None:
        """Store ``attempts`` (0 removes the file). Raises OSError when it cannot be written."""
        if attempts == 0:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            return
        self.root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"attempts": attempts, "updated": time.time()}, fh)
        os.replace(tmp, self.path)
        self._prune()

    def _prune(self) -> None:
        cutoff = time.time() - MAX_AGE_S
        for old in self.root.glob("attempts-*.json"):
            with contextlib.suppress(OSError):
                if old.stat().st_mtime < cutoff:
                    old.unlink()


__all__ = ["Attempts", "state_dir"]
