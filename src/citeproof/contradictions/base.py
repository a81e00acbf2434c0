"""What every contradiction rule sees and returns.

A rule is a :class:`Rule` value: an id, a one-line summary and a ``check`` function from a
:class:`RuleContext` (every counted claim with its stripped text, facts and cited evidence, plus the
bundle and options) to a list of :class:`Found` (the public finding, and the claims it shows to be
wrong, which become ``contradicted``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..config import Options
from ..evidence import Bundle
from ..model import Claim, ClaimResult, ContradictionFinding, Evidence
from ..support.facts import Facts


@dataclass(frozen=True)
class ClaimView:
    claim: Claim
    result: ClaimResult
    text: str  # the claim without its citation tokens
    facts: Facts
    evidence: tuple[Evidence, ...] = ()

    @property
    def id(self) -> str:
        return self.claim.id


@dataclass(frozen=True)
class RuleContext:
    claims: tuple[ClaimView, ...]
    bundle: Bundle
    options: Options


@dataclass(frozen=True)
class Found:
    finding: ContradictionFinding
    wrong: tuple[str, ...] = field(default=())  # claim ids the evidence shows to be wrong


@dataclass(frozen=True)
class Rule:
    id: str
    summary: str
    check: Callable[[RuleContext], list[Found]]
