"""``citeproof init [DIR]``: set a project up for Claude Code.

It writes two things into DIR (default: the current directory):

* ``.claude/skills/validate/SKILL.md`` — the ``validate`` skill: when and how to cite evidence in
  the seven formats and check findings (:mod:`.skill_md`). An existing, different SKILL.md is kept
  unless ``--force``.
* ``.claude/settings.json`` — ``citeproof hook`` on Stop, SubagentStop and PostToolUse
  (Write|Edit|MultiEdit). The file is merged, not replaced: every other setting and hook stays as it
  was, and a hook already running ``citeproof hook`` is not added twice. A settings file that is
  not a JSON object is left alone and reported.

Running it again with the same options (or none) changes nothing ("unchanged"). Run with another
``--evidence ./other``, it sets that option on its own entries — the hooks whose command runs
``citeproof hook``, keeping their other flags and the program's path — and touches no other entry
("updated"). ``--evidence PATH`` puts ``--evidence
PATH`` on the hook command (otherwise the hook uses ``$CITEPROOF_EVIDENCE`` or the project's
``inv_context.json``). A rewritten file keeps its permission bits; a new one gets the usual ones
(``0666`` less the umask, typically ``644``).
"""

from __future__ import annotations

import contextlib
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
    settings = _merge_settings(root / ".claude" / "settings.json", evidence)  # first: it may refuse
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


def _merge_settings(path: Path, evidence: str | None) -> Change:
    existed = path.is_file()
    settings: Any = {}
    if existed:
        try:
            settings = json.loads(path.read_text(encoding="utf-8-sig") or "{}")
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot merge the hook configuration: not valid JSON ({exc})", path) from None
        if not isinstance(settings, dict):
            raise ConfigError("cannot merge the hook configuration: the file is not a JSON object", path)
    merged = merge_hooks(settings, evidence)
    if merged == settings and existed:
        return Change(path, "unchanged")
    _atomic_write(path, json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    return Change(path, "updated" if existed else "created")


def merge_hooks(settings: dict[str, Any], evidence: str | None = None) -> dict[str, Any]:
    """``settings`` with the citeproof hook on every event of :data:`EVENTS` (a new dict). An event without it
    gets a new group; with ``evidence``, our existing entries get ``--evidence EVIDENCE`` (other flags kept);
    every other entry is kept as it is."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError("cannot merge the hook configuration: 'hooks' in settings.json is not an object")
    hooks = dict(hooks)
    command = HOOK_COMMAND + (f" --evidence {shlex.quote(evidence)}" if evidence else "")
    for event, matcher in EVENTS.items():
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise ConfigError(f"cannot merge the hook configuration: 'hooks.{event}' in settings.json is not a list")
        if any(_runs_us(g) for g in groups):
            if evidence is not None:
                hooks[event] = [_with_evidence(g, evidence) if _runs_us(g) else g for g in groups]
            continue
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}
        if matcher:
            group = {"matcher": matcher, **group}
        hooks[event] = [*groups, group]
    return {**settings, "hooks": hooks}


def _with_evidence(group: dict[str, Any], evidence: str) -> dict[str, Any]:
    """The group with ``--evidence EVIDENCE`` on each of its entries that runs ``citeproof hook`` (other keys kept)."""
    entries = [{**e, "command": set_evidence(str(e["command"]), evidence)} if _is_us(e) else e for e in group["hooks"]]
    return {**group, "hooks": entries}


def set_evidence(command: str, evidence: str) -> str:
    """A ``citeproof hook`` command line with its ``--evidence``/``-e`` option set to ``evidence``; unchanged when it
    already is (so the file is not rewritten)."""
    try:
        words = shlex.split(command)
    except ValueError:  # unbalanced quotes: ours, but unreadable; write a fresh one
        return f"{HOOK_COMMAND} --evidence {shlex.quote(evidence)}"
    kept: list[str] = []
    current: str | None = None
    skip = False
    for n, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word in ("--evidence", "-e") and n + 1 < len(words):
            current, skip = words[n + 1], True
        elif word.startswith("--evidence="):
            current = word.split("=", 1)[1]
        else:
            kept.append(word)
    if current == evidence:
        return command
    return shlex.join([*kept, "--evidence", evidence])


def _is_us(entry: Any) -> bool:
    words = str(entry.get("command", "")).split() if isinstance(entry, dict) else []
    return len(words) >= 2 and Path(words[0]).name == "citeproof" and words[1] == "hook"


def _runs_us(group: Any) -> bool:
    entries = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(entries, list) and any(_is_us(entry) for entry in entries)


def _atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically, keeping its mode (a new file: 0666 less the umask)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise ConfigError(f"cannot write ({exc.strerror or exc})", path) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


__all__ = ["EVENTS", "HOOK_COMMAND", "Change", "init_project", "merge_hooks", "set_evidence"]
