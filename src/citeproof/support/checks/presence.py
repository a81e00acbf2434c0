"""Presence: what a positive claim says there is, the cited evidence does not say there is none.

A word of the claim anchored only in fields whose value is empty (``fix versions: none``, ``leader: null``,
``labels: []``) is not shown: the evidence says the opposite of the claim. Prose ("no space left on
device") and settings of 0 or false (``retries = 0`` is "no retries") are not read this way, and a claim
that speaks of an absence itself ("no fix version was set") is left to the negation check.

Passing::

    evidence app.log: 2026-03-02 14:02:11 WARN election done leader=db-2
    claim: The election chose a leader (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 WARN election done leader=none
    claim: The election chose a leader (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import re

from ..anchor import is_weak
from .base import Check, FactVerdict, Outcome, Subject, where
from .negation import mentions

# a field whose value says there is nothing: "fix versions: none", "leader=null", "labels: []" (not 0 or false, which
# a claim reads as a setting: "retries = 0" is "no retries", "failsafe_mode = false" is "failsafe is disabled")
_EMPTY_VALUE = re.compile(r"[\w\-]*[\"']?\s{0,2}[=:]\s{0,2}[\"']?(?:none|null|nil|\[\s?\]|\{\s?\})[\"']?(?![\w\-])", re.I)
# a claim that speaks of an absence itself is the negation check's
_ABSENCE_WORDS = re.compile(r"\b(?:no|not|none|never|without|missing|absent|empty|lost|unset|lacks?|n't|zero|0)\b", re.I)


def check(s: Subject) -> FactVerdict | None:
    if not s.positive.strip() or _ABSENCE_WORDS.search(s.text):
        return None
    text = "\n".join(e.text for e in s.items if e.kind != "context")
    read = 0
    for a in s.anchors:
        if a.evidence_word is None or a.via != "lemma" or is_weak(a.word):
            continue
        read += 1
        shown = mentions(a.evidence_word, text)  # a field's value, not prose: "no space left" does not deny "free space"
        if shown and all(_EMPTY_VALUE.match(text, m.start()) for m in shown):
            return CHECK.verdict(Outcome.UNSUPPORTED, "absent_in_evidence",
                                 f"the claim says there is {a.word}, but the cited evidence says there is none "
                                 f"('{text[shown[0].start():shown[0].end() + 12].strip()}')", a.word, a.evidence_word,
                                 where(s.items))
    if not read:
        return None
    return CHECK.verdict(Outcome.SUPPORTED, "not_denied", "the cited evidence does not deny what the claim says there is")


CHECK = Check("presence", "presence", check, "what a positive claim says there is, the cited evidence does not deny")
