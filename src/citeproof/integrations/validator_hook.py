"""``ClaimValidatorHook``: the gate's verdict for agent frameworks that count claims themselves.

An agent that has checked its own claims calls ``trigger`` with the tallies and gets back a verdict:

    >>> hook = ClaimValidatorHook(threshold=0.9)
    >>> hook.trigger(["a", "b", "c", "d"], pass_count=3, fail_count=1, verification_rate=0.75,
    ...              failed_claims=["demisto.log:4521"])["passed"]
    False

``trigger(claims, pass_count, fail_count, verification_rate, failed_claims)`` returns
``{"passed": bool, "confidence_delta": float, "recommendations": [str, ...]}``:

* ``passed`` — at least one claim was counted and ``verification_rate >= threshold``.
* ``confidence_delta = round(verification_rate - threshold, 3)``: how far the findings clear the bar
  (positive) or fall short of it (negative). It is monotone in the rate: a higher rate never gives a
  lower delta. With the default threshold 0.9 it runs from -0.9 (nothing verified) to +0.1
  (everything verified); an agent can add it to its confidence in the conclusions. With no counted
  claims it is ``-threshold``.
* ``recommendations`` — what to do, most useful first: how many failed claims must be fixed to pass,
  then one line per failed claim. ``failed_claims`` may hold citation or claim strings, mappings with
  ``claim``/``reason``/``recovery`` keys, or :class:`~citeproof.model.ClaimResult` values (their
  recovery options are used).

:meth:`ClaimValidatorHook.from_report` feeds it a :class:`~citeproof.model.Report` from
:func:`citeproof.validate`, so the verdict and the gate's agree on the rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from ..errors import ConfigError
from ..model import ClaimResult, ClaimStatus, Report


class HookVerdict(TypedDict):
    passed: bool
    confidence_delta: float
    recommendations: list[str]


class ClaimValidatorHook:
    """Turns claim tallies into a verdict, a confidence delta and recommendations."""

    def __init__(self, threshold: float = 0.9) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ConfigError(f"threshold must be between 0 and 1, not {threshold}")
        self.threshold = threshold

    def confidence_delta(self, verification_rate: float) -> float:
        return round(verification_rate - self.threshold, 3)

    def trigger(self, claims: Sequence[Any], pass_count: int, fail_count: int, verification_rate: float,
                failed_claims: Sequence[Any]) -> HookVerdict:
        if pass_count < 0 or fail_count < 0:
            raise ConfigError("pass_count and fail_count must not be negative")
        if not 0.0 <= verification_rate <= 1.0 or math.isnan(verification_rate):
            raise ConfigError(f"verification_rate must be between 0 and 1, not {verification_rate}")
        total = pass_count + fail_count
        if total == 0:
            return {"passed": False, "confidence_delta": self.confidence_delta(0.0),
                    "recommendations": [f"No factual claims were counted (of {len(claims)} given): state each finding with its citation"]}
        passed = verification_rate >= self.threshold
        recommendations: list[str] = []
        if not passed:
            need = max(1, math.ceil(self.threshold * total - pass_count - 1e-9))
            recommendations.append(
                f"Fix at least {need} of the {fail_count} failed claims to reach the {self.threshold:.0%} threshold "
                f"(now {verification_rate:.1%})")
        recommendations += [line for item in failed_claims for line in _advice(item)]
        return {"passed": passed, "confidence_delta": self.confidence_delta(verification_rate), "recommendations": recommendations}

    def from_report(self, report: Report) -> HookVerdict:
        """The verdict for a validation report; ``passed`` agrees with ``report.passed`` (contradictions and
        the unverified-observation cap block too)."""
        failed = [c for c in report.claims if c.status is not ClaimStatus.VERIFIED]
        verdict = self.trigger(report.claims, report.verified_claims, len(failed), report.verification_rate, failed)
        if verdict["passed"] and not report.passed:
            verdict = {**verdict, "passed": False}
        return verdict


def _advice(item: Any) -> list[str]:
    if isinstance(item, ClaimResult):
        options = item.recovery or ["Cite the evidence for it, or mark it 'Note: Unverified assumption - ...'"]
        return [f"{item.id} ({item.status.value}: {item.reason}): {options[0]}", *(f"{item.id}: {o}" for o in options[1:])]
    if isinstance(item, Mapping):
        what = str(item.get("claim") or item.get("citation") or item.get("text") or item)
        why = f" ({item['reason']})" if item.get("reason") else ""
        recovery = item.get("recovery")
        options = [str(r) for r in recovery] if isinstance(recovery, list | tuple) and recovery else [
            "cite evidence that shows it, correct the citation, or mark it as an unverified assumption"]
        return [f"{what}{why}: {options[0]}", *options[1:]]
    return [f"{item}: correct this citation or cite evidence that shows the claim"]


__all__ = ["ClaimValidatorHook", "HookVerdict"]
