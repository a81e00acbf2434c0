"""What a support check is, what it reads and what it answers.

A check (:class:`Check`) looks at one kind of fact of a claim — quotes, HTTP statuses, quantities, the
event, ... — against the union of the claim's cited evidence, and answers a :class:`FactVerdict`:

``supported``      the evidence shows the fact
``unsupported``    the evidence does not show it
``contradicted``   the evidence shows another value for the same thing
``not_checked``    the fact is there but cannot be checked against this evidence (counts against the claim)

Each verdict carries a stable ``code`` (``status.mismatch``, ``quantity.absent``, ...) that reports,
hints and contradiction rules read; the ``message`` is for people only. A check that finds no fact of
its kind in the claim answers nothing (``None``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING

from ...model import Evidence
from ..facts import Facts

if TYPE_CHECKING:
    from ..anchor import Anchor


class Outcome(StrEnum):
    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    NOT_CHECKED = "not_checked"


@dataclass(frozen=True)
class FactVerdict:
    """One check's answer about one fact of a claim."""

    check: str
    outcome: Outcome
    code: str
    kind: str
    message: str
    claimed: str = ""
    evidence: str = ""
    location: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.SUPPORTED


@dataclass(frozen=True)
class Subject:
    """A claim as the checks read it: its text split at a negation, its facts and its cited evidence."""

    text: str
    positive: str
    negated: str
    facts: Facts
    items: tuple[Evidence, ...]
    http: bool = False
    tz: dt.tzinfo = dt.UTC
    tolerance_s: float = 0.0
    slack: int = 2
    strict_verbs: bool = False
    union: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "union", norm("\n".join(e.text for e in self.items)))

    @cached_property
    def anchors(self) -> tuple[Anchor, ...]:
        """How each content word of the claim (hard facts removed) is anchored in the cited evidence."""
        from .anchoring import anchors_of

        return anchors_of(self)

    def of_kind(self, *kinds: str) -> list[Evidence]:
        return [e for e in self.items if e.kind in kinds]


@dataclass(frozen=True)
class Check:
    """A support check: ``id`` names it in the registry, ``kind`` is the fact kind it reads."""

    id: str
    kind: str
    run: Callable[[Subject], FactVerdict | None]
    summary: str = ""

    def verdict(self, outcome: Outcome, code: str, message: str, claimed: str = "", evidence: str = "",
                location: str = "") -> FactVerdict:
        return FactVerdict(self.id, outcome, f"{self.kind}.{code}", self.kind, message, claimed, evidence, location)


def norm(text: str) -> str:
    """Lower case with white space runs folded to one space."""
    return " ".join(text.split()).lower()


# where a log line gives the status of the HTTP request it records, first match wins
_LINE_STATUS = (
    re.compile(r'"\s([1-5]\d{2})\s(?:\d+|-|[A-Z]{1,4}\b)'),  # combined/common format: "GET / HTTP/1.1" 503 162; Envoy: 503 UF
    re.compile(r"\s-?\d+/-?\d+/-?\d+/-?\d+/\+?-?\d+\s([1-5]\d{2})\s\d+\s"),  # HAProxy HTTP log: TR/Tw/Tc/Tr/Ta status bytes
    re.compile(r"""(?<![\w.])["']?(?:status|status_?code|statusCode|http_?status|httpStatus|response_?code|responseCode|"""
               r"""http\.status_code|http\.response\.status_code)["']?\s?[=:]\s?["']?([1-5]\d{2})(?![\d.])"""),  # JSON, logfmt
)


def line_status(line: str) -> int | None:
    """The status field of one access-log line (combined or common log format, Envoy, HAProxy's HTTP log format,
    a ``status``/``status_code`` field of a JSON or key=value line), or None."""
    for grammar in _LINE_STATUS:
        m = grammar.search(line)
        if m:
            return int(m.group(1))
    return None


def line_statuses(items: Iterable[Evidence]) -> list[int]:
    """Statuses of cited access-log lines (see :func:`line_status`)."""
    out = []
    for e in items:
        if e.kind == "log":
            for line in e.items:
                status = line_status(line)
                if status is not None:
                    out.append(status)
    return out


def har_statuses(items: Iterable[Evidence]) -> list[int]:
    return [s for e in items if e.kind == "har" for s in e.statuses]


def seen(statuses: list[int]) -> str:
    return ", ".join(str(s) for s in dict.fromkeys(statuses))


def probe(ident: str) -> str:
    """How an identifier is looked for: normalised, a URL without its scheme and trailing slash."""
    out = norm(ident)
    if out.startswith(("http://", "https://")):
        out = out.split("://", 1)[1].rstrip("/")
    return out


def shortened(ident: str, text: str) -> bool:
    """A word-number name as people shorten the evidence's longer one: "consumer-3" for the client
    ``consumer-payments-ledger-3-9f1c...``, "db-1" for the host of ``mysqld-db1.err``; the word begins a part and
    the number is a later whole part (or is joined to the word)."""
    m = re.fullmatch(r"([a-z][a-z_]*)-(\d+)", ident.lower())
    if m is None:
        return False
    name, number = re.escape(m.group(1)), m.group(2)
    return re.search(rf"(?<![a-z0-9]){name}(?:(?:[-_][a-z][a-z0-9]*){{0,3}}[-_])?{number}(?![0-9a-z])", text) is not None


def shows(ident: str, text: str) -> bool:
    """The identifier is in ``text`` (normalised), as written or shortened (:func:`shortened`)."""
    return probe(ident) in text or shortened(ident, text)


def universal_groups(items: Iterable[Evidence]) -> list[tuple[str, ...]]:
    """The separately cited items an "all"/"every" claim speaks of: HAR entries, and single cited lines."""
    items = list(items)
    groups = [e.items for e in items if e.kind == "har" and len(e.items) > 1]
    # a single line with the file it is in: "batch-12-dmesg.log" names the host its dmesg lines leave unnamed
    singles = tuple(f"{e.items[0]}\n{e.source}" for e in items if e.kind == "log" and len(e.items) == 1)
    if len(singles) > 1:
        groups.append(singles)
    return groups


def where(items: Iterable[Evidence]) -> str:
    """The first cited location, for a verdict."""
    return next((e.location for e in items if e.location), "")


__all__ = [
    "Check",
    "FactVerdict",
    "Outcome",
    "Subject",
    "har_statuses",
    "line_statuses",
    "norm",
    "probe",
    "seen",
    "shortened",
    "shows",
    "universal_groups",
    "where",
]
