"""The decision: claim statuses -> verification rate -> PASSED or BLOCKED. Pure functions.

* ``verification_rate = verified / counted claims`` (unverified observations are not counted).
* **PASSED** iff the rate is at least ``threshold``, there are no contradictions, and the number of
  unverified observations is at most ``max_unverified``. Zero counted claims is BLOCKED ("no factual
  claims found").
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import ClaimResult, ClaimStatus, ContradictionFinding, Verdict


@dataclass(frozen=True)
class Decision:
    status: Verdict
    rate: float
    verified: int
    total: int
    message: str


def decide(
    claims: list[ClaimResult],
    contradictions: list[ContradictionFinding],
    unverified: int,
    threshold: float,
    max_unverified: int,
) -> Decision:
    total = len(claims)
    verified = sum(1 for c in claims if c.status is ClaimStatus.VERIFIED)
    rate = round(verified / total, 3) if total else 0.0
    if total == 0:
        return Decision(Verdict.BLOCKED, 0.0, 0, 0, "BLOCKED: no factual claims found")
    problems: list[str] = []
    failed = total - verified
    if rate < threshold:
        problems.append(
            f"{failed} of {total} claim{'s' if total != 1 else ''} failed validation "
            f"(verification rate {rate:.3f} < threshold {threshold:.2f})"
        )
    if contradictions:
        n = len(contradictions)
        problems.append(f"{n} contradiction{'s' if n != 1 else ''}")
    if unverified > max_unverified:
        problems.append(f"{unverified} unverified observations (at most {max_unverified} allowed)")
    if problems:
        return Decision(Verdict.BLOCKED, rate, verified, total, "BLOCKED: " + "; ".join(problems))
    note = f", {failed} failed" if failed else ""
    return Decision(
        Verdict.PASSED, rate, verified, total,
        f"PASSED: {verified} of {total} claims verified{note} (verification rate {rate:.3f} >= threshold {threshold:.2f})",
    )
