"""Rule 2, ``causal`` — a stated cause that the claims' own numbers, or the bundle, make impossible.

The rules are data (``citeproof/data/causal.json``; add your own with the ``causal_rules``
option): when some claim asserts a rule's *effect* (HTTP 429 / rate limiting, a timeout, a full
disk), the *observed* and *bound* quantities the claims state (a request rate and a limit, an
elapsed time and a configured timeout, a disk usage) must satisfy the rule — 150 requests/minute
against a limit of 100 can cause 429s, 50 requests/minute cannot. A bound may also come from a config
key (``vendor_api.rate_limit_per_minute``, ``integration.timeout_ms``) when the claims state none.

A second check reads "caused by X" / "due to X" / "because of X": when X names something checkable
(a quoted message, an exception or error code, an identifier) that occurs nowhere in the bundle's logs
or captures, the stated cause has no evidence.

Passing (no finding): "HTTP 429 responses" + "sent 150 requests/minute" + "the limit is 100 requests
per minute". Failing: the same with "sent 50 requests/minute".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..evidence import Bundle, FileKind, UnreadableEvidence
from ..evidence.access import read_regular
from ..evidence.har import load_har
from ..evidence.structured import load
from ..model import ContradictionFinding
from ..support.anchor import lemmas
from ..support.facts import extract, split_negation
from ..text import Quantity, parse_quantity, unit_from_key
from .base import ClaimView, Found, Rule, RuleContext
from .readings import event_words, lemma_set, names, same_scope, shared

_QUANTITY = re.compile(
    r"(?<![\w.])~?(\d[\d,]*(?:\.\d+)?)\s?(%|percent|ms|msec|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?|"
    r"(?:req(?:uest)?s?|calls?|queries)?\s?(?:/|per\s)\s?(?:second|sec|s|minute|min|m|hour|hr|h)|rpm|rps)\b",
    re.I,
)
_CAUSE = re.compile(
    r"\b(?:caused by|due to|because of|as a result of|triggered by|result of|root cause (?:is|was))\s(.{3,120}?)(?:[.;,]|$)", re.I
)


@cache
def builtin_rules() -> tuple[dict[str, Any], ...]:
    data = json.loads(resources.files("citeproof").joinpath("data/causal.json").read_text(encoding="utf-8"))
    return tuple(data["rules"])


def load_rules(extra: str | None) -> tuple[dict[str, Any], ...]:
    rules = builtin_rules()
    if extra:
        try:
            data = json.loads(read_regular(Path(extra), 4 * 1024 * 1024).decode("utf-8", errors="replace"))
        except OSError as exc:
            raise ConfigError(f"cannot read the causal rules file ({exc.strerror or type(exc).__name__})", extra) from None
        except (json.JSONDecodeError, RecursionError) as exc:
            where = f"line {exc.lineno}, column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise ConfigError(f"the causal rules file is not valid JSON ({where})", extra) from None
        found = data.get("rules") if isinstance(data, dict) else data
        if not isinstance(found, list) or not all(isinstance(r, dict) for r in found):
            raise ConfigError("the causal rules file must hold a list of rule objects (or {\"rules\": [...]})", extra)
        rules += tuple(found)
    return rules


def _quantities(text: str, unit: str, words: str) -> list[tuple[Quantity, str]]:
    out = []
    for m in _QUANTITY.finditer(text):
        raw = m.group(0).lstrip("~")
        q = parse_quantity(raw.replace("rps", "req/s"))
        if q is None or q.unit != unit:
            continue
        clause = re.split(r"[,;]|\b(?:but|while|whereas|and)\b", text[max(0, m.start() - 60) : m.start()])[-1]
        if re.search(words, clause, re.I):  # the role comes from the words just before the number, in its clause
            out.append((q, raw))
    return out


def _config_bound(bundle: Bundle, word: str, unit: str) -> tuple[Quantity, str] | None:
    found: dict[float, str] = {}
    for file in sorted(bundle.of_kind(FileKind.CONFIG, FileKind.ENV), key=lambda f: f.rel):
        data = load(bundle, file).data
        for key, value in _leaves(data):
            last = key.rsplit(".", 1)[-1].lower()
            if word not in last or isinstance(value, bool) or not isinstance(value, int | float | str):
                continue
            q = _key_quantity(last, str(value))
            if q is not None and q.unit == unit:
                found.setdefault(q.value, f"{file.rel}#{key} = {value}")
    if len(found) == 1:
        value, where = next(iter(found.items()))
        return Quantity(value, unit), where
    return None


def _key_quantity(key: str, value: str) -> Quantity | None:
    if re.search(r"per_?min(?:ute)?$|_rpm$", key):
        return parse_quantity(f"{value} req/min")
    if re.search(r"per_?s(?:ec(?:ond)?)?$|_rps$", key):
        return parse_quantity(f"{value} req/s")
    unit = unit_from_key(key)
    return parse_quantity(f"{value} {unit}") if unit else parse_quantity(value)


def _leaves(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _leaves(v, f"{prefix}{k}.")
    elif isinstance(data, list):
        for i, v in enumerate(data[:100]):
            out += _leaves(v, f"{prefix}[{i}].")
    else:
        out.append((prefix.rstrip("."), data))
    return out


def _show(q: Quantity) -> str:
    if q.unit == "/s":
        per_min = q.value * 60
        return f"{per_min:g} requests/minute"
    if q.unit == "s":
        return f"{q.value:g} s"
    return f"{q.value:g}{q.unit}"


def check(ctx: RuleContext) -> list[Found]:
    out: list[Found] = []
    for rule in load_rules(getattr(ctx.options, "causal_rules", None)):
        effect = [v for v in ctx.claims if re.search(rule["effect"], split_negation(v.text)[0], re.I)]
        if not effect:
            continue
        obs_spec, bound_spec = rule["observed"], rule["bound"]
        observed = [(v, q, raw) for v in ctx.claims for q, raw in _quantities(v.text, obs_spec["unit"], obs_spec["words"])]
        bounds = [] if "fixed" in bound_spec else [
            (v, q, raw) for v in ctx.claims for q, raw in _quantities(v.text, bound_spec["unit"], bound_spec.get("words", "$^"))
        ]
        observed = [o for o in observed if not any(o[0] is b[0] and o[2] == b[2] for b in bounds)]
        if not observed:
            continue
        bound_where = None
        if "fixed" in bound_spec:
            bound_q = Quantity(float(bound_spec["fixed"]), bound_spec["unit"])
        elif bounds:
            bound_q = bounds[0][1]
        else:
            found = _config_bound(ctx.bundle, bound_spec.get("config_key", "\0"), bound_spec["unit"])
            if found is None:
                continue
            bound_q, bound_where = found
        holds = [q.value > bound_q.value if rule["holds"] == "observed > bound" else q.value >= bound_q.value for _, q, _ in observed]
        if any(holds):
            continue  # one stated quantity explains the effect; others may describe another time
        for view, q, _raw in observed:
            ids = list(dict.fromkeys([effect[0].id, view.id] + ([bounds[0][0].id] if bounds else [])))
            detail = rule["detail"].format(observed=_show(q), bound=_show(bound_q))
            out.append(Found(ContradictionFinding(rule="causal", claims=ids, detail=f"{detail} ({rule['id']})",
                                                  resolution=rule["resolution"], evidence=bound_where)))
            break
    out += _absent_causes(ctx)
    out += _bounds_passed(ctx, {frozenset(f.finding.claims) for f in out})
    out += _more_than_allowed(ctx)
    return out


# --- the generic bound rule (data: causal.json "bounds") ------------------------------------------------

_SPELLED = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "fifteen": 15, "twenty": 20, "thirty": 30, "sixty": 60}
_UNIT = (r"ms|msec|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|%|percent|[kmgt]i?b|[kmgt]i|bytes?|"
         r"rps|req/s|req/min|rpm|(?:requests?|calls?|queries)\s?(?:/|per\s)\s?(?:second|sec|s|minute|min|m)")
_AMOUNT = re.compile(
    r"(?<![\w.:/-])(?P<n>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|" + "|".join(_SPELLED) + r")"
    r"(?:\s?(?:[–-]|to)\s?(?P<hi>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?))?"
    r"(?:(?:\s?|-)(?P<unit>" + _UNIT + r"))?(?![\w:/]|\.\w|-\d)",
    re.I,
)
_EXCEPT = re.compile(r"\b(?:apart\sfrom|except(?:\sfor)?|other\sthan|excluding|besides|save\sfor)\b", re.I)
_CLAUSE_END = re.compile(r"[.;!?]\s|\bbut\b|\bwhile\b|\bwhereas\b|\bhowever\b", re.I)
_STRONG = re.compile(r"\b(?:peak(?:ed|s)?|maxed|highest|topped\sout|only|at\smost|never|no\smore\sthan|"
                     r"max(?:imum)?\s(?:observed|seen|used))\b", re.I)


@dataclass(frozen=True)
class _Amount:
    start: int
    end: int
    low: float
    high: float
    dim: str  # "s", "B", "%", "/s" or "" for a bare number (a count)


_RATIO = re.compile(r"(?<![\w.])(?P<n>\d{1,3}(?:,\d{3})+|\d+)\s+(?:[\w-]+\s+){0,2}?out\sof\s(?:the\s)?"
                    r"(?P<m>\d{1,3}(?:,\d{3})+|\d+)\b", re.I)


def _amounts(text: str) -> list[_Amount]:
    """The amounts written in ``text``, in base units; "612 failed writes out of 4120" is also a share (14.9 %)."""
    out = [_Amount(m.start(), m.end(), v, v, "%") for m in _RATIO.finditer(text)
           if (v := 100.0 * float(m.group("n").replace(",", "")) / max(1.0, float(m.group("m").replace(",", ""))))]
    for m in _AMOUNT.finditer(text):
        number = m.group("n").lower()
        unit = (m.group("unit") or "").strip()
        low = parse_quantity(f"{_SPELLED.get(number, number)} {unit}".strip().replace("rps", "req/s"))
        if low is None:
            continue
        high = parse_quantity(f"{m.group('hi')} {unit}".strip().replace("rps", "req/s")) if m.group("hi") else low
        if high is None:
            continue
        out.append(_Amount(m.start(), m.end(), low.value, max(low.value, high.value), low.unit))
    return out


@cache
def _bound_table() -> dict[str, Any]:
    data = json.loads(resources.files("citeproof").joinpath("data/causal.json").read_text(encoding="utf-8"))
    table: dict[str, Any] = dict(data["bounds"])
    for key in ("exceed", "passed", "bound_nouns", "measured", "measured_duration", "limiting", "below_words", "allow", "counted"):
        table[key] = re.compile(table[key], re.I)
    return table


@dataclass(frozen=True)
class _Bound:
    view: ClaimView  # the claim that says the bound was passed
    value: float
    dim: str
    below: bool  # "memory.available<500Mi": passing it means going under
    source: ClaimView | None  # the claim that states the bound's value, when not the passing claim
    where: str | None  # the config key that gives it, when a config does
    subject: frozenset[str]  # the lemmas that say what is bounded
    before: str  # the passing claim's words before the verb of passing (its own measurement, if any)
    raw: str


def _stated_value(ctx: RuleContext, view: ClaimView, name: str) -> _Value | None:
    """The value another claim, or a config key, gives the setting ``name`` (``max.poll.interval.ms = 300000``)."""
    unit = unit_from_key(name) or ""
    said = re.compile(re.escape(name) + r"`?\s*(?:=|:|is|was|of|at|set\sto)\s*`?(\d[\d,]*(?:\.\d+)?)\s?([A-Za-z%]*)", re.I)
    for other in ctx.claims:
        if other is view:
            continue
        m = said.search(other.text)
        if m:
            q = parse_quantity(f"{m.group(1)} {m.group(2) or unit}".strip()) or parse_quantity(m.group(1))
            if q is not None:
                return q.value, q.unit, other, None
    leaf = name.lower().rsplit(".", 1)[-1] if "_" in name or not unit else name.lower()
    for file in sorted(ctx.bundle.of_kind(FileKind.CONFIG), key=lambda f: f.rel):
        for key, value in _leaves(load(ctx.bundle, file).data):
            if key.lower() == name.lower() or key.lower().endswith("." + leaf) or key.lower() == leaf:
                if isinstance(value, bool) or not isinstance(value, int | float | str):
                    continue
                q = _key_quantity(key.rsplit(".", 1)[-1].lower(), str(value))
                if q is not None:
                    return q.value, q.unit, None, f"{file.rel}#{key} = {value}"
    return None


_Value = tuple[float, str, ClaimView | None, str | None]  # value, dimension, the claim that states it, the config key that does


@dataclass(frozen=True)
class _Stated:
    """A bound some claim gives a value: its word ("limit", "max.poll.interval.ms"), the lemmas around it, the value."""

    view: ClaimView
    word: str
    near: frozenset[str]
    value: _Value


def _stated_bounds(ctx: RuleContext) -> list[_Stated]:
    """Every bound the claims give a value ("a 180 s hard limit", "a max length of 50,000"); read once per run."""
    bound_words = _bound_table()["bound_nouns"]
    out: list[_Stated] = []
    for other in ctx.claims:
        text = other.text
        for m in bound_words.finditer(text):
            lead = max(0, m.start() - 24)
            before = [x for x in _amounts(text[lead:m.start()]) if len(text[lead + x.end:m.start()].split()) <= 2]
            after = re.match(r"[\w.]*\s*(?:\w+\s)?(?:of|is|was|=|:|at|to|set\sto|configured\s(?:at|to))\s*", text[m.end():])
            later = _amounts(text[m.end() + after.end():m.end() + after.end() + 24]) if after else []
            pick = before[-1:] or [x for x in later if x.start == 0]
            if not pick:
                continue
            unit = unit_from_key(m.group(0)) if re.search(r"[._]", m.group(0)) and not pick[0].dim else None
            q = parse_quantity(f"{pick[0].low:g} {unit}") if unit else None  # "max.poll.interval.ms = 300000" is 300 s
            value: _Value = (q.value, q.unit, other, None) if q else (pick[0].low, pick[0].dim, other, None)
            out.append(_Stated(other, m.group(0).lower().strip("_"), lemma_set(text[max(0, m.start() - 30):m.end() + 20]), value))
    return out


def _phrase_value(stated_bounds: list[_Stated], view: ClaimView, qualifiers: frozenset[str]) -> _Value | None:
    """The value another claim gives a bound named in words ("a 180 s hard limit", "a max length of 50,000 messages"):
    a bound said with the same qualifier ("hard"); any other limit is another bound."""
    for stated in stated_bounds:
        if stated.view is not view and stated.near & qualifiers:
            return stated.value
    return None


def _config_value(ctx: RuleContext, subject: frozenset[str]) -> _Value | None:
    """The one config key that bounds the subject: a leaf naming a subject word and max / size / limit / timeout."""
    found: dict[tuple[float, str], str] = {}
    for file in sorted(ctx.bundle.of_kind(FileKind.CONFIG), key=lambda f: f.rel):
        for key, value in _leaves(load(ctx.bundle, file).data):
            leaf = ".".join(key.split(".")[-3:])  # "max.poll.interval.ms": the name may span dotted parts
            parts = lemma_set(re.sub(r"[_.\-]", " ", leaf))
            if isinstance(value, bool) or not isinstance(value, int | float | str) or not re.search(r"max|size|limit|timeout", leaf, re.I):
                continue
            if parts & subject:
                q = _key_quantity(key.lower(), str(value))
                if q is not None:
                    found.setdefault((q.value, q.unit), f"{file.rel}#{key} = {value}")
    if len(found) == 1:
        (value, unit), where = next(iter(found.items()))
        return value, unit, None, where
    return None


def _passed_bounds(ctx: RuleContext, view: ClaimView, stated: list[_Stated]) -> list[_Bound]:
    """The bounds ``view`` says were reached or passed, each with its value and where the value was read."""
    table = _bound_table()
    text = split_negation(view.text)[0]
    out = []
    for m in table["exceed"].finditer(text):
        rest = text[m.end():m.end() + 100]
        stop = _CLAUSE_END.search(rest)
        rest = rest[: stop.start()] if stop else rest
        noun = table["bound_nouns"].search(rest)
        if noun is None or len(rest[: noun.start()].split()) > 5:
            continue
        if m.group(0).lower() in ("after", "until") and (not re.search(r"time|deadline|interval", noun.group(0), re.I)
                                                         or len(rest[: noun.start()].split()) > 5
                                                         or not re.match(r"\s(?:the|its|their|our|a|an)\s", rest)):
            continue
        phrase_end = m.end() + noun.end()
        tail = re.match(r"[\w.]*\s*(?:of|=|:|at|\(|<|>|is)?\s*", text[phrase_end:])
        phrase_end += tail.end() if tail else 0
        amounts = [a for a in _amounts(text[m.end():phrase_end + 24]) if a.start < phrase_end - m.end() + 1]
        below = any(table["below_words"].search(text[m.end():m.end() + a.start]) for a in amounts)
        subject = lemma_set(text[:phrase_end])
        found: _Value | None = None
        if amounts:
            a = amounts[-1] if below else min(amounts, key=lambda x: abs(x.start - noun.start()))
            found = (a.low, a.dim, None, None)
        else:
            name = next((w for w in re.findall(r"[\w.<>]+", rest[: noun.end() + 20]) if re.search(r"[._]", w.strip(".")) and
                         table["bound_nouns"].search(w)), None)
            if name:
                found = _stated_value(ctx, view, name.strip(".").split("<")[0])
            else:
                qualifiers = event_words(lemma_set(rest[: noun.start()])) - _generic()
                found = ((_phrase_value(stated, view, qualifiers) if qualifiers else None)  # "its timeout": which?
                         or _config_value(ctx, event_words(subject) - _generic()))
        if found is None:
            continue
        value, dim, source, where = found
        own = text[: m.start()] + " " + text[phrase_end + 12:]  # the claim's own measurements, before and after the bound
        out.append(_Bound(view, value, dim, below, source, where, subject, own, text[m.start():phrase_end].strip()))
    for m in table["passed"].finditer(text):  # "its 10-minute progress deadline expired", "the hard limit cut it off after 95 s"
        start = max(0, m.start() - 60)
        head = text[start:m.start()]
        nouns = list(table["bound_nouns"].finditer(head))
        if not nouns or len(head[nouns[-1].end():].split()) > 3:
            continue
        noun = nouns[-1]
        clause = text[m.end():]
        stop = _CLAUSE_END.search(clause)
        after = clause[: stop.start()] if stop else clause
        amounts = _amounts(head)
        subject = lemma_set(text[: m.start()])
        if amounts:
            a = amounts[-1]
            out.append(_Bound(view, a.low, a.dim, False, None, None, subject, text[: start + a.start] + " " + after,
                              text[start + a.start:m.end()].strip()))
            continue
        qualifiers = event_words(lemma_set(head[max(0, noun.start() - 25):noun.start()])) - _generic()
        found = ((_phrase_value(stated, view, qualifiers) if qualifiers else None)
                 or _config_value(ctx, event_words(subject) - _generic()))
        if found is not None:
            value, dim, source, where = found
            out.append(_Bound(view, value, dim, False, source, where, subject, text[:start] + " " + after,
                              text[start + noun.start():m.end()].strip()))
    return out


def _measured(view: ClaimView, bound: _Bound, skip_words: re.Pattern[str]) -> list[_Amount]:
    """The amounts ``view`` measures of what ``bound`` bounds: same dimension, a measuring word, not a bound itself."""
    table = _bound_table()
    text = view.text  # "never more than 6.2 GiB" is a measurement too
    out = []
    for a in _amounts(text):
        if a.dim != bound.dim or (a.dim == "s" and a.high > 1e8):
            continue  # an epoch instant is no duration
        near = text[max(0, a.start - 40):a.start]
        after = text[a.end:a.end + 25]
        if _STRONG.search(near):
            pass  # "Max_used_connections peaked at 143" measures, whatever its name
        elif skip_words.search(text[max(0, a.start - 45):a.start]) or re.match(r"\s?(?:[\w-]+\s){0,2}?" + skip_words.pattern, after, re.I):
            continue  # a limit ("the 2 GiB memory limit", "the timeout is 0.1 s"), not a measurement
        if re.match(r"\s?(?:of|out of|/)\s?\d", after):
            continue  # "50 of 50 connections": a share of some capacity, not a measurement against this bound
        if table["limiting"].search(near[-30:]):
            continue  # "capped at 1536 MB", "limited to 10 connections": a bound, not a measurement
        if a.dim == "" and not (lemma_set(after[:24]) & bound.subject) and not (_STRONG.search(near) and lemma_set(near) & bound.subject):
            continue  # a bare number must count what is bounded ("143 connections", "only 12 pending requests")
        said = table["measured"].search(near) or (a.dim == "s" and table["measured_duration"].search(near))
        if not said:
            continue
        out.append(a)
    return out


@cache
def _generic() -> frozenset[str]:
    """Words of a cause or a bound that name no particular quantity (their lemmas, computed on first use)."""
    return lemma_set("because cause caused due result reason limit limits timeout timed time out maximum max threshold "
                     "quota pool size took take taking lasted waited after exceeded exceed hit reached crossed went over past "
                     "that this the its their set configured")


def _same_moment(a: ClaimView, b: ClaimView) -> bool:
    """Claims that both give times of day speak of the same moment only when some two of those times are within a minute."""
    ta, tb = [t.seconds for t in a.facts.times], [t.seconds for t in b.facts.times]
    return not ta or not tb or any(abs(x - y) <= 60 or abs(x - y) >= 86400 - 60 for x in ta for y in tb)


def _reaches(a: _Amount, bound: _Bound) -> bool:
    return a.low <= bound.value * 1.005 if bound.below else a.high >= bound.value * 0.995


def _stating(ctx: RuleContext, view: ClaimView, bound: _Bound) -> ClaimView | None:
    """Another claim that states the bound's value ("the breaker is set to trip at a 50% failure rate")."""
    table = _bound_table()
    found = [other for other in ctx.claims if other is not view and any(
        x.dim == bound.dim and abs(x.low - bound.value) <= 1e-9 + 0.005 * bound.value for x in _amounts(other.text))]
    subject = event_words(bound.subject) - _generic()
    ranked = sorted(found, key=lambda o: (not re.search(r"\b(?:is|are|was)\s(?:set|configured|declared|capped|limited)\b", o.text, re.I),
                                          not (table["limiting"].search(o.text) or table["bound_nouns"].search(o.text)),
                                          -shared(subject, o.text)))  # the claim that configures the bound, first
    return ranked[0] if ranked else None


def _readings(ctx: RuleContext, view: ClaimView, bound: _Bound, subject: frozenset[str],
              passed: dict[str, list[_Bound]]) -> list[tuple[ClaimView, _Amount]]:
    """What the other claims measure of the bounded thing, at the same moment, in the bound's dimension."""
    table = _bound_table()
    out: list[tuple[ClaimView, _Amount]] = []
    for other in ctx.claims:
        if other is view or other is bound.source or not same_scope(names(view.text), names(other.text)):
            continue
        if passed.get(other.id) or _EXCEPT.search(other.text):
            continue  # a claim about a bound of its own, or one that leaves some cases out ("apart from those")
        need = 2 if bound.dim == "s" else 1  # durations are everywhere: one shared word is not enough
        if shared(subject, other.text) >= need and _same_moment(view, other):
            out += [(other, a) for a in _measured(other, bound, table["bound_nouns"])]
    return out


def _bounds_passed(ctx: RuleContext, done: set[frozenset[str]]) -> list[Found]:
    """A claim says a bound was reached or passed; its own numbers, or a claim about the same thing, measure less
    (or, for a lower bound, more).

    Passing (no finding): "acme was throttled because its traffic went over the 100 rps limit" and "acme's traffic
    peaked at 140 rps".
    Failing: "acme was throttled because its traffic went over the 100 rps limit" and "acme's traffic peaked at 64 rps"
    (64 rps cannot go over a 100 rps limit).
    """
    out: list[Found] = []
    stated = _stated_bounds(ctx)
    passed = {view.id: _passed_bounds(ctx, view, stated) for view in ctx.claims}
    for view in ctx.claims:
        for bound in passed[view.id]:
            subject = event_words(bound.subject) - _generic() - lemma_set(" ".join(names(view.text)))  # hosts are the scope
            own = [a for a in _amounts(bound.before) if a.dim == bound.dim]
            if any(_reaches(a, bound) for a in own):
                continue  # "the event-loop delay (1187 ms) was above the 1000 ms limit" measures its own cause
            source = bound.source or (_stating(ctx, view, bound) if own else None)
            readings = [(source, a) for a in own] if own and source is not None else []
            if not readings:
                readings = _readings(ctx, view, bound, subject, passed)
            if not readings:
                continue

            def fit(r: tuple[ClaimView, _Amount], view: ClaimView = view, subject: frozenset[str] = subject) -> tuple[int, int, int]:
                return (len(set(names(view.text)) & set(names(r[0].text))), shared(subject, r[0].text), bool(_STRONG.search(r[0].text)))

            best = max(fit(r) for r in readings)
            readings = [r for r in readings if fit(r)[:2] >= (best[0], min(best[1], 2))]
            if any(_reaches(a, bound) for _, a in readings):
                continue  # one measurement explains it
            top = sorted(readings, key=fit, reverse=True)
            other, a = top[0]
            measurers = list(dict.fromkeys(v.id for v, _ in top))[:3]
            ids = [view.id, *measurers] + ([source.id] if source is not None and source.id not in measurers else [])
            if frozenset(ids) in done:
                continue
            done.add(frozenset(ids))
            measured = _show(Quantity(a.high if not bound.below else a.low, a.dim)) if a.dim else f"{a.high:g}"
            limit = _show(Quantity(bound.value, bound.dim)) if bound.dim else f"{bound.value:g}"
            side = "never goes below" if bound.below else "stays under"
            also = f" (also {', '.join(measurers[1:])})" if len(measurers) > 1 else ""
            who = f"{view.id} itself" if other is source and own else other.id
            detail = f"{view.id} says '{bound.raw}' was reached, but {who} measures {measured}{also}, which {side} {limit}"
            out.append(Found(ContradictionFinding(
                rule="causal", claims=ids, detail=detail + " (bound-not-reached)",
                resolution=f"Check the measured value against the bound: either {view.id}'s cause is wrong or the measurement is",
                evidence=bound.where)))
    return out


def _count(word: str) -> int:
    return _SPELLED.get(word.lower(), 0) or int(word) if word.isdigit() or word.lower() in _SPELLED else 0


_ALLOW_KEY = re.compile(r"(?P<key>\b[\w.]*max_?(?P<noun>retries|retry|attempts|restarts|tries)[\w.]*)`?\W{0,3}(?:is|=|:|of|set\sto)?\s*"
                        r"(?P<n>\d+)\b", re.I)
_GAVE_UP = re.compile(r"\b(?:gave\sup|give[sn]?\sup|exhaust\w*|exceeded|ran\sout|MaxRetriesExceeded\w*|out\sof\sretries|"
                      r"hit\s(?:the\s)?(?:retry\s)?(?:limit|ceiling|max\w*))", re.I)


def _more_than_allowed(ctx: RuleContext) -> list[Found]:
    """A policy allows at most N attempts; a claim about the same thing counts more, or says they ran out after fewer.

    Passing (no finding): "The orders retry policy allows at most 3 attempts" and "orders-service gave up on each
    order after 3 attempts".
    Failing: "The orders retry policy allows at most 3 attempts" and "orders-service gave up on each order after 5
    retries".
    """
    table = _bound_table()
    family = frozenset(table["count_family"])
    out: list[Found] = []
    for view in ctx.claims:
        allows = [(m, _count(m.group("n")), m.group("noun")) for m in table["allow"].finditer(view.text)]
        allows += [(m, int(m.group("n")), m.group("noun")) for m in _ALLOW_KEY.finditer(view.text)]
        for m, allowed, noun in allows[:1]:
            subject = lemma_set(view.text[: m.end()]) - {"time", "times"}
            for other in ctx.claims:
                if other is view or not same_scope(names(view.text), names(other.text)):
                    continue
                text = split_negation(other.text)[0]
                counted = [c for c in table["counted"].finditer(text) if lemmas(c.group("noun")) & family]
                over = [c for c in counted if _count(c.group("n")) > allowed]
                short = [c for c in counted if _count(c.group("n")) < allowed] if _GAVE_UP.search(text) else []
                if not (over or short) or not subject & (lemma_set(other.text) - {"time", "times"}):
                    continue
                c = (over or short)[0]
                how = "counts" if over else "says they ran out after"
                out.append(Found(ContradictionFinding(
                    rule="causal", claims=[view.id, other.id],
                    detail=f"{view.id} allows at most {allowed} {noun}, but {other.id} {how} {c.group('n')} ({c.group(0)}) "
                           f"({'more' if over else 'fewer'}-than-allowed)",
                    resolution=f"Count the attempts in the evidence: either the policy in {view.id} or the count in {other.id} is wrong")))
                break
    return out


def _absent_causes(ctx: RuleContext) -> list[Found]:
    out = []
    for view in ctx.claims:
        for m in _CAUSE.finditer(view.text):
            facts = extract(m.group(1))
            probes = list(facts.quotes) + list(facts.identifiers) + list(facts.keywords)
            if not probes:
                continue
            missing = [p for p in probes if not _in_bundle(ctx.bundle, p)]
            if missing and len(missing) == len(probes):
                out.append(Found(ContradictionFinding(
                    rule="causal", claims=[view.id],
                    detail=f"{view.id} gives '{missing[0]}' as the cause, but it occurs nowhere in the bundle's logs or captures",
                    resolution=f"Cite the evidence of '{missing[0]}', or revise the cause in {view.id}",
                )))
    return out


def _in_bundle(bundle: Bundle, probe: str) -> bool:
    def search() -> bool:
        for file in bundle.of_kind(FileKind.LOG):
            try:
                if bundle.lines(file).find_text(probe) is not None:
                    return True
            except UnreadableEvidence:
                continue  # reported as a warning of the run
        return any(load_har(bundle, file).containing(probe) for file in bundle.of_kind(FileKind.HAR))

    return bool(bundle.memo(("in-bundle", probe), search))


RULE = Rule("causal", "a stated cause that the claims' own numbers or the bundle make impossible", check)
