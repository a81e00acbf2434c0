"""``citeproof hook``: the gate as a Claude Code hook (Stop, SubagentStop, PostToolUse).

Wire it with ``citeproof init`` or by hand in ``.claude/settings.json``::

    {"hooks": {
      "Stop":         [{"hooks": [{"type": "command", "command": "citeproof hook", "timeout": 120}]}],
      "SubagentStop": [{"hooks": [{"type": "command", "command": "citeproof hook", "timeout": 120}]}],
      "PostToolUse":  [{"matcher": "Write|Edit|MultiEdit",
                        "hooks": [{"type": "command", "command": "citeproof hook", "timeout": 120}]}]}}

What it does with the payload on stdin (see :mod:`.hook_input`):

1. Takes the findings: the agent's last message (Stop/SubagentStop) or the findings file it just
   wrote (PostToolUse). An agent message with no citation in any of the seven formats and no
   "Findings"/"Root cause" heading is not findings: it passes through unchecked.
2. Finds the evidence: ``--evidence PATH``, else ``$CITEPROOF_EVIDENCE``, else the context file
   (``--context FILE``, ``$CITEPROOF_CONTEXT``, ``context:`` in the config file, or
   ``inv_context.json`` in the project directory): its ``evidence_bundle`` field, or the folder it
   is in. Relative paths are taken from the payload's ``cwd``. Options come from ``--config``,
   ``$CITEPROOF_CONFIG``, or the config file discovered from the payload's ``cwd`` upward
   (:func:`citeproof.config.discover_config`).
3. Calls :func:`citeproof.validate`. PASSED: allow (no output). BLOCKED: block, with the failed
   claims, why each failed and how to recover (see :mod:`.hook_protocol`).
4. Records the result in the ``verification`` block (:mod:`.inv_context`) of the context file the
   user *named* (``--context``, ``$CITEPROOF_CONTEXT`` or ``context:`` in the config), when it lies
   outside the bundle. An ``inv_context.json`` that is only found in the project directory is read
   for the bundle's path, never written: it may be a tracked file.

The loop guard (:mod:`.hook_state`) lets a stop through after ``hook_max_attempts`` blocks in a row
(default 3), telling the user why. When the hook itself fails (no bundle, unreadable transcript, bad
config, a bug) it blocks and says why — it fails closed — unless ``--fail-open`` /
``$CITEPROOF_HOOK_FAIL_OPEN=1`` / ``hook_fail_open: true``, which allows and reports the error.
It always exits 0: the answer is in the JSON (see :mod:`.hook_protocol`).
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..citations import find_citations
from ..config import Options, discover_config, make_options
from ..engine import validate
from ..errors import CiteproofError
from .common import as_findings_text, inside
from .hook_input import FINDINGS_PATTERNS, Findings, HookEvent, HookInputError, findings_of, parse_payload
from .hook_protocol import ALLOW, HookAnswer, blocked_reason, failure_reason
from .hook_state import Attempts
from .inv_context import bundle_of, update_verification

CONTEXT_NAME = "inv_context.json"
_HEADING = re.compile(r"^[ \t]{0,3}(?:#{1,6}[ \t]*|\*\*)[^\n]*\b(?:findings?|root[ \t]+cause)\b", re.I | re.M)


@dataclass(frozen=True)
class HookSettings:
    """Command-line settings of the hook; ``None`` leaves the config file's (or the default) value."""

    evidence: Path | None = None
    context: Path | None = None
    config: Path | None = None
    threshold: float | None = None
    jira_url: str | None = None
    max_attempts: int | None = None
    fail_open: bool | None = None
    patterns: tuple[str, ...] = FINDINGS_PATTERNS
    state_dir: Path | None = None


def run_hook(raw: str, settings: HookSettings) -> HookAnswer:
    """The answer to one hook payload; never raises."""
    event: HookEvent | None = None
    fail_open = bool(settings.fail_open)
    max_attempts = 3 if settings.max_attempts is None else settings.max_attempts
    try:
        try:
            event, bad_payload = parse_payload(raw), None
        except HookInputError as exc:
            bad_payload = exc
        config = settings.config if settings.config is not None else discover_config(event.cwd if event else None)
        opts = make_options(config, threshold=settings.threshold, jira_url=settings.jira_url,
                            hook_max_attempts=settings.max_attempts, hook_fail_open=settings.fail_open)
        fail_open, max_attempts = opts.hook_fail_open, opts.hook_max_attempts
        if bad_payload is not None or event is None:
            raise bad_payload or HookInputError("no hook payload")
        answer = _check(event, settings, opts)
    except Exception as exc:  # fail closed (or open, when asked), always saying why
        why = str(exc) if isinstance(exc, CiteproofError) else f"internal error {type(exc).__name__}: {exc}"
        reason = failure_reason(why, fail_open)
        answer = HookAnswer(block=False, message=reason) if fail_open else HookAnswer(block=True, reason=reason, message=why)
    if event is not None and event.is_stop:
        answer = _guard(event, answer, max_attempts, settings.state_dir)
    return answer


def is_findings(text: str) -> bool:
    """Whether an agent message is findings: it cites evidence, or has a Findings/Root cause heading."""
    return bool(_HEADING.search(text)) or bool(find_citations(text))


def _check(event: HookEvent, settings: HookSettings, opts: Options) -> HookAnswer:
    findings = findings_of(event, settings.patterns)
    if findings is None or (findings.path is None and not is_findings(findings.text)):
        return ALLOW
    evidence, named = locate(event, settings, opts)
    if not evidence.exists():
        raise HookInputError("evidence bundle not found", evidence)
    report = validate(findings.path or as_findings_text(findings.text), evidence, options=opts)
    if named is not None and not inside(named, evidence):
        update_verification(named, report, evidence_root=evidence)
    if report.passed:
        return ALLOW
    return HookAnswer(block=True, reason=blocked_reason(report, findings.source, str(evidence), _recheck(findings, evidence)))


def locate(event: HookEvent, settings: HookSettings, opts: Options | None = None) -> tuple[Path, Path | None]:
    """The evidence bundle for this event, and the context file the user named (the only one ever written)."""
    base = event.cwd or Path.cwd()
    given = settings.context or (Path(opts.context) if opts is not None and opts.context else None)
    named = base / given if given is not None else None
    context = named if named is not None else (base / CONTEXT_NAME if (base / CONTEXT_NAME).is_file() else None)
    if settings.evidence is not None:
        return base / settings.evidence, named
    if context is not None:
        return bundle_of(context) or context.resolve().parent, named
    raise HookInputError(
        "no evidence bundle to check the findings against: pass --evidence PATH, set CITEPROOF_EVIDENCE, "
        f"or put an {CONTEXT_NAME} with an \"evidence_bundle\" path in the project directory ({base})"
    )


def _recheck(findings: Findings, evidence: Path) -> str | None:
    if findings.path is None:
        return None
    return f"citeproof check {shlex.quote(str(findings.path))} --evidence {shlex.quote(str(evidence))}"


def _guard(event: HookEvent, answer: HookAnswer, max_attempts: int, root: Path | None) -> HookAnswer:
    """Let a stop through after ``max_attempts`` blocks in a row (see :mod:`.hook_state`)."""
    attempts = Attempts(event.session_id, event.agent_id, root)
    count = attempts.count() if event.stop_hook_active else 0
    try:
        if not answer.block:
            attempts.set(0)
            return answer
        if count >= max_attempts:
            attempts.set(0)
            first = answer.reason.split("\n", 1)[0]
            return HookAnswer(block=False, message=(
                f"citeproof let the agent stop although the findings are not verified: it already blocked "
                f"{count} time(s) in a row (hook_max_attempts={max_attempts}). {first}"))
        attempts.set(count + 1)
    except OSError as exc:
        if not event.stop_hook_active:
            return answer
        return HookAnswer(block=False, message=(
            f"citeproof let the agent stop: it cannot count its attempts in {attempts.root} "
            f"({exc.strerror or exc}), so it will not risk an endless loop. {answer.reason.split(chr(10), 1)[0]}"))
    note = f"\n\n(citeproof block {count + 1} of at most {max_attempts}; after that the stop is allowed.)"
    return dataclasses.replace(answer, reason=answer.reason + note)


__all__ = ["HookSettings", "is_findings", "locate", "run_hook"]
