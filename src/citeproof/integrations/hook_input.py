"""What a Claude Code hook receives: the payload on stdin, and the findings it points at.

The payload is a JSON object; fields differ between Claude Code versions, so every one is optional
and checked for its type. Common: ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``.
Stop and SubagentStop add ``stop_hook_active`` and (newer versions) ``last_assistant_message``;
SubagentStop adds ``agent_id`` and ``agent_transcript_path``; PostToolUse adds ``tool_name`` and
``tool_input`` (``file_path``, and ``content`` for Write).

Where the findings come from:

* **Stop** — ``last_assistant_message``; else the last assistant message of ``transcript_path``
  (sidechain lines, i.e. subagents' messages, skipped).
* **SubagentStop** — ``last_assistant_message``; else the subagent's own transcript
  (``agent_transcript_path``); else the last *sidechain* assistant message of ``transcript_path``.
* **PostToolUse** — a Write/Edit/MultiEdit of a file whose name matches the findings patterns
  (``*findings*``, ``*claims*.json`` by default): the file as written (or ``tool_input.content``).

A transcript is JSON Lines; one assistant message may span several lines that share ``message.id``
(one line per content block): their ``text`` blocks are joined in order, and ``thinking``,
``tool_use`` and other blocks are ignored. The last assistant message that has text wins; lines that
do not parse (a transcript being written) are skipped. The file is read line by line.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CiteproofError, FindingsError
from ..evidence.access import open_regular

STOP_EVENTS = ("Stop", "SubagentStop")
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")
FINDINGS_PATTERNS = ("*findings*", "*claims*.json")
MAX_PAYLOAD_BYTES = 16 * 1024 * 1024


class HookInputError(CiteproofError):
    """The hook payload or the transcript it names cannot be used."""

    code = "EG011"


@dataclass(frozen=True)
class HookEvent:
    """The fields of a hook payload citeproof uses (defaults when absent or mistyped)."""

    event: str = ""
    session_id: str = ""
    cwd: Path | None = None
    transcript_path: Path | None = None
    stop_hook_active: bool = False
    last_assistant_message: str | None = None
    agent_id: str = ""
    agent_transcript_path: Path | None = None
    tool_name: str = ""
    tool_input: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def is_stop(self) -> bool:
        return self.event in STOP_EVENTS


@dataclass(frozen=True)
class Findings:
    text: str
    source: str  # shown to the user: "last_assistant_message", a transcript or a file path
    path: Path | None = None  # the findings file, for PostToolUse


def parse_payload(raw: str) -> HookEvent:
    """The hook payload (a JSON object) -> :class:`HookEvent`."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise HookInputError(f"hook payload is larger than {MAX_PAYLOAD_BYTES} bytes")
    if not raw.strip():
        raise HookInputError("no hook payload on stdin (expected the JSON object Claude Code sends)")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise HookInputError(f"hook payload is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, dict):
        raise HookInputError(f"hook payload must be a JSON object, not {type(data).__name__}")
    cwd = _path(data.get("cwd"), None)

    def text(key: str) -> str:
        value = data.get(key)
        return value if isinstance(value, str) else ""

    last = data.get("last_assistant_message")
    tool_input = data.get("tool_input")
    return HookEvent(
        event=text("hook_event_name"),
        session_id=text("session_id"),
        cwd=cwd,
        transcript_path=_path(data.get("transcript_path"), cwd),
        stop_hook_active=data.get("stop_hook_active") is True,
        last_assistant_message=last if isinstance(last, str) else None,
        agent_id=text("agent_id"),
        agent_transcript_path=_path(data.get("agent_transcript_path"), cwd),
        tool_name=text("tool_name"),
        tool_input=tool_input if isinstance(tool_input, dict) else {},
    )


def _path(value: Any, cwd: Path | None) -> Path | None:
    if not isinstance(value, str) or not value.strip():
        return None
    path = Path(value).expanduser()
    return path if path.is_absolute() or cwd is None else cwd / path


def findings_of(event: HookEvent, patterns: Iterable[str] = FINDINGS_PATTERNS) -> Findings | None:
    """The findings this event carries, or None when it carries none (nothing to check)."""
    if event.is_stop:
        if event.last_assistant_message and event.last_assistant_message.strip():
            return Findings(event.last_assistant_message, "last_assistant_message")
        if event.event == "SubagentStop" and event.agent_transcript_path is not None:
            return _from_transcript(event.agent_transcript_path, sidechain=None)
        if event.transcript_path is not None:
            return _from_transcript(event.transcript_path, sidechain=event.event == "SubagentStop")
        return None
    if event.event == "PostToolUse" and event.tool_name in WRITE_TOOLS:
        return _written_file(event, tuple(patterns))
    return None


def _from_transcript(path: Path, sidechain: bool | None) -> Findings | None:
    text = last_assistant_text(path, sidechain)
    return Findings(text, str(path)) if text and text.strip() else None


def _written_file(event: HookEvent, patterns: tuple[str, ...]) -> Findings | None:
    target = _path(event.tool_input.get("file_path"), event.cwd)
    if target is None or not any(fnmatch.fnmatch(target.name.lower(), p.lower()) for p in patterns):
        return None
    try:
        from ..extract import load_findings  # the checking code, imported when a findings file is read

        return Findings(load_findings(target), str(target), target)
    except FindingsError as exc:
        content = event.tool_input.get("content")
        if isinstance(content, str):
            return Findings(content, str(target), target)
        raise HookInputError(f"cannot read the findings file just written ({exc.message})", target) from None


def last_assistant_text(path: Path, sidechain: bool | None = False) -> str | None:
    """Text of the last assistant message with text in a transcript (JSONL).

    ``sidechain``: False skips sidechain lines, True keeps only them, None keeps every line.
    """
    best: list[str] = []
    current_id: object = None
    current: list[str] = []
    try:
        with open(open_regular(path), encoding="utf-8", errors="replace") as fh:
            for line in fh:
                entry = _assistant_entry(line, sidechain)
                if entry is None:
                    continue
                message_id, texts = entry
                if message_id != current_id:
                    if current:
                        best = current
                    current_id, current = message_id, []
                current.extend(texts)
    except OSError as exc:
        raise HookInputError(f"cannot read the transcript ({exc.strerror or exc})", path) from None
    chosen = current or best
    return "\n\n".join(chosen) if chosen else None


def _assistant_entry(line: str, sidechain: bool | None) -> tuple[object, list[str]] | None:
    if '"assistant"' not in line:
        return None
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.get("type") != "assistant":
        return None
    if sidechain is not None and (data.get("isSidechain") is True) != sidechain:
        return None
    message = data.get("message")
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    texts = [b["text"] for b in blocks or [] if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    message_id = message.get("id") or data.get("uuid") or object()
    return message_id, texts


__all__ = ["FINDINGS_PATTERNS", "Findings", "HookEvent", "HookInputError", "findings_of", "last_assistant_text", "parse_payload"]
