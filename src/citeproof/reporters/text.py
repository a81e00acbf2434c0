"""``--format text`` (the default): a readable report for a terminal, coloured when it is one.

One line per claim with its status, each failing citation with its reason and, where there is one,
the suggested correction; then the recovery options and warnings. Verified claims show their
citations briefly. Lines are not wrapped by the reporter, so the output is the same at any width.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.markup import escape

from ..model import ClaimResult, ClaimStatus, Report, Verdict
from .base import Reporter

_STYLE = {
    ClaimStatus.VERIFIED: ("✔", "green"),
    ClaimStatus.UNCITED: ("✘", "red"),
    ClaimStatus.INVALID_CITATION: ("✘", "red"),
    ClaimStatus.MISSING_EVIDENCE: ("✘", "red"),
    ClaimStatus.UNSUPPORTED: ("✘", "red"),
    ClaimStatus.CONTRADICTED: ("✘", "bold red"),
    ClaimStatus.UNVERIFIED_OBSERVATION: ("?", "yellow"),
}


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class TextReporter(Reporter):
    name = "text"
    description = "human-readable report (coloured on a terminal)"

    def write(self, report: Report, stream: TextIO) -> None:
        out = Console(file=stream, force_terminal=self.color, no_color=not self.color, highlight=False,
                      soft_wrap=True, width=200, emoji=False)
        verdict_style = "bold green" if report.status is Verdict.PASSED else "bold red"
        out.print(f"[{verdict_style}]{report.status.value}[/] {escape(report.message.split(': ', 1)[-1])}")
        out.print(
            f"verification rate {report.verification_rate:.3f} "
            f"({report.verified_claims}/{report.total_claims} verified, threshold {report.threshold:.2f}) · "
            f"{report.contradictions} contradiction{'s' if report.contradictions != 1 else ''} · "
            f"{report.uncited_claims} uncited"
        )
        out.print()
        for claim in report.claims:
            self._claim(out, claim)
        if report.unverified_observations:
            out.print()
            out.print("[bold]Unverified observations[/] (not counted in the rate)")
            for claim in report.unverified_observations:
                self._claim(out, claim)
        for finding in report.contradiction_findings:
            out.print(f"[bold red]contradiction[/] ({finding.rule}) {', '.join(finding.claims)}: {escape(finding.detail)}")
            out.print(f"    resolution: {escape(finding.resolution)}")
        if report.recovery_options:
            out.print()
            out.print("[bold]Recovery options[/]")
            for n, option in enumerate(report.recovery_options, 1):
                out.print(f"  {n}. {escape(option)}")
        if report.warnings:
            out.print()
            out.print("[bold yellow]Warnings[/]")
            for warning in report.warnings:
                out.print(f"  - {escape(warning)}")

    def _claim(self, out: Console, claim: ClaimResult) -> None:
        mark, style = _STYLE[claim.status]
        where = f"line {claim.line}" if claim.line else claim.id
        out.print(f"[{style}]{mark} {claim.id} {claim.status.value}[/] ({where}) {escape(_short(claim.claim))}")
        if claim.status is ClaimStatus.VERIFIED:
            cited = ", ".join(c.location or c.citation for c in claim.citations)
            out.print(f"    [dim]{escape(_short(cited, 200))}[/]")
            return
        if claim.status is not ClaimStatus.UNVERIFIED_OBSERVATION:
            out.print(f"    why: {escape(_short(claim.reason, 300))}")
        for c in claim.citations:
            flag = "ok" if c.evidence_supports else ("missing" if c.format_valid and not c.citation_exists else "fail")
            if not c.format_valid:
                flag = "invalid"
            out.print(f"    - {escape(c.citation)} [{c.citation_format}] {flag}: {escape(_short(c.reason, 200))}")
            if c.excerpt and claim.status in (ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED):
                first = c.excerpt.splitlines()[0] if c.excerpt else ""
                out.print(f"      [dim]{escape(_short(first, 200))}[/]")
            if c.suggestion:
                out.print(f"      suggested: {escape(c.suggestion)}")
