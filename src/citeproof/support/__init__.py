"""Does the cited evidence support the claim?

Existence is not support. The claim's citation tokens are removed first (``server.log:4521`` must
not make 4521 a fact); its checkable facts (:mod:`.facts`) are then checked against the union of the
evidence its citations resolved to by the registry of support checks (:mod:`.checks`), one module
per fact kind:

==============  ====================================================================================
check           what it asks of the cited evidence
==============  ====================================================================================
values          a value stated for a cited config or env key is that key's value
tickets         a cited JIRA ticket speaks of the claim's subject
patterns        a cited pattern describes the claim's symptom, which occurs in the bundle
negation        what a negated claim says is absent is not shown
counts          a count of cited items equals the items that show it
quotes          each quoted string occurs
statuses        each HTTP status is one the cited entries or lines returned
identifiers     each identifier (URL, IP, host, exception class, error code, path) occurs
universals      an "all"/"every" claim holds for each cited item
versions        each version matches a version in the evidence
quantities      each number with a unit or noun is a number of the evidence, across units
times, dates    each time of day and date is one of the evidence's instants
events          the claim's event is not excluded by the event the evidence records
anchoring       every other content word is anchored in the evidence (:mod:`.anchor`)
==============  ====================================================================================

A contradiction from any check makes the claim ``contradicted``; otherwise the first check that does
not find its fact makes it ``unsupported``, and the reason says what is missing. Each check's verdict
(outcome, stable code, claimed and evidence values, location) is kept in the claim's result. Sharing
one term with the evidence is never enough.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..evidence import Bundle, UnreadableEvidence
from ..model import Claim, Evidence
from .anchor import Anchor
from .checks import REGISTRY, Check, FactVerdict, Outcome, Subject, decide, run
from .checks.anchoring import residual
from .facts import ClaimTime, Facts, extract, split_negation

__all__ = ["REGISTRY", "Facts", "Support", "check_support", "claim_facts", "residual", "strip_citations", "suggest_lines"]

claim_facts = extract


@dataclass(frozen=True)
class Support:
    ok: bool
    reason: str
    statuses: tuple[int, ...] = ()
    contradicted: bool = False  # the evidence shows the opposite (SPEC §6.4), not merely nothing
    anchors: tuple[Anchor, ...] = ()  # how each content word of the claim is anchored in the evidence
    verdicts: tuple[FactVerdict, ...] = ()  # every support check's answer, in registry order
    decided_by: FactVerdict | None = None  # the verdict that made the claim unsupported or contradicted


def check_support(
    claim_text: str,
    evidence: Iterable[Evidence],
    tz: dt.tzinfo = dt.UTC,
    time_tolerance_s: float = 0.0,
    cited_times: tuple[ClaimTime, ...] = (),
    slack: int = 2,
    strict_verbs: bool = False,
    checks: Mapping[str, Check] = REGISTRY,
    claim_zone: str | None = None,
) -> Support:
    """Whether the union of ``evidence`` supports ``claim_text`` (citations removed).

    ``claim_zone`` is the zone the document declares for times written without one.
    ``time_tolerance_s`` widens the comparison of the claim's times (the tolerance its timestamp
    citations give, e.g. ``±5s``); ``cited_times`` are the instants of its timestamp citations, which
    must also match the claim's other cited lines or entries when those carry times.
    """
    items = tuple(dict.fromkeys(evidence))  # the same lines cited twice ("entries 18, 25" and capture.har:entries-18,25) count once
    positive, negated = split_negation(claim_text)
    positive = _ASPECT.sub("", positive)
    http = any(e.kind == "har" for e in items)
    facts = extract(positive, http)
    if claim_zone and facts.times:  # "All times below are CEST": a bare 03:44:18 is 03:44:18 CEST
        facts = replace(facts, times=tuple(t if t.zone else replace(t, zone=claim_zone) for t in facts.times))
    if cited_times and any(e.kind in ("log", "har") for e in items):
        facts = replace(facts, times=facts.times + cited_times)
    subject = Subject(claim_text, positive, negated, facts, items, http, tz, time_tolerance_s, slack, strict_verbs)
    verdicts = run(subject, checks)
    decided = decide(verdicts)
    anchors = subject.anchors if "anchoring" in checks else ()
    if decided is not None:
        return Support(False, decided.message, facts.statuses, decided.outcome is Outcome.CONTRADICTED, anchors, verdicts, decided)
    if negated and not facts.hard:
        return Support(True, "the cited evidence does not show what the claim says is absent", anchors=anchors, verdicts=verdicts)
    return Support(True, "cited evidence shows " + (_shown(facts, anchors) or "every claim word"), anchors=anchors, verdicts=verdicts)


# "started dropping packets", "began to fail", "kept retrying": the verb says when the event ran, it is no event itself
_ASPECT = re.compile(r"\b(?:start|starts|started|starting|begin|begins|began|begun|beginning|continue|continues|continued|"
                     r"continuing|keep|keeps|kept)\s+(?=\w+ing\b|to\s+[a-z]+)", re.I)


def _shown(facts: Facts, anchors: tuple[Anchor, ...]) -> str:
    shown = [f"'{q}'" for q in facts.quotes] + [f"HTTP {s}" for s in facts.statuses]
    shown += list(facts.identifiers) + list(facts.versions) + [n.raw for n in facts.numbers if not n.spelled]
    shown += [t.raw for t in facts.times]
    words = ", ".join(f"{a.word}~{a.evidence_word}" for a in anchors
                      if a.evidence_word is not None and (a.via != "lemma" or a.word != a.evidence_word))
    unshown = ", ".join(f"'{a.word}'" for a in anchors if a.evidence_word is None)
    return "; ".join(p for p in (", ".join(shown[:8]) if facts.hard else "", f"anchored: {words}" if words else "",
                                 f"not shown (within the anchor slack): {unshown}" if unshown else "") if p)


SUGGEST_REACH = 8 * 1024 * 1024  # bytes searched on each side of the cited line in a large file


def suggest_lines(bundle: Bundle, rel: str, cited_line: int, quote: str, limit: int = 3) -> list[int]:
    """Lines of ``rel`` containing ``quote``, nearest to ``cited_line`` first.

    A file up to 2 x :data:`SUGGEST_REACH` is searched whole; in a larger one only the bytes within
    :data:`SUGGEST_REACH` of the cited line, so a suggestion never costs a pass over a huge log.
    """
    file = bundle.files.get(rel)
    if file is None or not quote:
        return []
    try:
        lf = bundle.lines(file)
    except UnreadableEvidence:
        return []
    lo, hi = 0, lf.size
    if lf.size > 2 * SUGGEST_REACH:
        anchor = lf.line_start(min(max(cited_line, 1), lf.line_count)) if lf.line_count else 0
        lo, hi = max(0, anchor - SUGGEST_REACH), min(lf.size, anchor + SUGGEST_REACH)
    found = bundle.memo(("suggest", f"{rel}|{lo}|{hi}|{quote}"),
                        lambda: sorted({lf.line_of(p) for p in lf.find_all(quote.encode("utf-8"), limit=200, start=lo, end=hi)}))
    return sorted(found, key=lambda n: (abs(n - cited_line), n))[:limit]


def strip_citations(claim: Claim) -> str:
    """The claim's text with its in-text citation tokens removed."""
    out, pos = [], 0
    for ref in sorted((r for r in claim.citations if r.start >= 0), key=lambda r: r.start):
        if ref.start < pos:
            continue
        out.append(claim.text[pos : ref.start])
        pos = ref.end
    out.append(claim.text[pos:])
    text = re.sub(r"\(\s*[,;]?\s*\)|\[\s*\]|``|\[\^[^\]\s]+\]", " ", "".join(out))
    if any(r.start < 0 for r in claim.citations):  # cited through notes: "[1]", "[1, 2]" and "¹" are markers
        text = _NOTE_MARKER.sub(" ", text)
    return text


_NOTE_MARKER = re.compile(r"\[\d{1,3}(?:\s?,\s?\d{1,3})*\]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
