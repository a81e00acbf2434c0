"""Negation and absence: a claim that something did not happen is refuted by evidence that shows it.

The negated part of the claim ("no 5xx", "never returned 503", "did not restart") is read on its own:
its statuses, quoted strings, identifiers and ALL-CAPS terms, then its event words, must not be shown
by the cited evidence. A negated outcome ("did not succeed", "was not redirected", "never failed") is
refuted when every cited request has a status of that class (2xx, 3xx, 4xx/5xx). The positive rest of
the claim is checked by the other checks as usual.

Passing::

    evidence app.log: 2026-03-02 14:02:11 INFO GET /api/orders 200 12ms
    claim: The cited request did not return HTTP 503 (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 ERROR GET /api/orders returned 503
    claim: The cited request did not return HTTP 503 (app.log:1).
    verdict: contradicted
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from ...evidence.timestamps import stamps_in
from ...text import ordered_terms, stem, terms
from ..anchor import anchor_claim, claim_words, is_predicate, lemmas
from ..events import events_in
from ..facts import extract
from .base import Check, FactVerdict, Outcome, Subject, har_statuses, line_statuses, norm, probe, where
from .events import event_text
from .times import zone

_GENERIC_VERBS = frozenset(stem(w) for w in (
    "appear appears appeared seen found recorded logged returned occurred occur happened shown show present contain contains "
    "observed reported request requests response responses entry entries line lines cited any "
    "no none never not nothing neither nor zero without".split()))


MAX_PHRASE_LINES = 200  # a longer cited range is not read line by line for a refutation
_PHRASE_WORDS = 3  # the head of the negated clause: its subject and verb ("no heartbeat was sent", "did not restore endpoints")


def _phrase_shown(s: Subject) -> tuple[str, str, str] | None:
    """The head words of the negated clause, each anchored by its lemma in one cited log line that
    does not itself say they are absent: "no heartbeat was sent" against ``Heartbeat sent at 14:09:57Z``, "did not
    restore any endpoints" against ``Endpoints restored ... restored=42``."""
    words = claim_words(s.negated)[:_PHRASE_WORDS]
    if len(words) < 2 or _BOUND.search(s.negated):
        return None
    # "in pod payments-api-x2k4q", "to 10.20.0.13": on that pod's or host's line, not another's
    named = {probe(i) for i in extract(s.negated, s.http).identifiers} | {
        probe(t) for t in re.findall(r"[A-Za-z0-9][\w.:/\-]*\d[\w.:/\-]*[A-Za-z0-9]|\d", s.negated)}
    lines = [item for e in s.of_kind("log") for item in (e.items or (e.text,))]
    if len(lines) > MAX_PHRASE_LINES:
        return None
    for e in s.of_kind("log"):
        for item in e.items or (e.text,):
            if not all(n in norm(item) for n in named):
                continue
            anchors = anchor_claim(" ".join(words), [replace(e, text=item, items=(item,))])
            written = {w.lower() for w in re.findall(r"[A-Za-z]+", item)}  # words of the line, not those its shape implies
            if anchors and all(a.evidence_word is not None and a.via in _WORD_ANCHORS and a.evidence_word.lower() in written
                               for a in anchors) and not any(
                    _only_absent(str(a.evidence_word), item) or _zero(str(a.evidence_word), item) for a in anchors):
                shown = " ".join(str(a.evidence_word) for a in anchors)
                return "phrase_shown", shown, f"the claim says there is none, but the cited evidence shows '{shown}'"
    return None


_WORD_ANCHORS = frozenset({"lemma"})  # a refutation needs the words themselves, not a looser synonym


def _refuted(s: Subject) -> tuple[str, str, str] | None:
    """(code, what the evidence shows, message) when the evidence shows what the claim says is absent."""
    facts = extract(s.negated, s.http)
    items = list(s.items)
    har, lines = har_statuses(items), line_statuses(items)
    text = "\n".join(e.text for e in items if e.kind != "har")
    claimed = set(facts.statuses) | {c for k in facts.status_classes for c in range(k * 100, k * 100 + 100)}
    for status in sorted(claimed) if _about_the_status(s.negated) else ():
        if status in har or status in lines or (facts.statuses and re.search(rf"(?<!\d){status}(?!\d)", text)):
            return "status_shown", str(status), f"the claim says there is none, but the cited evidence shows HTTP {status}"
    every_line = len(lines) == sum(len(e.items) for e in items if e.kind == "log")  # each cited line is a request
    outcome = _status_outcome(s.negated, har or (lines if every_line else []))
    if outcome is not None:
        return outcome
    for q in facts.quotes:
        if norm(q) in s.union and not _quoted_absent(q, s.union):  # not 'no object matching key "nginx"' for 'no class "nginx"'
            return "quote_shown", q, f"the claim says there is none, but the cited evidence shows '{q}'"
    head = " ".join(s.negated.split()[:5])  # "no ECONNRESET", "never 10.30.2.15": what is said to be absent comes first
    for ident in (*facts.identifiers, *facts.keywords):
        if ident in head and re.search(rf"(?<![a-z0-9]){re.escape(ident.lower())}", s.union) \
                and not _only_absent(ident, s.union):
            return "identifier_shown", ident, f"the claim says there is none, but the cited evidence shows '{ident}'"
    if claimed or facts.quotes or facts.identifiers or facts.keywords:
        return _phrase_shown(s)
    shown = events_in(event_text(items), skip_negated=False)
    negated_events = events_in(s.negated, skip_negated=False)
    for name, word in negated_events.items():
        if name in shown and not _only_absent(shown[name], event_text(items)):
            return "event_shown", shown[name], (f"the claim says there was no such event, but the cited evidence says "
                                                f"'{shown[name]}' ({word})")
    if re.search(r"\d", s.negated):  # "no call took longer than 100 ms", "none between 03:43 and 03:45": a bound, not an
        return _phrase_shown(s) if not _BOUND.search(s.negated) else None  # absence of the thing; "no heartbeat at 14:09:57" is
    content = [t for t in ordered_terms(s.negated) if t not in _GENERIC_VERBS]
    shown_text = event_text(items) + "\n" + "\n".join(e.text for e in items if e.kind == "har")
    hit = next((t for t in content[:1] if t in terms(shown_text) and not _zero(t, shown_text)
                and not _only_absent(t, shown_text)), None)
    if hit is not None and negated_events and _DETERMINER.match(s.negated):
        hit = None  # "no sensor gateway timed out": what is absent is the event, which is not shown; the gateways may be
    setting = next((e for e in items if e.kind in ("config", "env") and content and content[0] in terms(e.key.replace(".", " "))
                    and not re.fullmatch(r"\s*(?:0|false|no|none|null|off|disabled|)\s*", e.items[0] if e.items else "")), None)
    if setting is not None:  # "no statement timeout" against statement_timeout_ms = 5000
        return "setting_shown", setting.items[0], f"the claim says there is none, but {setting.location} is {setting.items[0]}"
    if hit:
        return "term_shown", hit, f"the claim says there is none, but the cited evidence mentions '{hit}'"
    return _phrase_shown(s)


_BOUND = re.compile(r"\b(?:longer|shorter|more|less|fewer|over|under|above|below|between|within|exceed\w*|than|beyond)\b", re.I)
_ABSENT_BEFORE = re.compile(r"(?:\b(?:no|not|without|zero|none|lost|missing|lacks?|lacking|never|failed\s+to|unable\s+to|cannot|"
                            r"could\s+not|couldn't|did\s+not|didn't)|(?<![\d.,:=])\b0)\s+(?:[\w\-]+\s+){0,2}$", re.I)
# before a quoted value: 'no object matching key "nginx"' says the value is not there
_ABSENT_BEFORE_QUOTE = re.compile(r"\b(?:no|not|without|missing|unknown)\s+(?:[\w\-]+\s+){0,3}[\\]?[\"'“‘`]$", re.I)
_ABSENT_AFTER = re.compile(  # a value, not the start of a phrase: "MFAUsed":"No" is an absence, "ENOSPC: no space left" is not
    r"^[\w\-]*\W{1,3}(?:(?:0(?:\.0+)?\s?(?:[kKMGT]i?B|bytes|ms|s)?|no|none|false|null|zero)\b(?!\s+[a-z])|(?:lost|missing|unavailable|not\s+found|miss|bypass|expired)\b)",
    re.I)


def _only_absent(term: str, text: str) -> bool:
    """A mention of the term in the evidence is itself an absence ("No cluster leader", "leader: none",
    "x-cache-status: MISS", "0 invoices written"): the evidence agrees with the claim instead of refuting it."""
    return any(absent_at(text, m.start(), m.end()) for m in mentions(term, text))


def _quoted_absent(value: str, text: str) -> bool:
    """Every mention of the quoted value is a value said not to be there ('no object matching key "nginx"')."""
    found = mentions(norm(value), text)
    return bool(found) and all(_ABSENT_BEFORE_QUOTE.search(text[max(0, m.start() - 60):m.start()]) for m in found)


def mentions(term: str, text: str) -> list[re.Match[str]]:
    """Where ``text`` mentions ``term`` (at a word start, case aside), at most :data:`MAX_MENTIONS` of them."""
    return list(re.finditer(rf"(?<![a-z]){re.escape(term)}", text, re.I))[:MAX_MENTIONS]


def absent_at(text: str, start: int, end: int) -> bool:
    """Whether the mention ``text[start:end]`` says the thing is absent: "failed=0", "Free swap = 0kB", "leader: none",
    "no leader" (not "ENOSPC: no space left")."""
    return bool(_ZERO_AFTER.match(text, end, end + 60) or _ABSENT_AFTER.match(text[start:start + 60])
                or _ABSENT_BEFORE.search(text[max(0, start - 40):start]))


@cache
def _reporting() -> frozenset[str]:
    """The lemmas of verbs that report a status rather than say who acted (computed on first use: the lemmatizer
    loads its tables then, not when citeproof is imported)."""
    return frozenset(lemma for w in (
        "return respond answer receive get see log show record have hit serve send produce throw raise emit occur appear "
        "happen contain find encounter").split() for lemma in lemmas(w))


def _about_the_status(negated: str) -> bool:
    """ "no 504s", "never returned 503", "did not get a 5xx": the absence is of the status. "Fastly did not generate
    the 504s" says who did not, which the statuses of the evidence cannot refute."""
    words = re.findall(r"[A-Za-z']+", negated)
    verb = next((w for w in words[1:3] if w.lower() not in ("not", "a", "an", "the", "any", "single", "even")), None)
    return verb is None or not is_predicate(verb.lower()) or bool(lemmas(verb.lower()) & _reporting())


# what an HTTP status says of the outcome of a request (RFC 9110 status classes): a negated outcome word is refuted
# when every cited request has a status of its class ("did not succeed" against 200, "was not redirected" against 302)
_OUTCOME_WORDS = (
    ("succeed success successful work complete", range(200, 300)),
    ("redirect redirected", range(300, 400)),
    ("fail failure error reject refuse deny", range(400, 600)),
)


@cache
def _outcomes() -> tuple[tuple[frozenset[str], range], ...]:
    return tuple((frozenset(lemma for w in words.split() for lemma in lemmas(w)), codes) for words, codes in _OUTCOME_WORDS)


def _status_outcome(negated: str, statuses: list[int]) -> tuple[str, str, str] | None:
    if not statuses:
        return None
    words = {lemma for w in re.findall(r"[A-Za-z]+", negated) for lemma in lemmas(w.lower())}
    for outcome, codes in _outcomes():
        if words & outcome and all(code in codes for code in statuses):
            word = sorted(words & outcome)[0]
            return "outcome_shown", str(statuses[0]), (f"the claim says it did not {word}, but the cited request returned "
                                                      f"HTTP {statuses[0]}")
    return None


def _zero(term: str, text: str) -> bool:
    """The evidence gives the term a zero or false value ("idle=0", "charging: false"): it shows the absence."""
    found = list(re.finditer(rf"(?<![a-z]){re.escape(term)}", text, re.I))[:MAX_MENTIONS]
    return any(_FALSE_AFTER.match(text, m.end(), m.end() + 60) for m in found)


# what follows a term that gives it no value; matched at each mention in a bounded window (linear in the line)
MAX_MENTIONS = 64
_ZERO_AFTER = re.compile(r"[\w\-]{0,40}[\"']?\s{0,8}[=:]\s{0,8}[\"']?(?:0(?:\.0+)?|false|null|none)(?:[kKMG]i?B)?(?![\w.])", re.I)
_FALSE_AFTER = re.compile(r"[\w\-]{0,40}[\"']?\s{0,8}[=:]\s{0,8}[\"']?(?:0|false|no|none|null|disabled)(?:\b|(?=[kKMG]i?B))", re.I)


_EXCEPT = re.compile(r"\b(?:apart\s+from|aside\s+from|except(?:\s+for)?|other\s+than|besides|save\s+for|excluding)\s+"
                     r"(?:the\s+|one\s+|a\s+)?([^,;:()]+?)(?=[,;:()]|\s+(?:none|no|nothing|never|did|was|were|had|has|is|are)\b|$)", re.I)
_NAMED = re.compile(r"[\w.:/\-]*\d[\w.:/\-]*|[A-Za-z][\w]*[-_][\w\-]+|\b[A-Z][A-Z0-9]{2,}\b")


def _without_exceptions(s: Subject) -> Subject:
    """The claim's evidence without the items its exception names: "apart from sensor-gw-12, none of the gateways
    timed out" is checked on the cited lines that do not mention sensor-gw-12."""
    names = [n.lower() for m in _EXCEPT.finditer(s.text) for n in _NAMED.findall(m.group(1))]
    if not names:
        return s
    items = []
    for e in s.items:
        if e.kind not in ("log", "har") or not e.items:
            items.append(e)
            continue
        kept = [(i, item) for i, item in enumerate(e.items) if not any(n in item.lower() for n in names)]
        statuses = tuple(e.statuses[i] for i, _ in kept if i < len(e.statuses)) if e.kind == "har" else e.statuses
        texts = tuple(item for _, item in kept)
        items.append(replace(e, items=texts, text="\n".join(texts), statuses=statuses))
    return replace(s, items=tuple(items))


# "after the rollback began at 03:45:31", "since 09:12", "before 14:00 UTC" ("since the backlog drained by 09:35" gives a
# reason, not a window: "since" bounds only when the time follows it)
_WINDOW = re.compile(r"\b(?:(after|following|later\s+than|before|until|till|prior\s+to|earlier\s+than)\b[^,;]{0,48}?|(since)\s+(?:at\s+)?)"
                     r"(?<![\d:])(\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s?(?:UTC|Z|GMT|[+-]\d{2}:?\d{2}))?)", re.I)


def _within_window(s: Subject) -> Subject:
    """The claim's evidence inside the window its absence is bounded by: "no OOM kill after the rollback began at
    03:45:31" is checked on the cited lines and entries stamped after 03:45:31 (those without a time are kept)."""
    m = _WINDOW.search(s.text)
    bound = extract(m.group(3)).times if m else ()
    if m is None or not bound:
        return s
    after = not (m.group(1) or m.group(2)).lower().startswith(("before", "until", "till", "prior", "earlier"))
    edge = bound[0]

    def inside(text: str) -> bool:
        stamp = next((st for _, st in stamps_in(text, s.tz)), None)
        if stamp is None:
            return True
        local = stamp.instant.astimezone(zone(edge.zone)) if edge.zone else stamp.instant
        seconds = local.hour * 3600 + local.minute * 60 + local.second + local.microsecond / 1e6
        return seconds > edge.seconds if after else seconds < edge.seconds

    items = []
    for e in s.items:
        if e.kind not in ("log", "har") or not e.items:
            items.append(e)
            continue
        kept = [(i, item) for i, item in enumerate(e.items) if inside(item)]
        statuses = tuple(e.statuses[i] for i, _ in kept if i < len(e.statuses)) if e.kind == "har" else e.statuses
        texts = tuple(item for _, item in kept)
        items.append(replace(e, items=texts, text="\n".join(texts), statuses=statuses))
    return replace(s, items=tuple(items))


# a negation of a noun phrase ("no gateway ...", "none of the requests ..."), not of a verb ("did not exit")
_DETERMINER = re.compile(r"\s*(?:no|none(?:\s+of)?|not\s+(?:a\s+single|a|any|one)|zero|nothing|neither)\b", re.I)


def check(s: Subject) -> FactVerdict | None:
    if not s.negated:
        return None
    refuted = _refuted(_within_window(_without_exceptions(s)))
    if refuted is None:
        return CHECK.verdict(Outcome.SUPPORTED, "absent", "the cited evidence does not show what the claim says is absent",
                             claimed=s.negated.strip())
    code, shown, message = refuted
    return CHECK.verdict(Outcome.CONTRADICTED, code, message, claimed=s.negated.strip(), evidence=shown, location=where(s.items))


CHECK = Check("negation", "absence", check, "what a negated claim says is absent is not shown by the cited evidence")
