"""Universal claims: "all", "every", "each", "both" over several cited items hold for each of them.

A universal claim that cites one single line, entry or key that does not itself speak of all of them
("the alarm was raised on every node", citing one node's line) is unsupported.

The items are the separately cited lines (several ``file:N`` citations) or the entries of one HAR
citation; each must carry every quoted string and identifier the claim states, except identifiers the claim
gives one per item ("both hosts lost contact, batch-11 at 02:13:52 and batch-12 at 02:13:53"). Statuses over HAR
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

import re

from .base import Check, FactVerdict, Outcome, Subject, norm, shows, universal_groups, where
from .statuses import quantified

_SAYS_ALL = re.compile(r"\b(?:all|every|each|both|none|no|always|entire|whole|cluster-wide|[0-9]+/[0-9]+|0 (?:failed|errors?))\b", re.I)


# "all"/"every"/"each" quantifying the things the claim speaks of; not a frequency ("every 10 seconds"), a count
# ("all 20 connections"), a share ("almost all of it") or a pair ("both its output and errors")
_QUANTIFIES = re.compile(r"(?<!almost )(?<!nearly )(?<!not )\b(?:all|every|each)\b(?!\s+(?:other|few|several|of\s+(?:it|this|that)|"
                         r"[a-z]+\s+(?:seconds?|minutes?|hours?|days?))\b)"
                         r"(?!\s+(?:second|minute|hour|day|week|night|morning|time|run|request)\b)"
                         r"(?:(?:\s+one)?\s+(?:of\s+)?(?:the\s+)?(?P<count>\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                         r"twelve)\b)?", re.I)
_WORDS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}


def _quantifies(s: Subject, text: str) -> bool:
    """The claim quantifies over things with all/every/each; "all 20 connections" only when the evidence lacks the 20."""
    for m in _QUANTIFIES.finditer(s.positive):
        count = m.group("count")
        if count is None:
            return True
        number = _WORDS.get(count.lower(), count.replace(",", ""))
        if not re.search(rf"(?<![\d.]){number}(?![\d])", text):
            return True
    return False


def _items(s: Subject) -> int:
    """How many separate things the citations point at: lines, HAR entries, keys."""
    return sum(max(len(e.items), 1) for e in s.items if e.kind not in ("context", "timestamp"))


def _respective(identifiers: tuple[str, ...], texts: list[str]) -> frozenset[str]:
    """Identifiers the claim gives one per item ("both hosts, at 02:13:52 on batch-11 and 02:13:53 on batch-12"):
    as many as there are items, each shown by exactly one item and each item showing exactly one of them."""
    partial = [i for i in identifiers if sum(shows(i, t) for t in texts) == 1]
    if len(partial) == len(texts) >= 2 and all(sum(shows(i, t) for i in partial) == 1 for t in texts):
        return frozenset(partial)  # one identifier per item, each in exactly one
    return frozenset()


def check(s: Subject) -> FactVerdict | None:
    facts = s.facts
    cited = [e for e in s.items if e.kind not in ("context", "timestamp")]
    over_items = bool(cited) and all(e.kind in ("log", "har") for e in cited)  # a config key is a rule: it holds for each
    shown = "\n".join(e.text for e in cited)
    if over_items and _items(s) == 1 and _quantifies(s, shown) and not _SAYS_ALL.search(shown):
        return CHECK.verdict(Outcome.UNSUPPORTED, "single_item",
                             "the claim speaks of all or every, but the citation shows a single item that says nothing of the others",
                             location=where(s.items))
    if not facts.universal or not (facts.quotes or facts.identifiers):
        return None
    groups = universal_groups(s.items)
    subset = [c for c in facts.statuses if quantified(s.positive, c)]
    if subset:  # "all 94 of the 503s come from loremflickr.com": each entry with the status, not each cited entry
        groups = [g for g in (tuple(t for e in s.items if e.kind == "har" for t, c in zip(e.items, e.statuses, strict=False)
                                    if c in subset),) if g]
    if not groups:
        return None
    for group in groups:
        texts = [norm(item) for item in group]
        spread = _respective(facts.identifiers, texts)
        for n, text in enumerate(texts, 1):
            missing_quote = next((q for q in facts.quotes if norm(q) not in text), None)
            if missing_quote is not None:
                return CHECK.verdict(Outcome.UNSUPPORTED, "not_every_item",
                                     f"the claim says every cited item shows '{facts.quotes[0]}', but cited item {n} of "
                                     f"{len(group)} does not", missing_quote, f"item {n}")
            missing = next((i for i in facts.identifiers if not shows(i, text) and i not in spread), None)
            if missing is not None:
                return CHECK.verdict(Outcome.UNSUPPORTED, "not_every_item",
                                     f"the claim says it holds for every cited item, but '{missing}' is not in cited item "
                                     f"{n} of {len(group)}", missing, f"item {n}")
    return CHECK.verdict(Outcome.SUPPORTED, "every_item", "every cited item shows it", ", ".join((*facts.quotes, *facts.identifiers)))


CHECK = Check("universals", "universal", check, "an 'all'/'every' claim holds for each cited item")
