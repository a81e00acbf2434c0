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

Claim and evidence text is untrusted: HTML and Markdown syntax in it is escaped (code spans such as
`` `demisto.log:349` `` stay code), table cells stay on one line, and ``@name`` mentions are
defused so a comment never notifies anyone.
"""

from __future__ import annotations

import re
from typing import TextIO

from ..model import ClaimResult, Report, Verdict
from .base import Reporter
from .common import STATUS_LABEL, failing, one_line, split_command

_CODE = re.compile(r"(`+)(.+?)\1")
_SPECIAL = re.compile(r"([\\`*\[\]<|~]|^#|(?<!\w)_|_(?!\w))")
_ENTITY = re.compile(r"&(?=#?\w+;)")
_MENTION = re.compile(r"(?<![\w@])@(?=\w)")
_CLAIM_LIMIT = 220
_CELL_LIMIT = 300


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


class MarkdownReporter(Reporter):
    name = "markdown"
    description = "concise Markdown for a pull-request or ticket comment"

    def write(self, report: Report, stream: TextIO) -> None:
        stream.write("\n".join(self.lines(report)).rstrip("\n") + "\n")

    def lines(self, report: Report) -> list[str]:
        mark = "✅" if report.status is Verdict.PASSED else "⛔"
        failed = failing(report)
        out = [
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
        if failed:
            out += [f"#### Failing claims ({len(failed)})", "", "| Claim | Status | Line | Why | Suggestion |", "|---|---|---|---|---|"]
            out += [_failing_row(c) for c in failed]
            out.append("")
        if report.contradiction_findings:
            out += [f"#### Contradictions ({len(report.contradiction_findings)})", ""]
            for f in report.contradiction_findings:
                claims = ", ".join(f"**{md(cid)}**" for cid in f.claims)
                out.append(f"- *{md(f.rule)}* ({claims}): {md(f.detail)}. Resolution: {md(f.resolution, _CELL_LIMIT)}")
            out.append("")
        if report.recovery_options:
            out += ["#### Recovery options", ""]
            out += [f"{n}. {_option(option)}" for n, option in enumerate(report.recovery_options, 1)]
            out.append("")
        if report.unverified_observations:
            out += [f"#### Unverified observations ({len(report.unverified_observations)}, not counted)", ""]
            out += [f"- **{md(c.id)}** (line {c.line}): {md(c.claim, _CLAIM_LIMIT)}" for c in report.unverified_observations]
            out.append("")
        if report.warnings:
            out += ["#### Warnings", ""]
            out += [f"- {md(w, _CELL_LIMIT)}" for w in report.warnings]
            out.append("")
        verified = [c for c in report.claims if c.validated]
        if verified:
            out += [f"<details><summary>Verified claims ({len(verified)})</summary>", "",
                    "| Claim | Line | Evidence |", "|---|---|---|"]
            out += [_verified_row(c) for c in verified]
            out += ["", "</details>", ""]
        out.append(f"<sub>citeproof {md(report.tool_version)} · threshold {report.threshold:.2f}</sub>")
        return out


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
