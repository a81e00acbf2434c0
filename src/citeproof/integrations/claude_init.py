"""``citeproof init [DIR]``: set a project up for Claude Code.

It writes two things into DIR (default: the current directory):

* ``.claude/skills/validate/SKILL.md`` — the ``validate`` skill: when and how to cite evidence in
  the seven formats and check findings (:mod:`.skill_md`). An existing, different SKILL.md is kept
  unless ``--force``.
* ``.claude/settings.json`` — ``citeproof hook`` on Stop, SubagentStop and PostToolUse
  (Write|Edit|MultiEdit). The file is merged, not replaced: every other setting and hook stays as it
  was, and a hook already running ``citeproof hook`` is not added twice. A settings file that is
  not a JSON object is left alone and reported.

Running it again changes nothing. ``--evidence PATH`` puts ``--evidence PATH`` on the hook command
(otherwise the hook uses ``$CITEPROOF_EVIDENCE`` or the project's ``inv_context.json``).
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .skill_md import NAME, skill_md

HOOK_COMMAND = "citeproof hook"
HOOK_TIMEOUT_S = 120
EVENTS: dict[str, str | None] = {"Stop": None, "SubagentStop": None, "PostToolUse": "Write|Edit|MultiEdit"}


@dataclass(frozen=True)
class Change:
    path: Path
    action: str  # "created", "updated", "unchanged", "kept (differs; --force to overwrite)"

    def __str__(self) -> str:
        return f"{self.action}: {self.path}"


def init_project(directory: str | Path, *, evidence: str | None = None, force: bool = False) -> list[Change]:
    """Write the skill and merge the hook configuration into ``directory``; returns what was done."""
    root = Path(directory)
    if not root.is_dir():
        raise ConfigError("project directory not found", root)
    command = HOOK_COMMAND + (f" --evidence {shlex.quote(evidence)}" if evidence else "")
    settings = _merge_settings(root / ".claude" / "settings.json", command)  # first: it may refuse
    return [_write_skill(root / ".claude" / "skills" / NAME / "SKILL.md", force), settings]


def _write_skill(path: Path, force: bool) -> Change:
    text = skill_md()
    if path.is_file():
        if path.read_text(encoding="utf-8", errors="replace") == text:
            return Change(path, "unchanged")
        if not force:
            return Change(path, "kept (differs; --force to overwrite)")
        _atomic_write(path, text)
        return Change(path, "updated")
    _atomic_write(path, text)
    return Change(path, "created")


def _merge_settings(path: Path, command: str) -> Change:
    existed = path.is_file()
    settings: Any = {}
    if existed:
        try:
            settings = json.loads(path.read_text(encoding="utf-8-sig") or "{}")
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot merge the hook configuration: not valid JSON ({exc})", path) from None
        if not isinstance(settings, dict):
            raise ConfigError("cannot merge the hook configuration: the file is not a JSON object", path)
    merged = merge_hooks(settings, command)
    if merged == settings and existed:
        return Change(path, "unchanged")
    _atomic_write(path, json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    return Change(path, "updated" if existed else "created")


def merge_hooks(settings: dict[str, Any], command: str = HOOK_COMMAND) -> dict[str, Any]:
    """``settings`` with the citeproof hook on every event of :data:`EVENTS` (a new dict)."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError("cannot merge the hook configuration: 'hooks' in settings.json is not an object")
    hooks = dict(hooks)
    for event, matcher in EVENTS.items():
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise ConfigError(f"cannot merge the hook configuration: 'hooks.{event}' in settings.json is not a list")
        if any(_runs_us(g) for g in groups):
            continue
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}
        if matcher:
            group = {"matcher": matcher, **group}
        hooks[event] = [*groups, group]
    return {**settings, "hooks": hooks}


def _runs_us(group: Any) -> bool:
    entries = group.get("hooks") if isinstance(group, dict) else None
    for entry in entries or []:
        words = str(entry.get("command", "")).split() if isinstance(entry, dict) else []
        if len(words) >= 2 and Path(words[0]).name == "citeproof" and words[1] == "hook":
            return True
    return False


def _atomic_write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"cannot write ({exc.strerror or exc})", path) from None


__all__ = ["EVENTS", "HOOK_COMMAND", "Change", "init_project", "merge_hooks"]
