"""The hook's answer, in Claude Code's hook protocol.

The hook always exits 0 and answers on stdout:

* **allow** — no output at all (or ``{"systemMessage": "..."}`` when the user should be told
  something, e.g. that the loop guard let a blocked agent stop);
* **block** — ``{"decision": "block", "reason": "..."}``. For Stop/SubagentStop the reason becomes
  the agent's next instruction; for PostToolUse it is feedback on the file just written (the write
  itself cannot be undone).

Exit code 2 (block with stderr) and 1 (a non-blocking error in Claude Code) are never used, so a
CI-style "1 = BLOCKED" can never be mistaken for a hook error. The reason lists the failed claims
with why each failed and how to recover, the contradictions, and the ways forward; it is kept under
:data:`MAX_REASON_CHARS` by listing fewer claims (and saying how many were left out).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..model import ClaimStatus, Report

MAX_REASON_CHARS = 9_000  # Claude Code's limit is 10,000
_CLAIM_CHARS, _WHY_CHARS, _TRY_CHARS, _TRIES = 240, 320, 260, 3


@dataclass(frozen=True)
class HookAnswer:
    block: bool
    reason: str = ""
    message: str = ""  # shown to the user (systemMessage)

    def render(self) -> str:
        """The stdout of the hook: a JSON line, or nothing."""
        out: dict[str, str] = {}
        if self.block:
            out = {"decision": "block", "reason": clip(self.reason, 9_900, flat=False)}
        if self.message:
            out["systemMessage"] = clip(self.message, 2_000, flat=False)
        return json.dumps(out, ensure_ascii=False) + "\n" if out else ""


ALLOW = HookAnswer(block=False)


def clip(text: str, limit: int, flat: bool = True) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut); ``flat`` joins its lines."""
    text = " ".join(text.split()) if flat else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def blocked_reason(report: Report, source: str, evidence: str, recheck: str | None = None) -> str:
    """Why the findings were blocked and what the agent can do about it."""
    head = report.message.removeprefix("BLOCKED: ")
    parts = [f"citeproof BLOCKED the findings ({source}, evidence: {evidence}): {head}.", ""]
    failed = [c for c in report.claims if c.status is not ClaimStatus.VERIFIED]
    tail = _tail(report, recheck)
    budget = MAX_REASON_CHARS - len(tail) - sum(len(p) + 1 for p in parts) - 200
    if failed:
        parts.append("Failed claims (fix each, then finish again):")
        for shown, claim in enumerate(failed):
            lines = [f"- {claim.id} [{claim.status.value}] \"{clip(claim.claim, _CLAIM_CHARS)}\"",
                     f"  why: {clip(claim.reason, _WHY_CHARS)}"]
            lines += [f"  try: {clip(r, _TRY_CHARS)}" for r in claim.recovery[:_TRIES]]
            block = "\n".join(lines)
            if len(block) + 1 > budget:
                parts.append(f"- ... and {len(failed) - shown} more failed claims not listed here")
                break
            parts.append(block)
            budget -= len(block) + 1
    return "\n".join([*parts, tail])[:MAX_REASON_CHARS]


def _tail(report: Report, recheck: str | None) -> str:
    lines: list[str] = []
    if report.contradiction_findings:
        lines.append("Contradictions:")
        for f in report.contradiction_findings[:10]:
            lines.append(f"- {f.rule} ({', '.join(f.claims)}): {clip(f.detail, _WHY_CHARS)} Resolution: {clip(f.resolution, _WHY_CHARS)}")
    if len(report.unverified_observations) > report.max_unverified:
        lines.append(f"Unverified observations: {len(report.unverified_observations)} (at most {report.max_unverified} allowed).")
    if report.total_claims == 0:
        lines.append("No factual claims were found: state each finding as a sentence with its citation.")
    lines += [
        "",
        "Ways forward for each failed claim: correct its citation (e.g. demisto.log:4521, capture.har:entry-145, "
        "timestamp:2026-01-15T10:30:45Z, pattern:P-127, JIRA:XSUP-48213, config:file.yaml#a.b, env:version=8.9.0); "
        "cite evidence for an uncited claim; reword it to say only what the evidence shows; remove it; or disclose it as "
        f"'Note: Unverified assumption - ...' (at most {report.max_unverified} such notes).",
    ]
    if recheck:
        lines.append(f"Re-check before finishing: {recheck}")
    return "\n".join(lines)


def failure_reason(why: str, fail_open: bool) -> str:
    if fail_open:
        return f"citeproof could not validate the findings and let the agent continue (hook_fail_open): {why}"
    return (
        f"citeproof could not validate the findings, and blocks by default when it cannot (fail closed): {why}\n"
        "Fix the cause if it is yours to fix (a findings file, the evidence path). Otherwise tell the user; "
        "they can set CITEPROOF_EVIDENCE, pass --evidence, or allow such errors with --fail-open "
        "(hook_fail_open: true)."
    )


__all__ = ["ALLOW", "MAX_REASON_CHARS", "HookAnswer", "blocked_reason", "clip", "failure_reason"]
