"""``--format markdown``: a concise report for a pull-request or ticket comment.

It opens with the verdict, the verification rate and the counts, then a table of the failing claims
(status, line in the findings, why, and the suggested fix), the contradictions, the numbered recovery
options, the unverified observations and warnings; the verified claims are folded in a
``<details>`` block. Example (abridged)::

    ### ⛔ citeproof: BLOCKED

    **5 of 15 claims failed validation (verification rate 0.667 < threshold 0.90); 2 contradictions**

    | Verification rate | Verified | Failed | Contradictions | Uncited | Unverified observations |
    |---|---|---|---|---|---|
    | **66.7%** (threshold 90%) | 10 / 15 | 5 | 2 | 1 | 0 |

The report fits a GitHub pull-request or issue comment (at most 65,536 characters): it is cut to
``--max-chars`` (default 65,000; 0 for no limit). The verdict and the summary always stay; then the
failing claims, contradictions, recovery options, unverified observations, warnings and verified
claims are kept in that order while they fit, and a last line in bold says how many of each were left
out and where the full report is (``--full-report`` names it, e.g. a CI artifact URL; otherwise the
command that prints it in full).

Claim and evidence text is untrusted: HTML and Markdown syntax in it is escaped (code spans such as
`` `demisto.log:349` `` stay code), table cells stay on one line, and ``@name`` mentions are
defused so a comment never notifies anyone.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import TextIO

from ..model import ClaimResult, Report, Verdict
from .base import Reporter, ReportSettings
from .common import STATUS_LABEL, failing, one_line, split_command

_CODE = re.compile(r"(`+)(.+?)\1")
_SPECIAL = re.compile(r"([\\`*\[\]<|~]|^#|(?<!\w)_|_(?!\w))")
_ENTITY = re.compile(r"&(?=#?\w+;)")
_MENTION = re.compile(r"(?<![\w@])@(?=\w)")
_CLAIM_LIMIT = 220
_CELL_LIMIT = 300
MAX_CHARS = 65_000  # a GitHub comment holds 65,536 characters


def md(text: str, limit: int = 0, table: bool = False) -> str:
    """Untrusted text as literal Markdown on one line; code spans are kept as code."""
    text = one_line(text, limit)
    out: list[str] = []
    pos = 0
    for m in _CODE.finditer(text):
        out.append(_plain(text[pos:m.start()]))
        out.append(_code(m.group(2), table))
        pos = m.end()
    out.append(_plain(text[pos:]))
    return "".join(out)


def _plain(text: str) -> str:
    text = _ENTITY.sub("&amp;", text)
    return _MENTION.sub("@\u200b", _SPECIAL.sub(r"\\\1", text))


def _code(text: str, table: bool) -> str:
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    if table:
        text = text.replace("|", "\\|")
    return f"{fence}{pad}{text}{pad}{fence}"


def code(text: str, table: bool = True) -> str:
    """Text shown as a code span (for citations and commands)."""
    return _code(one_line(text), table)


@dataclass(frozen=True)
class _Section:
    """A part of the report that can be cut: its heading lines, one line per item, its closing lines."""

    what: str  # "failing claims", ... as the "not shown" line names them
    head: list[str]
    items: list[str]
    tail: list[str]


class MarkdownReporter(Reporter):
    name = "markdown"
    description = "concise Markdown for a pull-request or ticket comment"

    def __init__(self, color: bool = False, *, max_chars: int = MAX_CHARS, full_report: str | None = None) -> None:
        super().__init__(color)
        self.max_chars = max_chars
        self.full_report = full_report

    @classmethod
    def configured(cls, settings: ReportSettings) -> MarkdownReporter:
        return cls(settings.color, max_chars=settings.max_chars, full_report=settings.full_report)

    def write(self, report: Report, stream: TextIO) -> None:
        stream.write("\n".join(self.lines(report)).rstrip("\n") + "\n")

    def lines(self, report: Report) -> list[str]:
        head, sections, foot = self._parts(report)
        whole = [*head, *(line for s in sections for line in (s.head + s.items + s.tail if s.items else [])), foot]
        if not self.max_chars or _size(whole) <= self.max_chars:
            return whole
        out = list(head)
        worst = self._note(report, [(s.what, len(s.items), len(s.items)) for s in sections if s.items])
        used = _size(out) + len(foot) + 1 + len(worst) + 2  # room for the "not shown" line and the blank line after it
        left: list[tuple[str, int, int]] = []  # (what, left out, of)
        full = False
        for section in sections:
            if not section.items:
                continue
            kept = 0
            if not full:
                frame = _size(section.head) + _size(section.tail)
                for item in section.items:
                    if used + frame + len(item) + 1 > self.max_chars:
                        full = True
                        break
                    if kept == 0:
                        out += section.head
                        used += _size(section.head)
                    out.append(item)
                    used += len(item) + 1
                    kept += 1
                if kept:
                    out += section.tail
                    used += _size(section.tail)
            if kept < len(section.items):
                left.append((section.what, len(section.items) - kept, len(section.items)))
        return [*out, self._note(report, left), "", foot]

    def _note(self, report: Report, left: list[tuple[str, int, int]]) -> str:
        parts = [f"{n} of the {total} {what}" for what, n, total in left]
        listed = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
        verb = "is" if len(parts) == 1 and left[0][1] == 1 else "are"
        if self.full_report:
            where = md(self.full_report, _CELL_LIMIT)
        else:
            command = ["citeproof", "check", report.source or "-", "--evidence", report.evidence_root or "BUNDLE",
                       "--format", "markdown", "--max-chars", "0"]
            where = code(" ".join(shlex.quote(c) for c in command), table=False) + " (with your other options)"
        return (f"**{listed} {verb} not shown**, to keep this report under {self.max_chars:,} characters "
                f"(a GitHub comment holds 65,536). The full report: {where}")

    def _parts(self, report: Report) -> tuple[list[str], list[_Section], str]:
        mark = "✅" if report.status is Verdict.PASSED else "⛔"
        failed = failing(report)
        head = [
            f"### {mark} citeproof: {report.status.value}",
            "",
            f"**{md(report.message.split(': ', 1)[-1])}**",
            "",
            "| Verification rate | Verified | Failed | Contradictions | Uncited | Unverified observations |",
            "|---|---|---|---|---|---|",
            f"| **{report.verification_rate:.1%}** (threshold {report.threshold:.0%}) | {report.verified_claims} / "
            f"{report.total_claims} | {len(failed)} | {report.contradictions} | {report.uncited_claims} | "
            f"{len(report.unverified_observations)} |",
            "",
        ]
        contradictions = []
        for f in report.contradiction_findings:
            claims = ", ".join(f"**{md(cid)}**" for cid in f.claims)
            contradictions.append(f"- *{md(f.rule)}* ({claims}): {md(f.detail)}. Resolution: {md(f.resolution, _CELL_LIMIT)}")
        verified = [c for c in report.claims if c.validated]
        sections = [
            _Section("failing claims", [f"#### Failing claims ({len(failed)})", "", "| Claim | Status | Line | Why | Suggestion |",
                                        "|---|---|---|---|---|"], [_failing_row(c) for c in failed], [""]),
            _Section("contradictions", [f"#### Contradictions ({len(report.contradiction_findings)})", ""], contradictions, [""]),
            _Section("recovery options", ["#### Recovery options", ""],
                     [f"{n}. {_option(option)}" for n, option in enumerate(report.recovery_options, 1)], [""]),
            _Section("unverified observations",
                     [f"#### Unverified observations ({len(report.unverified_observations)}, not counted)", ""],
                     [f"- **{md(c.id)}** (line {c.line}): {md(c.claim, _CLAIM_LIMIT)}" for c in report.unverified_observations], [""]),
            _Section("warnings", ["#### Warnings", ""], [f"- {md(w, _CELL_LIMIT)}" for w in report.warnings], [""]),
            _Section("verified claims", [f"<details><summary>Verified claims ({len(verified)})</summary>", "",
                                         "| Claim | Line | Evidence |", "|---|---|---|"],
                     [_verified_row(c) for c in verified], ["", "</details>", ""]),
        ]
        foot = f"<sub>citeproof {md(report.tool_version)} · threshold {report.threshold:.2f}</sub>"
        return head, sections, foot


def _size(lines: list[str]) -> int:
    """Characters of ``lines`` joined by newlines, with the final newline."""
    return sum(len(line) + 1 for line in lines)


def _line(claim: ClaimResult) -> str:
    return str(claim.line) if claim.line else "–"


def _failing_row(claim: ClaimResult) -> str:
    suggestions = [f"cite {code(c.suggestion)}" for c in claim.citations if c.suggestion]
    if not suggestions and claim.recovery:
        suggestions = [_option(claim.recovery[0], table=True)]
    cells = [
        f"**{md(claim.id, table=True)}** {md(claim.claim, _CLAIM_LIMIT, table=True)}",
        STATUS_LABEL[claim.status].lower(),
        _line(claim),
        md(claim.reason, _CELL_LIMIT, table=True),
        "<br>".join(suggestions) or "–",
    ]
    return "| " + " | ".join(cells) + " |"


def _verified_row(claim: ClaimResult) -> str:
    cited = ", ".join(code(where) for where in dict.fromkeys(c.location or c.citation for c in claim.citations))
    return f"| **{md(claim.id, table=True)}** {md(claim.claim, _CLAIM_LIMIT, table=True)} | {_line(claim)} | {cited or '–'} |"


def _option(option: str, table: bool = False) -> str:
    """A recovery option, with a shell command in it shown as code so it can be copied."""
    parts = split_command(option)
    if parts is None:
        return md(option, _CELL_LIMIT, table=table)
    lead, cmd, tail = parts
    return md(lead, table=table) + " " + code(cmd, table) + (" " + md(tail, table=table) if tail else "")
