"""Pattern-database entries: a cited pattern describes the claim's symptom, and its symptoms occur
in the bundle.

The pattern's name, description and keywords must share a term with the claim, and when the pattern
lists keywords or symptoms, at least one must occur in the bundle's logs or HAR captures (the pattern
citation records where).

Passing::

    evidence patterns.json: {"patterns": [{"id": "P-1", "name": "Vendor rate limiting", "keywords": ["Rate limit exceeded"]}]}
    evidence app.log: 2026-03-02 14:02:11 ERROR vendor api: Rate limit exceeded
    claim: The vendor rate limit was exceeded, a known pattern (pattern:P-1).
    verdict: supported

Failing::

    evidence patterns.json: {"patterns": [{"id": "P-1", "name": "Vendor rate limiting", "keywords": ["Rate limit exceeded"]}]}
    evidence app.log: 2026-03-02 14:02:11 ERROR vendor api: Rate limit exceeded
    claim: The disk filled up on the database host (pattern:P-1).
    verdict: unsupported
"""

from __future__ import annotations

from ...text import terms
from .base import Check, FactVerdict, Outcome, Subject


def check(s: Subject) -> FactVerdict | None:
    cited = s.of_kind("pattern")
    if not cited:
        return None
    claim_terms = terms(s.text)
    for e in cited:
        if not terms(e.text) & claim_terms:
            return CHECK.verdict(Outcome.UNSUPPORTED, "unrelated", f"pattern {e.key} does not match the claim's symptom",
                                 evidence=e.key, location=e.location)
        if e.symptoms and not e.seen:
            shown = ", ".join(e.symptoms[:4])
            return CHECK.verdict(Outcome.UNSUPPORTED, "symptoms_absent",
                                 f"none of {e.key}'s symptoms ({shown}) occur in the bundle's logs or captures",
                                 evidence=shown, location=e.location)
    return CHECK.verdict(Outcome.SUPPORTED, "matches", "; ".join(f"{e.key}: {e.seen or 'no symptoms listed'}" for e in cited),
                         location=cited[0].location)


CHECK = Check("patterns", "pattern", check, "a cited pattern describes the claim's symptom, which occurs in the bundle")
