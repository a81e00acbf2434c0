"""Rule 1, ``temporal`` — times that cannot all be true.

Three checks, each over the times the claims state (times of day, ISO instants, timestamp citations):

* **Same event, different times.** Two claims are about the same event when they cite the same log
  line or HAR entry, or name the same event with the definite article ("the outage", "the deploy",
  "the failover") or the same quoted message, without words that make them different occurrences
  ("first", "last", "another", "again", "each", ...). Their times must agree within
  ``temporal_tolerance_s`` (default 10 s).
* **Order words.** "X at t1 before/then Y at t2" needs t1 < t2, "X at t1 after Y at t2" needs t1 > t2;
  a claim that calls its event the first failure ("was the first", "the first error", "began with") at
  t1 is contradicted by another claim reporting a failure earlier than t1 (by more than a second).
* **A claim's time against its own evidence.** A claim whose stated time differs from the time on
  the line or entry it cites (found by the support check) is reported here too.

Passing (no finding): "The first 429 arrived at 10:30:12" and "The last 429 arrived at 10:31:52".
Failing: "The timeout at 10:30:45Z was the first failure" and "An error appeared at 10:30:42Z".
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from ..evidence.timestamps import parse_iso
from ..model import ClaimStatus, ContradictionFinding
from ..support.events import events_in
from ..support.facts import extract
from ..text import STOP_WORDS
from .base import ClaimView, Found, Rule, RuleContext
from .readings import covers, event_words, key_of, lemma_set, names, same_scope, words

_DISTINCT = re.compile(
    r"\b(?:first|last|second|third|final|initial|another|again|next|later|earlier|previous|subsequent|each|every|all|"
    r"repeated|multiple|several|other|also|more|new|one of)\b",
    re.I,
)
_FIRST = re.compile(
    r"\b(?:(?:was|were|is|came)\s(?:the\s)?first\b(?!\s\w+\s(?:of|to|in)\b)|first\s(?:failure|error|event|symptom|sign|problem|issue)s?\b(?!\s(?:of|after|in|from)\b)|"
    r"initially|began with|started with|kicked off)",
    re.I,
)
_FAILURE = frozenset({"fail", "crash", "deny", "unavailable", "stop", "disconnect"})
_EVENT_NOUNS = (
    "outage|incident|deploy|deployment|release|rollout|rollback|restart|reboot|failover|crash|upgrade|migration|"
    "cutover|timeout|spike|shutdown|startup|outbreak|breach|alert|page"
)
_DEFINITE = re.compile(r"\bthe\s(?:\w+\s)?(" + _EVENT_NOUNS + r")\b", re.I)
_ORDER = re.compile(r"\b(before|after|then|followed by|preceded|preceding|prior to|later than|earlier than)\b", re.I)


@dataclass(frozen=True)
class Stated:
    seconds: float  # time of day, UTC when the claim names a zone, else as written
    instant: dt.datetime | None  # full instant when the claim gives a date
    raw: str
    start: int  # position in the claim text (for order words)
    precision: float = 1.0  # 60 for "14:02", 1 for "14:02:11"


def _stated(view: ClaimView) -> list[Stated]:
    out: list[Stated] = []
    for t in view.facts.times:
        secs = t.seconds
        zone = t.zone or view.claim.zone  # a table's time column or the document may name the zone
        if zone and zone not in ("Z", "UTC", "GMT") and zone[0] in "+-":
            sign = -1 if zone[0] == "-" else 1
            digits = zone[1:].replace(":", "")
            secs = (secs - sign * (int(digits[:2]) * 3600 + int(digits[2:4] or 0) * 60)) % 86400
        out.append(Stated(secs, None, t.raw, view.text.find(t.raw), t.precision))
    resolved = {c.citation for c in view.result.citations if c.citation_format == "timestamp" and c.citation_exists}
    for ref in view.claim.citations:
        if ref.format_id != "timestamp" or ref.raw not in resolved:
            continue
        instant = parse_iso(str(ref.fields.get("value", "")))
        if instant is not None:
            utc = instant.astimezone(dt.UTC)
            secs = utc.hour * 3600 + utc.minute * 60 + utc.second + utc.microsecond / 1e6
            out.append(Stated(secs, utc, str(ref.fields["value"]), view.claim.text.find(ref.raw)))
    return out


def _diff(a: Stated, b: Stated) -> float:
    if a.instant and b.instant:
        return (a.instant - b.instant).total_seconds()
    d = a.seconds - b.seconds
    if d > 43200:
        d -= 86400
    elif d < -43200:
        d += 86400
    return d


def _locations(view: ClaimView) -> set[str]:
    return {c.location for c in view.result.citations if c.location and c.citation_exists and c.citation_format != "timestamp"}


def _event_keys(view: ClaimView) -> list[tuple[str, str]]:
    """What names this claim's event: the lines/entries it cites, "the <event>", a quoted message + its event."""
    if _DISTINCT.search(view.text):
        return []
    cited = sorted(_locations(view))
    single = len(cited) == 1 and not re.search(r":\d+-\d+$|entries|#", cited[0])  # one line or entry, not a range or a key
    keys = [("cite", cited[0])] if single else []
    keys += [("the", m.group(1).lower()) for m in _DEFINITE.finditer(view.text)]
    events = sorted(events_in(view.text))
    keys += [("quote", f"{q.lower()}|{e}") for q in view.facts.quotes for e in events]
    return list(dict.fromkeys(keys))


_WHY = {"cite": "both cite {}", "the": "both describe the {}", "quote": "both report '{}'"}


def _fmt(seconds: float) -> str:
    s = round(seconds) % 86400
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


def check(ctx: RuleContext) -> list[Found]:
    tol = ctx.options.temporal_tolerance_s
    views = [v for v in ctx.claims if v.result.status is not ClaimStatus.UNCITED or v.facts.times]
    times = {v.id: _stated(v) for v in views}
    out: list[Found] = []
    buckets: dict[tuple[str, str], list[ClaimView]] = {}
    for v in views:
        if len(times[v.id]) == 1:
            for key in _event_keys(v):
                buckets.setdefault(key, []).append(v)
    reported: set[tuple[str, str]] = set()
    for key, members in sorted(buckets.items()):
        if len(members) < 2:
            continue  # one bucket, sorted by time: its earliest and latest claims are the widest disagreement
        ordered = sorted(members, key=lambda v: (times[v.id][0].seconds, v.id))
        a, b = ordered[0], ordered[-1]
        gap = _diff(times[b.id][0], times[a.id][0])
        pair = (min(a.id, b.id), max(a.id, b.id))
        if abs(gap) > tol and pair not in reported:
            reported.add(pair)
            why = _WHY[key[0]].format(key[1].split("|")[0])
            out.append(_found(a, b, f"{a.id} puts the event at {times[a.id][0].raw}, {b.id} at {times[b.id][0].raw} "
                                    f"({abs(gap):g} s apart; {why})",
                              "Check which time the evidence shows and correct the other claim"))
    out += _order_within(views, times)
    out += _first_across(views, times, 1.0)  # order needs only the times' own precision
    out += _starts_across(views, times, tol, {frozenset(f.finding.claims) for f in out})
    out += _orders_across(list(ctx.claims), {frozenset(f.finding.claims) for f in out})
    out += _own_evidence(views)
    return out


def _found(a: ClaimView, b: ClaimView | None, detail: str, resolution: str) -> Found:
    ids = [a.id] if b is None else [a.id, b.id]
    return Found(ContradictionFinding(rule="temporal", claims=ids, detail=detail, resolution=resolution))


def _order_within(views: list[ClaimView], times: dict[str, list[Stated]]) -> list[Found]:
    out = []
    for v in views:
        ts = sorted((t for t in times[v.id] if t.start >= 0), key=lambda t: t.start)
        if len(ts) != 2:
            continue
        m = _ORDER.search(v.text)
        if not m:
            continue
        word = m.group(1).lower()
        first, second = ts
        later = word in ("after", "later than", "preceded")  # "X at t1 after Y at t2": t1 > t2
        if word == "preceded" or word == "preceding":
            later = m.start() < first.start
        gap = _diff(first, second)
        wrong = gap < 0 if later else gap > 0
        if wrong and abs(gap) >= 1:
            order = "after" if later else "before"
            out.append(_found(v, None, f"{v.id} says {first.raw} is {order} {second.raw}, but it is {abs(gap):g} s "
                                       f"{'earlier' if later else 'later'}",
                              f"Reorder the events of {v.id}: {_fmt(min(first.seconds, second.seconds))} comes first"))
    return out


def _first_across(views: list[ClaimView], times: dict[str, list[Stated]], tol: float) -> list[Found]:
    """A claim that calls its event the first failure, against the earliest failure another claim reports."""
    failures = sorted(
        ((times[b.id][0].seconds, b.id, b) for b in views if len(times[b.id]) == 1 and set(events_in(b.text)) & _FAILURE),
        key=lambda item: (item[0], item[1]),
    )
    out = []
    for a in views:
        if not _FIRST.search(a.text) or len(times[a.id]) != 1:
            continue
        t_first = times[a.id][0]
        earliest = next((b for _, bid, b in failures if bid != a.id), None)
        if earliest is None:
            continue
        t_b = times[earliest.id][0]
        gap = _diff(t_first, t_b)
        if gap > tol:
            what = " ".join(extract(earliest.text).quotes[:1]) or earliest.text.split(" at ")[0][:60]
            out.append(_found(a, earliest, f"{a.id} says its event at {t_first.raw} came first, but {earliest.id} reports an event at "
                                           f"{t_b.raw}, {gap:g} s earlier",
                              f"{what} ({t_b.raw}) came first, then the event of {a.id} {gap:g} s later"))
    return out


# "the first OOM kill", "x2k4q was first OOMKilled": the words after "first" ("last") name the event that began (ended).
_FIRST_OF = re.compile(r"\b(?P<edge>first|last)\s+(?P<phrase>[\w.\-/:+]+(?:\s+[\w.\-/:+]+){0,2})", re.I)
# "OOM kills only started at", "rebalancing began at", "503s in the capture stop at": the words before the verb name it.
_BEGAN = re.compile(
    r"(?P<phrase>(?:[\w.\-/]+\s+){0,5}[\w.\-/]+)\s+(?:only\s+|first\s+|really\s+|finally\s+)?"
    r"(?P<edge>started|starts|began|begun|begins|kicked\s+off|commenced|set\s+in|stopped|stop|stops|ended|ends|ceased|ceases)"
    r"(?P<verb>\s+(?:[\w-]+\s+){0,2}?)(?=(?:at|around|about|near|by|on|from)\b|\d{1,2}:\d\d)",
    re.I,
)
# "No mutations were dropped after 09:15:42": the event ended at that time.
_NONE_AFTER = re.compile(r"\bno\s+(?P<phrase>(?:[\w.\-/]+\s+){0,3}?[\w.\-/]+)\s+(?:after|since|past|beyond)\s+(?=\d)", re.I)
_GERUND = re.compile(r"\s*(?:being\s+)?(?P<object>\w+ing(?:\s+[\w.\-/]+){0,2}|\w+ed)\s*$", re.I)
_POSSESSED = re.compile(r"(?:\b(?:its|their|his|her|our|my)|(?P<owner>[\w.\-/]+)'s)\s*$|\b(?:its|their|his|her)\s+\w+\s*$", re.I)
_ORDINAL = re.compile(r"\b(?:last|second|third|next|final|another|new|each|every|latest|later|first)\b", re.I)
_QUALIFIED = re.compile(r"\s+(?:the|that|which|who|we|it|they|our|this)\s+\w+", re.I)  # a relative clause narrows it
_WINDOWED = re.compile(r"\s(?:after|since|following|once|post)\b", re.I)
_NOT_START = re.compile(r"\b(?:before|after|prior to|until|since|then|followed|preceded|later|earlier|no|not|never|without)\b", re.I)
_MAX_NAMED = 6  # claims one finding names at most
_ENDS = ("last", "stopped", "stop", "stops", "ended", "ends", "ceased", "ceases", "no")


@dataclass(frozen=True)
class Start:
    """When a claim says an event began (or, with ``end``, ended)."""

    view: ClaimView
    key: tuple[frozenset[str], ...]
    phrase: str
    time: Stated
    scope: tuple[str, ...] = ()  # whose event: the host ("the first OOM kill on worker-b2") or owner ("worker-a's first")
    end: bool = False


def _lead(phrase: str) -> str:
    """The words of ``phrase`` up to its first function word ("OOM kill: java pid" -> "OOM kill")."""
    kept: list[str] = []
    for word in re.split(r"\s+", phrase):
        bare = word.strip(":,;.()[]")
        if bare and not key_of(bare) and bare.lower() not in STOP_WORDS and word == bare:
            continue  # "first soft time limit breach": a framing word inside the name of the event
        if not bare or (word != bare and kept) or not key_of(bare) or (kept and re.fullmatch(r"[a-z]+ed", bare)):
            if bare and key_of(bare) and not re.fullmatch(r"[a-z]+ed", bare):
                kept.append(bare)
            break  # "503 served by the edge": the participle starts what is said about the event
        kept.append(bare)
    return " ".join(kept)


def _tail(phrase: str) -> str:
    """The words of ``phrase`` after its last function word ("in Bangkok the incident" -> "incident")."""
    kept: list[str] = []
    for word in reversed(re.split(r"\s+", re.sub(r"(?:\s+(?:only|first|really|just|actually|finally))+$", "", phrase, flags=re.I))):
        bare = word.strip(":,;()[]")
        if not bare or not key_of(bare) or word != bare:
            if word != bare and bare and key_of(bare) and not kept:
                kept.append(bare)
            break
        kept.append(bare)
    return " ".join(reversed(kept))


def _names_event(phrase: str) -> bool:
    """A phrase that can name an event: a noun or verb, a code (503, UO), a name with digits or underscores; not "good one"."""
    from lemminflect import getAllLemmas

    last = phrase.split()[-1].lower()
    if last in ("one", "ones"):
        return False
    for word in phrase.split():
        if re.search(r"[\d_]|^[A-Z]{2,}", word) or set(getAllLemmas(word.lower())) & {"NOUN", "VERB", "PROPN"}:
            return True
        if not getAllLemmas(word.lower()):
            return True  # a word the lexicon does not know is a name: "rebalance", "OOMKilled"
    return False


def _owner(before: str) -> tuple[str, ...] | None:
    """Whose event a possessive makes it: ("worker-a",) for "worker-a's first"; None for "its" (unknown owner)."""
    m = _POSSESSED.search(before)
    if m is None:
        return ()
    return (m.group("owner").lower(),) if m.group("owner") else None


def _starts(view: ClaimView, stated: list[Stated]) -> list[Start]:
    """The events this claim says began or ended at its one time: "the first X at t", "X started at t", "no X after t"."""
    if not stated and _NONE_AFTER.search(view.text):  # a negated claim's facts leave out its negated clause
        stated = _stated(replace(view, facts=extract(view.text)))
    if not stated:
        return []
    out = []
    head = view.text

    def when(at: int) -> Stated | None:
        """The claim's time for an edge written at ``at``: its only time, else the first after it in the sentence."""
        if len(stated) == 1:
            return stated[0]
        later = [t for t in stated if t.start >= at]
        return min(later, key=lambda t: t.start) if later else None

    for m in _FIRST_OF.finditer(head):
        phrase = _lead(m.group("phrase"))
        before, rest = head[max(0, m.start() - 40):m.start()], head[m.start("phrase") + len(phrase):]
        owner = _owner(before)
        if not phrase or owner is None or _NOT_START.search(before[-12:]) or _WINDOWED.match(rest) or _QUALIFIED.match(rest):
            continue  # "its first cycle", "the first request after the reset", "the last delivery the receiver accepted"
        if not _names_event(phrase) or re.match(r"(?:\S+\s+)?ones?\b", m.group("phrase"), re.I):
            continue  # "the first good one": the event is named elsewhere
        if re.fullmatch(r"\w+ed", phrase.split()[0]):  # "the readiness check first failed": the subject names the event
            phrase = f"{_tail(before.strip())} {phrase}".strip()
        where = re.match(r"\s(?:on|at|in|for|of)\s(\S+)", rest)
        scope = owner or (names(where.group(1)) if where else ())
        t = when(m.start())
        if t is not None:
            out.append(Start(view, key_of(phrase), phrase, t, scope, m.group("edge").lower() == "last"))
    for m in _BEGAN.finditer(head):
        lead = re.sub(r"\s+(?:in|on|from|at|of|across|for)\s+(?:the\s+|a\s+)?[\w.\-/]+$", "", m.group("phrase"))
        phrase = _tail(lead)  # "Image 503s in the capture stop at": the capture is where, not what
        gerund = _GERUND.match(m.group("verb") or "")
        if gerund and gerund.group("object").strip():
            obj = gerund.group("object").strip()  # "Envoy started returning 503s": 503s; "mutations started being dropped"
            passive = obj.endswith("ed") or obj.lower().startswith("being")
            parts = obj.split(None, 1)
            phrase = f"{phrase} {obj}".strip() if passive or len(parts) == 1 else parts[1]
        owner = _owner(lead[: len(lead) - len(_tail(lead))])
        if not _tail(lead):
            continue  # "... and began streaming": who began is not said here
        if phrase and owner is not None and not _NOT_START.search(lead) and not _ORDINAL.search(lead):
            on = re.search(r"\bon\s+([\w.\-]+?),?\s", lead[: len(lead) - len(_tail(lead))] + " ", re.I)  # "On worker-a the soft limits"
            scope = owner or names(lead) or ((on.group(1).lower(),) if on else ())
            t = when(m.start())
            if t is not None:
                out.append(Start(view, key_of(phrase), phrase, t, scope, m.group("edge").lower() in _ENDS))
    for m in _NONE_AFTER.finditer(head):
        phrase = " ".join(w for w in m.group("phrase").split() if w.lower() not in ("was", "were", "is", "are", "been"))
        t = when(m.end())
        if t is not None:
            out.append(Start(view, key_of(phrase), phrase, t, (), True))
    return [s for s in out if s.key]


# nouns that only say a thing happened: "the first query_wait_timeout error" is the first query_wait_timeout
_GENERIC_EVENT = frozenset({"error", "errors", "failure", "failures", "event", "events", "message", "messages", "warning", "warnings",
                            "issue", "problem", "exception", "exceptions", "occurrence"})


def _core(start: Start) -> tuple[frozenset[str], ...]:
    """The words of an edge's key that name its event (not "error", "failure", "event")."""
    return tuple(forms for forms in start.key if not forms & _GENERIC_EVENT)


def _signature(start: Start) -> tuple[str, ...]:
    """One lemma per word of the edge's event, for grouping the edges that may name the same event."""
    return tuple(sorted(min(forms) for forms in (_core(start) or start.key)))


def _same_event(a: Start, b: Start) -> bool:
    """Two edges name one event when each one's words are said by the other's (bar words that only say it happened):
    "Last image 503" and "Image 503s ... stop" do; "First 503" and "First NOSRV 503" do not (NOSRV 503s are some 503s)."""
    ka, kb = _core(a), _core(b)
    return bool(ka and kb) and covers(ka, lemma_set(b.phrase)) and covers(kb, lemma_set(a.phrase))


def _starts_across(views: list[ClaimView], times: dict[str, list[Stated]], tol: float,
                   done: set[frozenset[str]]) -> list[Found]:
    """When an event began or ended, against the other claims about it: two beginnings (or two ends) at different
    times, an occurrence before the beginning, or one after the end.

    "OOM kills only started at 03:20:48" is contradicted by "03:16:40 | m8zpl OOMKilled on worker-a1" (the
    event is said, by its lemmas, in a claim that dates it earlier) and by "03:14:07 | First OOM kill" (a
    second beginning); "No mutations were dropped after 09:15:42" by "09:16:02 — last dropped-mutation report".
    Each pair is reported once; claims with order words ("after", "before") or a negation date something else
    and are not read as occurrences; a beginning on one host or of one owner is only compared with that host's.

    Passing (no finding): "The first OOM kill was at 03:14:07 UTC" and "A second replica was OOMKilled at 03:16:40 UTC".
    Failing: "OOM kills only started at 03:20:48 UTC" and "A replica was OOMKilled at 03:16:40 UTC".
    """
    starts = [s for v in views for s in _starts(v, times[v.id])]
    by_view: dict[str, list[Start]] = {}
    for s in starts:
        by_view.setdefault(s.view.id, []).append(s)
    dated = [v for v in views if len(times[v.id]) == 1]
    said = {v.id: lemma_set(v.text) for v in dated}
    naming: dict[str, set[int]] = {}  # lemma -> the dated claims that say it (positions), so each edge meets only its own
    for n, v in enumerate(dated):
        for lemma in said[v.id]:
            naming.setdefault(lemma, set()).add(n)
    has_edge = [v.id in by_view for v in dated]
    position = {v.id: n for n, v in enumerate(dated)}
    alike: dict[tuple[bool, tuple[str, ...], tuple[str, ...]], list[int]] = {}  # edges of one event, end and scope
    for e in starts:
        if e.view.id in position:
            alike.setdefault((e.end, e.scope, _signature(e)), []).append(position[e.view.id])
    out = []
    reported = set(done)
    paired: set[str] = set()
    for s in starts:
        began = "ended" if s.end else "began"
        against: list[tuple[float, ClaimView, Stated]] = []
        near: set[int] = set()  # the claims that say the event's first word: an edge of the same event says it too
        for form in (_core(s) or s.key)[0]:
            near |= naming.get(form, set())
        edged = sorted(set(alike.get((s.end, s.scope, _signature(s)), [])))  # other edges of the event first
        for other in [dated[n] for n in edged] + [dated[n] for n in sorted(near) if not has_edge[n]]:
            if s.view.id in paired and other.id in by_view:
                continue  # this edge already met one that disagrees with it
            if len(against) >= _MAX_NAMED:
                break  # enough to name: the finding lists at most _MAX_NAMED claims
            if other.id == s.view.id:
                continue
            pair = frozenset({s.view.id, other.id})
            if pair in reported or (s.scope and not set(s.scope) & {*names(other.text), *words(other.text.lower())}):
                continue  # "the first OOM kill on worker-b2" is about worker-b2's kills only
            edges = by_view.get(other.id, [])
            if not edges and not covers(s.key, said[other.id]):
                continue  # a claim that neither marks an edge nor names the event
            t = times[other.id][0]
            slack = max(tol, s.time.precision, t.precision)
            gap = _diff(s.time, t)
            same = [o for o in edges if o.end == s.end and o.scope == s.scope and _same_event(o, s)]
            if same and abs(gap) > slack and s.view.id not in paired:
                paired.add(s.view.id)  # one finding per edge against another: n disagreeing claims make n - 1, not n²
                reported.add(pair)
                a, b = sorted((s, same[0]), key=lambda x: (x.time.seconds, x.view.id))
                out.append(_found(a.view, b.view, f"{a.view.id} says {a.phrase} {began} at {a.time.raw}, {b.view.id} at {b.time.raw} "
                                                  f"({abs(gap):g} s apart)",
                                  f"Check when {s.phrase} {began} in the evidence and correct {_unbacked(a.view, b.view)}"))
                continue
            if same or edges or _NOT_START.search(other.text) or not covers(s.key, said[other.id]):
                continue
            if any(n.counts and any(forms & lemma_set(" ".join(n.counts)) for forms in s.key) for n in other.facts.numbers):
                continue  # "tpstats at 09:23:30 shows 17989 dropped mutations": a tally taken then, not an occurrence
            if (gap > slack and not s.end) or (-gap > slack and s.end):
                reported.add(pair)
                against.append((abs(gap), other, t))
        if against:  # one finding per edge, naming the claims that date the event past it (the farthest first)
            against.sort(key=lambda x: (-x[0], x[1].id))
            gap, other, t = against[0]
            side = "later" if s.end else "earlier"
            also = [o.id for _, o, _ in against[1:_MAX_NAMED]]
            more = f" (also {', '.join(also)})" if also else ""
            finding = _found(other, s.view, f"{s.view.id} says {s.phrase} {began} at {s.time.raw}, but {other.id} reports it at "
                                            f"{t.raw}, {gap:g} s {side}{more}",
                             f"{s.phrase} {'ended no earlier' if s.end else 'began no later'} than {t.raw} ({other.id}); "
                             f"correct {_unbacked(s.view, other)}")
            finding.finding.claims.extend(also)
            out.append(finding)
    return out


_ORDER_WORD = re.compile(r"\b(?:before|after|prior\sto|earlier\sthan|later\sthan|ahead\sof|preceded|followed)\b", re.I)
_LATER = ("after", "later than", "followed")  # "X after Y": X is the later event


@dataclass(frozen=True)
class Order:
    view: ClaimView
    earlier: frozenset[str]  # the lemmas that name the earlier event
    later: frozenset[str]


def _clause_before(text: str) -> str:
    """The clause that ends at ``text``'s end, widened to the one before when it names nothing ("..., about five minutes")."""
    parts = re.split(r"[,;:(]\s|\s[—–-]\s|\bwhen\b|\bwhich\b", text.rstrip(" ,"))
    out = ""
    for part in reversed(parts):
        out = f"{part} {out}"
        if event_words(lemma_set(part)):
            break
    return out


def _order(view: ClaimView) -> Order | None:
    """"X before Y" / "X only after Y": which event came first, each named by its own lemmas."""
    found = list(_ORDER_WORD.finditer(view.text))
    if len(found) != 1:
        return None
    m = found[0]
    after = re.split(r"[,;:(]\s|\s[—–-]\s|\bwhich\b|\bso\b", view.text[m.end():])[0]
    left, right = event_words(lemma_set(_clause_before(view.text[: m.start()]))), event_words(lemma_set(" ".join(words(after)[:4])))
    left, right = left - right, right - left  # words on both sides name neither event
    if not left or not right:
        return None
    word = re.sub(r"\s+", " ", m.group(0).lower())
    return Order(view, right, left) if word in _LATER else Order(view, left, right)


def _orders_across(views: list[ClaimView], done: set[frozenset[str]]) -> list[Found]:
    """Two claims that put the same two events in opposite orders.

    Passing (no finding): "the restart came after the failover" and "the failover happened before the restart".
    Failing: "orders-service was bounced after the failover" and "the orders-service pods were restarted before the
    failover".
    """
    orders = [o for o in (_order(v) for v in views) if o is not None]
    out = []
    for i, a in enumerate(orders):
        for b in orders[i + 1:]:
            pair = frozenset({a.view.id, b.view.id})
            if pair in done or not same_scope(names(a.view.text), names(b.view.text)):
                continue
            if a.earlier & b.later and a.later & b.earlier and not (a.earlier & b.earlier or a.later & b.later):
                done.add(pair)
                first, then = sorted(a.earlier & b.later)[0], sorted(a.later & b.earlier)[0]
                out.append(_found(a.view, b.view, f"{a.view.id} puts {first} before {then}, {b.view.id} puts {then} before {first}",
                                  f"Check the order in the evidence and correct {_unbacked(a.view, b.view)}"))
    return out


def _unbacked(a: ClaimView, b: ClaimView) -> str:
    """The claim of the two that its own evidence does not back, or both when that does not settle it."""
    backed = [v for v in (a, b) if v.result.status is ClaimStatus.VERIFIED]
    if len(backed) == 1:
        wrong = b if backed[0] is a else a
        return f"{wrong.id} ({backed[0].id} is backed by its evidence)"
    return f"{a.id} or {b.id}"


def _own_evidence(views: list[ClaimView]) -> list[Found]:
    """Claims whose own cited evidence carries another time (the support check's ``time.mismatch``)."""
    out = []
    for v in views:
        verdict = next((c for c in v.result.checks if c.decides and c.code == "time.mismatch"), None)
        if verdict is not None:
            out.append(_found(v, None, f"{v.id}: the claim says {verdict.claimed}, the cited evidence shows {verdict.evidence}",
                              f"Use the time its cited evidence shows, or cite the line that carries {v.id}'s time"))
    return out


RULE = Rule("temporal", "times that cannot all be true: same event, order words, the claim's own evidence", check)
