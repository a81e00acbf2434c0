"""HTTP statuses: each status the claim states is one the cited evidence returned.

Statuses are read from cited HAR entries (``response.status``), from access-log lines (the status field
after the request), and from other cited text. A cited HAR entry or access-log line with another
status than every one the claim states contradicts it; a status found nowhere in the evidence is
unsupported; a claim of one status over several HAR entries needs every entry to have it.

Passing::

    evidence access.log: 203.0.113.7 - - [02/Mar/2026:14:02:11 +0000] "GET /api/orders HTTP/1.1" 503 162 "-" "curl/8.5"
    claim: GET /api/orders failed with 503 Service Unavailable (access.log:1).
    verdict: supported

Failing::

    evidence access.log: 203.0.113.7 - - [02/Mar/2026:14:02:11 +0000] "GET /api/orders HTTP/1.1" 502 162 "-" "curl/8.5"
    claim: GET /api/orders failed with 503 Service Unavailable (access.log:1).
    verdict: contradicted
"""

from __future__ import annotations

import re

from ..facts import WORD_NUMBERS
from .base import Check, FactVerdict, Outcome, Subject, har_statuses, line_status, line_statuses, norm, probe, seen, where

_PLURAL = re.compile(r"\b(?:entries|requests|calls|responses|replies|attempts|errors|they|these|those|both|each|every|all)\b"
                     r"|\b[1-5]\d\ds\b|\b[1-5]xx\b", re.I)


# "the first cart 429 (entries 8, 16-18)", "the API started answering 503 (entries 1-10)": one of the cited entries is enough
_ONE_OF = re.compile(r"\b(?:first|last|one|single|only\s+one|another|start(?:ed|s)?|began|begins?)\b", re.I)


def _counted(text: str, status: int) -> int | None:
    """The number the claim gives of responses with ``status`` ("13 HTTP 503 responses", "13 503s"), or None."""
    m = re.search(rf"\b(\d[\d,]*)\s+(?:more\s+|further\s+)?(?:HTTP\s+)?(?:status\s+)?{status}(?:s|\b)", text, re.I)
    return int(m.group(1).replace(",", "")) if m else None


def _with_count(text: str, status: int) -> bool:
    """Whether a count stands just before the status ("42 were 302", "260 responses were 200 OK"), not a range's end."""
    for m in re.finditer(rf"(?<![\d\-–:.,])\d[\d,]*\s+((?:[A-Za-z]+\s+){{0,3}}?)(?:HTTP\s+)?{status}(?!\d)", text):
        between = m.group(1).lower().split()
        named = re.search(r"\b(?:entr(?:y|ies)|requests?|lines?|calls?)\s+(?:\d+\s*(?:,|and|&|-|–)?\s*)*$", text[:m.start()], re.I)
        if not named and not {"all", "every", "each", "both"} & set(between):  # "Requests 3, 9 and 12 all returned 503"
            return True
    return False


def _label(s: Subject) -> str:
    return "/".join([str(c) for c in s.facts.statuses] + [f"{c}xx" for c in s.facts.status_classes])


def _conflict(s: Subject) -> FactVerdict | None:
    """Cited HAR entries or access-log lines that carry another status than the one claimed."""
    facts = s.facts
    claimed = set(facts.statuses) | {c for k in facts.status_classes for c in range(k * 100, k * 100 + 100)}
    label = _label(s)
    har = har_statuses(s.items)
    elsewhere = "\n".join(e.text for e in s.items if e.kind != "har")
    if har and any(re.search(rf"(?<!\d){c}(?!\d)", elsewhere) for c in facts.statuses):
        har = []  # "the acquirer answered 409" shown by a cited log line; the cited HAR entry is the console's own call
    if har and not facts.universal and not facts.statuses and facts.status_classes:
        if any(c in claimed for c in har):
            return None
        return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"no cited HAR entry returned {label} (they returned {seen(har)})",
                             label, seen(har), where(s.of_kind("har")))
    odd = [c for c in har if c not in claimed]
    if odd and len(odd) == len(har):
        return CHECK.verdict(Outcome.CONTRADICTED, "mismatch",
                             f"the cited HAR entr{'y' if len(har) == 1 else 'ies'} returned {seen(har)}, not {label}",
                             label, seen(har), where(s.of_kind("har")))
    lines = line_statuses(s.items)
    written = "\n".join(e.text for e in s.items if e.kind == "log")
    if lines and not any(c in claimed for c in lines) and not any(re.search(rf"(?<!\d){c}(?!\d)", written) for c in facts.statuses):
        return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"the cited line records HTTP {lines[0]}, not {label}",
                             label, str(lines[0]), where(s.of_kind("log")))
    return None


def _absent(s: Subject) -> FactVerdict | None:
    har = har_statuses(s.items)
    text = "\n".join(e.text for e in s.items if e.kind != "har")
    for status in s.facts.statuses:
        if status not in har and not re.search(rf"(?<!\d){status}(?!\d)", text):
            shown = f" (cited entries returned {seen(har)})" if har else ""
            return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"HTTP {status} is not in the cited evidence{shown}",
                                 str(status), seen(har), where(s.items))
    plural = s.facts.universal or bool(_PLURAL.search(s.positive)) or not _ONE_OF.search(s.text)
    if not plural and any(c in s.facts.statuses for c in har):
        return None  # "the first cart 429 (entries 8, 16, 17 and 18)": one of the cited entries is enough
    if len(s.facts.statuses) == 1 and _counted(s.positive, s.facts.statuses[0]) == har.count(s.facts.statuses[0]):
        return None  # "13 HTTP 503 responses" over a range holding 13 of them: the count is the claim, not "every entry"
    if all(_with_count(s.positive, c) for c in s.facts.statuses):
        return None  # "260 responses were 200 OK and 42 were 302": how many of each, which the count check compares
    if _PART.search(s.positive) or any(quantified(s.positive, c) for c in s.facts.statuses):
        return None  # "8 of the 32 requests failed with 503", "all 94 of the 503s came from ...": some of the items, not each
    for e in s.of_kind("har"):
        odd = [(n, c) for n, c in enumerate(e.statuses, 1) if c not in s.facts.statuses]
        if odd:
            n, c = odd[0]
            # "all returned 200" with one entry a 204: the claim is refuted, not merely unshown
            outcome = Outcome.CONTRADICTED if s.facts.universal else Outcome.UNSUPPORTED
            return CHECK.verdict(outcome, "not_every_entry",
                                 f"not every cited entry returned {'/'.join(map(str, s.facts.statuses))}: "
                                 f"cited entry {n} of {len(e.statuses)} returned {c}", _label(s), str(c), e.location)
    return _every_line(s) if s.facts.universal else None


_ITEMS = r"(?:requests?|responses?|entries|entry|calls?|lines?|hits?|attempts?|fetches|downloads?|uploads?|deliveries|[1-5]\d\ds)\b"
# "8 of the 32 requests", "11 of the 14 are 503s", "3 of them": a part of the cited items, so not each of them
_PART = re.compile(r"(?<!\ball\s)\b(?:\d[\d,]*|" + "|".join(WORD_NUMBERS) + r")\s+of\s+(?:(?:the|all|these|those)\s+(?:\d[\d,]*\s+)?"
                   r"(?:[a-z]+\s+)?" + _ITEMS + r"|(?:the|these|those)\s+\d[\d,]*\s+(?:are|were)\b|them\b)", re.I)


def quantified(text: str, status: int) -> bool:
    """Whether the claim speaks of the items with the status, not of every item: "all 94 of the 503s", "every 503",
    "the 503s were spread over ..."."""
    return bool(re.search(rf"\b(?:all\s+(?:\d[\d,]*\s+)?(?:of\s+)?(?:the|these|those)\s+|every\s+|each\s+)(?:HTTP\s+)?{status}s?\b"
                          rf"|\b(?:the|these|those)\s+(?:\d[\d,]*\s+)?(?:HTTP\s+)?{status}s\b", text, re.I))


def _every_line(s: Subject) -> FactVerdict | None:
    """"Every request in lines 18-47 returned 200": each cited access-log line that names the claim's identifiers
    (its client, path, host) records the status."""
    needles = [probe(i) for i in s.facts.identifiers]
    for e in s.of_kind("log"):
        recorded = [(n, c) for n, line in enumerate(e.items, 1) if (c := line_status(line)) is not None
                    and all(x in norm(line) for x in needles)]
        odd = [(n, c) for n, c in recorded if c not in s.facts.statuses]
        if any(n.quantity is None and n.value < len(recorded) and any(re.fullmatch(_ITEMS, w, re.I) or w.endswith("pages")
                                                                       for w in n.counts) for n in s.facts.numbers):
            return None  # "fetched four more pages, all returning 200" over six lines: all of those four
        if len(recorded) > 1 and odd:
            n, c = odd[0]
            return CHECK.verdict(Outcome.CONTRADICTED, "not_every_line",
                                 f"not every cited line records HTTP {'/'.join(map(str, s.facts.statuses))}: "
                                 f"cited line {n} of {len(e.items)} records {c}", _label(s), str(c), e.location)
    return None


def check(s: Subject) -> FactVerdict | None:
    if not (s.facts.statuses or s.facts.status_classes):
        return None
    problem = _conflict(s) or (_absent(s) if s.facts.statuses else None)
    return problem or CHECK.verdict(Outcome.SUPPORTED, "shown", f"HTTP {_label(s)}", _label(s))


CHECK = Check("statuses", "status", check, "each HTTP status the claim states is one the cited evidence returned")
