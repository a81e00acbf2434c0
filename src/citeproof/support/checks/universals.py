"""Universal claims: "all", "every", "each", "both" over several cited items hold for each of them.

The items are the separately cited lines (several ``file:N`` citations) or the entries of one HAR
citation; each must carry every quoted string and identifier the claim states. Statuses over HAR
entries are checked entry by entry by the status check; counts by the count check.

Passing::

    evidence app.log: 2026-03-02 14:02:11 ERROR upstream timed out (ETIMEDOUT) host=10.0.4.22
    evidence app.log: 2026-03-02 14:02:19 ERROR upstream timed out (ETIMEDOUT) host=10.0.4.22
    claim: Both attempts ended in ETIMEDOUT (app.log:1) (app.log:2).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 ERROR upstream timed out (ETIMEDOUT) host=10.0.4.22
    evidence app.log: 2026-03-02 14:02:19 ERROR upstream refused (ECONNREFUSED) host=10.0.4.22
    claim: Both attempts ended in ETIMEDOUT (app.log:1) (app.log:2).
    verdict: unsupported
"""

from __future__ import annotations

from .base import Check, Outcome, Subject, Verdict, norm, probe, universal_groups


def check(s: Subject) -> Verdict | None:
    facts = s.facts
    if not facts.universal or not (facts.quotes or facts.identifiers):
        return None
    groups = universal_groups(s.items)
    if not groups:
        return None
    for group in groups:
        for n, item in enumerate(group, 1):
            text = norm(item)
            missing_quote = next((q for q in facts.quotes if norm(q) not in text), None)
            if missing_quote is not None:
                return CHECK.verdict(Outcome.UNSUPPORTED, "not_every_item",
                                     f"the claim says every cited item shows '{facts.quotes[0]}', but cited item {n} of "
                                     f"{len(group)} does not", missing_quote, f"item {n}")
            missing = next((i for i in facts.identifiers if probe(i) not in text), None)
            if missing is not None:
                return CHECK.verdict(Outcome.UNSUPPORTED, "not_every_item",
                                     f"the claim says it holds for every cited item, but '{missing}' is not in cited item "
                                     f"{n} of {len(group)}", missing, f"item {n}")
    return CHECK.verdict(Outcome.SUPPORTED, "every_item", "every cited item shows it", ", ".join((*facts.quotes, *facts.identifiers)))


CHECK = Check("universals", "universal", check, "an 'all'/'every' claim holds for each cited item")
