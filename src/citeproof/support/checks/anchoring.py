"""Anchoring: every content word the claim asserts is shown by its cited evidence
(see :mod:`citeproof.support.anchor` for how a word is anchored).

The hard facts (quotes, identifiers, versions, numbers, units) are left to their own checks. An
unanchored word of the event table ("crashed", "deleted") or adverb of manner ("gradually", "permanently",
"cleanly": a qualifier of how it happened) makes the claim unsupported, and so do more
than ``anchor_slack`` (default 2; in a long claim, two fifths of its content words) other unanchored
words; participant nouns the lexicon calls weak (server, client, user, ...) are not counted.
``anchor_strict_verbs`` makes every unanchored verb fail.

Passing::

    evidence redis.log: 2904:M 02 Mar 2026 14:02:11.120 * Background saving started by pid 2905
    claim: Redis began a background save (redis.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 INFO connecting to vendor api
    claim: The vendor secretly deleted our production database (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import re
import string

from ..anchor import Anchor, anchor_claim, claim_words, is_manner, is_predicate, is_weak
from ..events import events_in, neutral
from ..facts import QUOTE_PATTERNS, ZONE_NAMES, Facts, software_pattern
from .base import Check, FactVerdict, Outcome, Subject, where

_UNIT_WORDS = frozenset(
    "ms msec millisecond milliseconds s sec secs second seconds m min mins minute minutes h hr hrs hour hours d day days "
    "b byte bytes kb mb gb tb kib mib gib tib k g percent pct rps rpm qps req reqs "
    "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october "
    "nov november dec december mon monday tue tuesday wed wednesday thu thursday fri friday sat saturday sun sunday".split()
) | {z.lower() for z in ZONE_NAMES} | {"utc", "gmt", "z"}  # time zones belong to the time, checked by the time check


_PUNCTUATION = string.punctuation + "—–…“”‘’"  # "**14:58 CEST**": emphasis and dashes around a unit word

_CAUSE = re.compile(r"\b(?:because(?:\s+of)?|due\s+to|caused\s+by|owing\s+to|as\s+a\s+result\s+of|triggered\s+by)\b"
                    r"(.*?)(?=[;:]|\.(?:\s|$)|,\s(?:and|but|while|so|which)\b|$)", re.I)
_CODE = re.compile(r"\b[A-Z][A-Z0-9_]{4,}\b")  # five or more capitals: a code (MISCONF), not an acronym (CORS, TLS)


def residual(text: str, facts: Facts) -> str:
    """The claim without its hard facts (checked on their own): quotes, identifiers, versions, numbers and units."""
    for pattern in QUOTE_PATTERNS:
        text = pattern.sub(" ", text)
    for value in sorted((*facts.identifiers, *facts.versions), key=len, reverse=True):
        text = text.replace(value, " ")
    text = re.sub(r"(?<![A-Za-z])\d[\w.:,%/+\-]*", " ", text)
    return " ".join(w for w in text.split() if w.lower().strip(_PUNCTUATION) not in _UNIT_WORDS)


LOOSE_SHARE = 0.4  # of a long claim's content words, as many may go unanchored as its slack or two fifths of them


def allowed_loose(slack: int, words: int) -> int:
    """How many content words may go unanchored: ``anchor_slack``, or in a long claim two fifths of its content words
    (a 12-word summary may paraphrase 4 of them); ``anchor_slack: 0`` allows none, whatever the length.

    Measured on the labelled corpus (2,590 claims, session 8): against a fixed slack of 2, the share verifies 27 more
    correct claims and 3 more wrong ones."""
    return 0 if slack == 0 else max(slack, int(LOOSE_SHARE * words))


def anchors_of(s: Subject) -> tuple[Anchor, ...]:
    return tuple(anchor_claim(residual(s.positive, s.facts), [e for e in s.items if e.kind != "context"]))


def check(s: Subject) -> FactVerdict | None:
    anchors = s.anchors
    if not anchors:
        return None
    loose = [a.word for a in anchors if a.evidence_word is None and not is_weak(a.word)]
    # an event word of the event table ("crashed", "deleted", "failed") is never let pass unanchored, nor is a code
    # written in capitals ("MISCONF", "NXDOMAIN"): codes are quoted from logs, not paraphrased
    context = s.union  # the environment (product: XSOAR) names the product; a code must be on the cited lines
    codes = {w.lower() for w in _CODE.findall(s.positive) if w.lower() not in context and not software_pattern().fullmatch(w)}
    # a stated cause ("because the user lacks the monitoring tag") is the claim's most checkable part: no slack in it
    cause = {w for m in _CAUSE.finditer(s.positive) for w in claim_words(residual(m.group(1), s.facts))}
    # a neutral step ("began", "created") may go unshown only beside an event the evidence does show
    shown_event = any(a.evidence_word is not None and (events_in(a.word) or is_predicate(a.word)) for a in anchors)
    strict = [w for w in loose if (set(events_in(w)) - (neutral() if shown_event else frozenset())) or w.lower() in codes
              or w in cause or (s.strict_verbs and is_predicate(w)) or is_manner(w)]
    if loose and (len(loose) > allowed_loose(s.slack, len(anchors)) or strict):
        return CHECK.verdict(Outcome.UNSUPPORTED, "unanchored" if not strict else "event_unanchored",
                             "unsupported: the cited evidence does not show " + ", ".join(f"'{w}'" for w in loose[:6]),
                             ", ".join(loose), location=where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "anchored", "every asserted word is anchored", location=where(s.items))


CHECK = Check("anchoring", "anchor", check, "every content word the claim asserts is shown by the cited evidence")
