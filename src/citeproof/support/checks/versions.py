"""Versions: each version the claim states matches one in the cited evidence, as a prefix on
component boundaries (``8.9`` matches ``8.9.0-2464525``; ``8.9.0-24`` does not).

Passing::

    evidence app.log: 2026-03-02 14:02:11 INFO starting orders-api version 2.14.3 (build 8812)
    claim: orders-api version 2.14 was starting (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 INFO starting orders-api version 2.14.3 (build 8812)
    claim: orders-api 2.15.0 was starting (app.log:1).
    verdict: contradicted
"""

from __future__ import annotations

import re

from .base import Check, FactVerdict, Outcome, Subject, where

_EVIDENCE_VERSION = re.compile(r"(?<![\d.])v?(\d+(?:\.\d+)+(?:[-+][\w.]+)?)")  # also glued to a name: go1.20.7, CoreDNS-1.11.1
_LOOKS_LIKE_VERSION = re.compile(r"\d+\.\d+\.\d+")


def matches(stated: str, actual: str) -> bool:
    """``stated`` names ``actual``: equal, or a prefix ending on a component boundary."""
    s, a = stated.strip().lower().lstrip("v"), actual.strip().lower().lstrip("v")
    return a == s or (a.startswith(s) and a[len(s)] in ".-_+ ")


def check(s: Subject) -> FactVerdict | None:
    if not s.facts.versions:
        return None
    found = [m.group(1).lower() for e in s.items for m in _EVIDENCE_VERSION.finditer(e.text)]
    for version in s.facts.versions:
        if not any(matches(version, a) for a in found):
            other = [a for a in found if _LOOKS_LIKE_VERSION.match(a)]
            if other:  # the evidence names another version: the claim's is wrong, not merely unshown
                return CHECK.verdict(Outcome.CONTRADICTED, "mismatch",
                                     f"version {version} is not in the cited evidence (the evidence shows {other[0]})",
                                     version, other[0], where(s.items))
            return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"version {version} is not in the cited evidence", version,
                                 location=where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join(s.facts.versions), s.facts.versions[0])


CHECK = Check("versions", "version", check, "each version the claim states is the cited evidence's version")
