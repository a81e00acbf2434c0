"""What every citation format provides, and helpers to build its results.

A format is a :class:`CitationFormat` value: an id, a one-line summary, a ``find`` function that
spots its citations in claim text, and a ``check`` function that resolves one citation against the
bundle. ``check`` returns a :class:`Checked`: the public :class:`CitationResult` plus the evidence
text the support check reads. Each step of a check is a named :class:`SubCheck`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..config import Options
from ..evidence import Bundle
from ..model import CitationRef, CitationResult, Evidence, SubCheck

MAX_EXCERPT_CHARS = 2000


@dataclass(frozen=True)
class Scope:
    """What citation finders may know: the bundle (to tell file names) and the known JIRA projects."""

    bundle: Bundle | None = None
    jira_projects: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CheckContext:
    bundle: Bundle
    options: Options
    claim_text: str = ""


@dataclass(frozen=True)
class Checked:
    result: CitationResult
    evidence: tuple[Evidence, ...] = ()
    warnings: tuple[str, ...] = ()
    recovery: tuple[str, ...] = ()
    contradicts: bool = False  # the evidence states a different value than the claim


Finder = Callable[[str, Scope], Iterator[CitationRef]]
Checker = Callable[[CitationRef, CheckContext], Checked]


@dataclass(frozen=True)
class CitationFormat:
    id: str
    summary: str
    find: Finder
    check: Checker
    examples: tuple[str, ...] = field(default=())


class Steps:
    """Collects the named sub-checks of one citation check."""

    def __init__(self) -> None:
        self.items: list[SubCheck] = []

    def ok(self, name: str, detail: str = "") -> None:
        self.items.append(SubCheck(name=name, ok=True, detail=detail))

    def fail(self, name: str, detail: str) -> None:
        self.items.append(SubCheck(name=name, ok=False, detail=detail))

    def skip(self, name: str, detail: str) -> None:
        self.items.append(SubCheck(name=name, ok=None, detail=detail))


def invalid(ref: CitationRef, reason: str, steps: Steps | None = None) -> Checked:
    """The citation is malformed for its format."""
    return Checked(
        CitationResult(
            citation=ref.raw,
            citation_format=ref.format_id,
            format_valid=False,
            citation_exists=False,
            evidence_supports=False,
            reason=reason,
            checks=(steps.items if steps else [SubCheck(name="format", ok=False, detail=reason)]),
        )
    )


def missing(
    ref: CitationRef,
    reason: str,
    steps: Steps,
    suggestion: str | None = None,
    recovery: tuple[str, ...] = (),
    location: str | None = None,
) -> Checked:
    """Well-formed, but what it points at is not in the bundle."""
    return Checked(
        CitationResult(
            citation=ref.raw,
            citation_format=ref.format_id,
            format_valid=True,
            citation_exists=False,
            evidence_supports=False,
            reason=reason,
            suggestion=suggestion,
            location=location,
            checks=steps.items,
        ),
        recovery=recovery,
    )


def found(
    ref: CitationRef,
    reason: str,
    steps: Steps,
    excerpt: str,
    location: str,
    evidence: tuple[Evidence, ...],
    supports: bool = True,
    warnings: tuple[str, ...] = (),
    suggestion: str | None = None,
    recovery: tuple[str, ...] = (),
    contradicts: bool = False,
) -> Checked:
    """Resolved; ``supports`` is False when the format's own check failed, ``contradicts`` when the
    evidence states another value than the claim."""
    return Checked(
        CitationResult(
            citation=ref.raw,
            citation_format=ref.format_id,
            format_valid=True,
            citation_exists=True,
            evidence_supports=supports,
            reason=reason,
            excerpt=clip(excerpt),
            suggestion=suggestion,
            location=location,
            checks=steps.items,
        ),
        evidence=evidence,
        warnings=warnings,
        recovery=recovery,
        contradicts=contradicts,
    )


def clip(text: str, limit: int = MAX_EXCERPT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(path: str) -> str:
    """A path quoted for a shell command in a recovery option."""
    if all(c.isalnum() or c in "._-/+" for c in path):
        return path
    return "'" + path.replace("'", "'\\''") + "'"
