"""JIRA tickets: a cited ticket speaks of what the claim speaks of.

The ticket's summary, description, comments and fields (status, assignee, components, fix versions,
watchers, ...) must share a term with the claim, or anchor one of its words; what the claim then asserts
is anchored in that text like any other evidence.

Passing::

    evidence OPS-1.json: {"key": "OPS-1", "fields": {"summary": "Vendor API rate limit exceeded during sync"}}
    claim: The vendor API rate limit was exceeded during the sync (JIRA:OPS-1).
    verdict: supported

Failing::

    evidence OPS-1.json: {"key": "OPS-1", "fields": {"summary": "Vendor API rate limit exceeded during sync"}}
    claim: Disk space ran out on the database host (JIRA:OPS-1).
    verdict: unsupported
"""

from __future__ import annotations

from ...text import terms
from .base import Check, FactVerdict, Outcome, Subject


def check(s: Subject) -> FactVerdict | None:
    tickets = s.of_kind("jira")
    if not tickets:
        return None
    claim_terms = terms(s.text)
    anchored = {a.evidence_word.lower() for a in s.anchors if a.evidence_word}
    for e in tickets:
        shared = sorted(terms(e.text) & claim_terms)
        if not shared and not any(w in e.text.lower() for w in anchored):  # "one watcher" against "watchers: 1"
            return CHECK.verdict(Outcome.UNSUPPORTED, "unrelated", f"{e.location}: ticket {e.key} does not relate to the claim",
                                 evidence=e.key, location=e.location)
    return CHECK.verdict(Outcome.SUPPORTED, "related", "the cited tickets speak of the claim's subject",
                         evidence=", ".join(e.key for e in tickets), location=tickets[0].location)


CHECK = Check("tickets", "ticket", check, "a cited JIRA ticket speaks of what the claim speaks of")
