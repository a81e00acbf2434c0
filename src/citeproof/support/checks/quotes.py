"""Quoted strings: text the claim puts in quotes occurs in the cited evidence (case and white space ignored).

Passing::

    evidence app.log: 2026-03-02 14:02:11 ERROR vendor api: Rate limit exceeded (retry after 60s)
    claim: The vendor API answered 'Rate limit exceeded' (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 ERROR vendor api: Rate limit exceeded (retry after 60s)
    claim: The vendor API answered 'quota exhausted' (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from .base import Check, FactVerdict, Outcome, Subject, norm, where


def check(s: Subject) -> FactVerdict | None:
    if not s.facts.quotes:
        return None
    decoded = norm(unquote_plus(s.union)) if "%" in s.union or "+" in s.union else s.union  # "usb-c+charger" in a URL
    for q in s.facts.quotes:
        if norm(q) not in s.union and norm(q) not in decoded:
            return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"quoted text '{q}' is not in the cited evidence", q,
                                 location=where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join(f"'{q}'" for q in s.facts.quotes), s.facts.quotes[0])


CHECK = Check("quotes", "quote", check, "each quoted string occurs in the cited evidence")
