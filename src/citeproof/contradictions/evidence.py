"""Rule 4, ``evidence`` — the bundle contradicts a claim.

A claim the support check found *contradicted* (SPEC §6.4): a negative or absence claim the cited
evidence refutes ("No HTTP 429 errors found" citing entries that are 429s), a cited HAR entry or
access-log line whose status is not the one claimed ("entry 20 returned 429" when it returned 200),
or a stated count the cited evidence refutes ("three requests returned 504" when two did). The claim
is the one that is wrong; the resolution quotes what the evidence shows.

Passing (no finding): "No HTTP 5xx appear in capture.har:entries-1-10" when all ten are 2xx.
Failing: the same claim when entry 6 returned 500.
"""

from __future__ import annotations

from ..model import ClaimStatus, ContradictionFinding
from .base import Found, Rule, RuleContext


def check(ctx: RuleContext) -> list[Found]:
    out: list[Found] = []
    for view in ctx.claims:
        result = view.result
        if result.status is not ClaimStatus.CONTRADICTED:
            continue
        cited = next((c for c in result.citations if c.excerpt), None)
        shows = ""
        if cited and cited.location and cited.excerpt:
            shows = f" ({cited.location}: {cited.excerpt.splitlines()[0][:160]})"
        finding = ContradictionFinding(
            rule="evidence",
            claims=[result.id],
            detail=result.reason,
            resolution=f"Correct {result.id} to what the evidence shows{shows}",
            evidence=cited.excerpt if cited else None,
        )
        out.append(Found(finding, (result.id,)))
    return out


RULE = Rule("evidence", "the cited evidence states the opposite of the claim", check)
