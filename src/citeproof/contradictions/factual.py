"""Rule 3, ``factual`` — two claims state different values for the same attribute of the same entity.

Attributes (version, hostname, product, rate limit, ...) and how they are written are data:
``citeproof/data/attributes.json``. A value also comes from an ``env:key=value`` citation. Two
values conflict when they differ (versions: neither is a prefix of the other on component boundaries;
quantities: numerically after unit conversion; text: case-insensitively) and the claims talk about
the same entity (the same product name, or one of them names none). A claim that describes a change
("upgraded from 8.8 to 8.9", "previously", "after the deploy") is an earlier or later state, not a
conflict.

The conflict is resolved from env.log / inv_context.json when they hold the attribute: the claim
that disagrees with the environment is named as wrong (and becomes ``contradicted``); otherwise both
claims are reported and the resolution asks which value is right.

Passing (no finding): "XSOAR version 8.9.0" and "the Python version is 3.11" (two products).
Failing: "XSOAR version is 8.9.0" and "XSOAR version is 8.8.0"; with env.log ``version: 8.9.0``
the second is wrong.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any

from ..evidence.structured import environment
from ..model import ClaimStatus, ContradictionFinding
from ..support.anchor import is_predicate, lemmas
from ..support.checks.versions import matches as version_matches
from ..text import STOP_WORDS, Quantity, parse_quantity, same_number, same_quantity
from .base import ClaimView, Found, Rule, RuleContext
from .readings import event_words, lemma_set, names, same_scope, words

_GENERIC_ENTITIES = frozenset(
    "the a an its their our this that server host instance node machine app application service api platform product "
    "current deployed installed running new old same".split()
)
_STATE_PREFIXES = frozenset({"previous", "prev", "old", "new", "prior", "last", "target", "next", "expected", "min", "max"})


@dataclass(frozen=True)
class Statement:
    claim: str
    attribute: str
    entity: str | None
    value: str


@cache
def _table() -> tuple[re.Pattern[str], list[dict[str, Any]]]:
    data = json.loads(resources.files("citeproof").joinpath("data/attributes.json").read_text(encoding="utf-8"))
    attrs = []
    for attr in data["attributes"]:
        attrs.append({**attr, "regexes": [re.compile(p) for p in attr["patterns"]]})
    return re.compile(data["change_words"], re.I), attrs


def _entity(raw: str | None) -> str | None:
    if not raw:
        return None
    low = raw.lower()
    if low in STOP_WORDS or low in _GENERIC_ENTITIES or low.endswith(("ing", "ed")):
        return None
    return low  # "the integration version" and "the XSOAR version" are versions of two things


def statements(view: ClaimView) -> list[Statement]:
    change, attrs = _table()
    if change.search(view.claim.text):
        return []
    out: list[Statement] = []
    for attr in attrs:
        for regex in attr["regexes"]:
            for m in regex.finditer(view.text):
                entity = _entity(m.groupdict().get("entity"))
                out.append(Statement(view.id, attr["id"], entity, m.group("value").strip()))
        keys = set(attr["env_keys"])
        for ref in view.claim.citations:
            if ref.format_id == "env" and ref.fields.get("value"):
                key = str(ref.fields["key"]).lower()
                parts = re.split(r"[._\-]", key)
                if key in keys:
                    entity = None
                elif parts[-1] in keys and parts[0] not in _STATE_PREFIXES:
                    entity = "_".join(parts[:-1])
                else:
                    continue
                out.append(Statement(view.id, attr["id"], entity, str(ref.fields["value"])))
    unique: dict[tuple[str, str | None, str], Statement] = {}
    for s in out:
        unique.setdefault((s.attribute, s.entity, s.value.lower()), s)
    return list(unique.values())


def _same(kind: str, a: str, b: str) -> bool:
    if kind == "version":
        return version_matches(a, b) or version_matches(b, a)
    if kind == "quantity":
        qa, qb = parse_quantity(a), parse_quantity(b)
        if qa and qb and qa.unit == qb.unit:
            return same_number(qa.value, qb.value)
    return a.strip().lower() == b.strip().lower()


def _env_value(ctx: RuleContext, attr: dict[str, Any], entity: str | None, products: set[str]) -> tuple[str, str] | None:
    """The environment's value of ``attr`` for ``entity`` (None: the environment's own product)."""
    env, _ = environment(ctx.bundle)
    keys = list(attr["env_keys"])
    owners = ({entity} if entity else set()) | (products if entity is None or entity in products else set())
    candidates = [k for name in keys for k in sorted(env) if k.lower() == name and entity in (None, *products)]
    for key in sorted(env):
        parts = re.split(r"[._\-]", key.lower())
        if len(parts) > 1 and parts[-1] in keys and "_".join(parts[:-1]) in owners:
            candidates.append(key)
    if not candidates:
        return None
    value, source = env[candidates[0]]
    return value, f"{source}#{candidates[0]}"


def check(ctx: RuleContext) -> list[Found]:
    _, attrs = _table()
    by_attr = {a["id"]: a for a in attrs}
    stated = [s for view in ctx.claims for s in statements(view)]
    hosts = {view.id: names(view.text) for view in ctx.claims}
    env, _ = environment(ctx.bundle)
    products = {v.lower() for k, (v, _) in env.items() if k.lower().rsplit(".", 1)[-1] in ("product", "product_name")}
    groups: dict[tuple[str, str], list[Statement]] = {}
    for st in stated:  # no entity, or the environment's own product, stand for the same thing
        entity = "" if st.entity is None or st.entity in products else st.entity
        groups.setdefault((st.attribute, entity), []).append(st)
    out: list[Found] = []
    reported: set[tuple[str, str, str]] = set()
    for (attribute, entity), members in sorted(groups.items()):
        attr = by_attr[attribute]
        clusters: list[list[Statement]] = []  # statements whose values agree
        for st in members:
            home = next((c for c in clusters if _same(attr["compare"], c[0].value, st.value)), None)
            if home is None:
                clusters.append([st])
            else:
                home.append(st)
        for first, second in combinations(clusters, 2):
            a, b = first[0], next((x for x in second if x.claim != first[0].claim), second[0])
            if a.claim == b.claim or not same_scope(hosts[a.claim], hosts[b.claim]):
                continue  # "db-1 runs MySQL 8.0.34" and "db-2 runs MySQL 8.0.36": two hosts, two versions
            one, two = sorted((a.claim, b.claim))
            if (attribute, one, two) in reported:
                continue
            reported.add((attribute, one, two))
            out.append(_finding(ctx, attr, a, b, entity or None, products))
    out += _bindings(ctx, {frozenset(f.finding.claims) for f in out})
    return out


# --- values bound to one named thing: an address, a placement, a version, an exit code, a count -----------

_IP = r"(?P<value>\d{1,3}(?:\.\d{1,3}){3})(?![\d.]|\.\d)"
_HOST = r"(?P<entity>[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z]?\d+[a-z0-9]*)"
_ADDRESS = [
    re.compile(_HOST + r"\s?(?:\(|,\s|\sat\s|\son\s|\s?=\s?|/|\s\[)" + _IP),
    re.compile(r"(?P<entity>[a-z][\w-]*[a-z0-9])\s(?:now\s|still\s)?(?:resolves|resolved|points|pointed)\sto\s"
               r"(?:[\w-]+\s(?:at\s|\())?" + _IP),
]
_PLACED = re.compile(_HOST + r"\s(?:(?:runs|ran|running|is\srunning|was\srunning|lives|lived|sits|sat|was|is|scheduled|placed|"
                     r"hosted)\s)?on\s"
                     r"(?:host\s|node\s)?(?P<value>[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z]?\d+[a-z0-9]*)\b")
_EXIT = re.compile(r"\bexit(?:ed|s|ing)?\s(?:with\s)?(?:an?\s)?(?:exit\s)?(?:code|status)\s(?P<value>\d{1,3})\b|"
                   r"\bexit\scode\s(?:of\s|was\s|is\s|=\s?)?(?P<value2>\d{1,3})\b", re.I)
# words around a setting that say nothing of which setting it is
_SETTING_GENERIC = frozenset({"configured", "configure", "set", "the", "its", "their", "with", "default", "current", "value"})
_TOTAL = re.compile(r"\b(?:in\stotal|total|overall|altogether|in\sall)\b|^(?:all|every)\s\S+$", re.I)
_SHARE = re.compile(r"^\s?(?:of\b|out\sof\b|/|more\b|fewer\b|less\b|or\s(?:more|fewer)\b|percent|%|per\b|each\b)", re.I)
# words that make a count a part, a bound or another occurrence of the thing counted, not its number
_PART = re.compile(r"\b(?:first|last|second|third|another|other|remaining|next|previous|per|each|of\sthem|of\sthose|of\sthese|only|"
                   r"smaller|larger|earlier|later|separate|different|at\smost|up\sto|allows?|allowed|maximum|max|limit|cap|"
                   r"threshold|at\sleast|minimum|capped|limited|sized|configured|set\sto|reserve|extra|own|pool\sof)\b", re.I)
_RATE = re.compile(r"^\s?\S+\s(?:per|/|a|an|each)\s(?:second|sec|minute|min|hour|day)\b", re.I)
_WINDOW = re.compile(r"\bbetween\b.*\band\b|\bin\sthe\s(?:first|last)\b|\bduring\sthe\s(?:first|last)\b|\bwithin\b", re.I)


@dataclass(frozen=True)
class _Bound:
    claim: ClaimView
    attribute: str  # "address", "placement", "version", "exit code", "count"
    entity: str
    value: str
    compare: str  # "text", "version" or "count"


def _bound_values(view: ClaimView, change: re.Pattern[str]) -> list[_Bound]:
    text = view.text
    out = [_Bound(view, "address", m.group("entity").lower(), m.group("value"), "text") for rx in _ADDRESS for m in rx.finditer(text)]
    out += [_Bound(view, "placement", m.group("entity").lower(), m.group("value").lower(), "text") for m in _PLACED.finditer(text)]
    codes = {m.group("value") or m.group("value2") for m in _EXIT.finditer(text)}
    if len(codes) == 1 and codes != {"0"}:  # a clean exit and a failure code end two different things
        out.append(_Bound(view, "exit code", " ".join(names(text)), codes.pop(), "text"))
    if change.search(view.claim.text):
        return out  # an earlier or later state: "upgraded to", "now", "after the deploy"
    if len(view.facts.versions) == 1:  # "db-1 and db-2 both run MySQL 8.0.36": each host named before the version
        version = view.facts.versions[0]
        at = text.find(version)
        clause = re.split(r"[;,]|\bbut\b|\bwhile\b|\bthan\b|\bbehind\b|\bahead\b", text[:at])[-1] if at > 0 else ""
        out += [_Bound(view, "version", host, version, "version") for host in names(clause)]
    out += _counts(view)
    out += _settings(view)
    return out


_SETTING = r"(?P<noun>limit|timeout|time-out|deadline|threshold|quota|cap|ttl|interval|heartbeat|budget|length|size|ceiling)s?"
_AMOUNT = r"(?P<amount>\d[\d,]*(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?|minutes?|mins?|hours?|h|[kmgt]i?b?|bytes?|%)?)(?![\w.:])"
_SETTING_BEFORE = re.compile(r"(?P<qual>(?:[\w-]+\s){0,3}?)" + _AMOUNT + r"\s(?P<qual2>(?:[\w-]+\s){0,2}?)" + _SETTING + r"\b"
                             r"(?P<tail>(?:\s(?:per|for|on)\s(?:the\s)?[\w/.-]+)?)", re.I)
_SETTING_AFTER = re.compile(r"(?P<qual>(?:[\w-]+\s){0,3}?)" + _SETTING + r"\b(?P<tail>(?:\s(?:per|for|on)\s(?:the\s)?[\w/.-]+)?)"
                            r"(?:\s(?:is|was)\s(?:set|configured))?(?:\s(?:configured|set))?(?:\s(?:for|on)\s(?:the\s)?[\w/.-]+)?"
                            r"\s?(?:is|was|of|=|:|at|to)\s" + _AMOUNT, re.I)


def _settings(view: ClaimView) -> list[_Bound]:
    """Configured values: "the container memory limit is 256Mi", "a 512Mi limit per container", "the 250 ms read timeout"."""
    out = []
    for rx in (_SETTING_BEFORE, _SETTING_AFTER):
        for m in rx.finditer(view.text):
            q = parse_quantity(m.group("amount").replace(",", ""))
            if q is None or (rx is _SETTING_BEFORE and (not q.unit or (m.group(0).rstrip().endswith("s") and not m.group("tail")))):
                continue  # "45 payment-api timeouts" counts timeouts; "a 10 s budget" is a setting
            words_ = f"{m.groupdict().get('qual') or ''} {m.groupdict().get('qual2') or ''} {m.group('tail') or ''}"
            kept = " ".join(w for w in words_.split() if not is_predicate(w) and w.lower() not in ("past", "over", "than", "longer"))
            qual = sorted(event_words(lemma_set(kept)) - _SETTING_GENERIC)  # "ran past the 3 s route timeout": route
            if qual:
                noun = sorted(lemmas(m.group("noun").lower().replace("-", "")))[0]
                out.append(_Bound(view, "setting", f"{noun}|{q.unit}|{' '.join(qual)}|{' '.join(names(view.text))}",
                                  f"{q.value:g}", "setting"))
    return out


def _counts(view: ClaimView) -> list[_Bound]:
    """Counts of a thing: "37 clients were dropped with query_wait_timeout" -> (client, drop, query_wait_timeout) = 37."""
    out = []
    text = view.text
    counted = [n for n in view.facts.numbers if n.counts and not (n.quantity is not None and n.quantity.unit)]
    if len(counted) != 1:
        return []  # several counts in one claim: which one a other claim's count is about is not said
    for n in counted:
        if _PART.search(text[:n.span[0]]) or _RATE.match(text[n.span[1]:]):
            continue
        if _SHARE.match(text[n.span[1]:n.span[1] + 12]) or re.match(r"\s?(?:of|out of)\s", text[n.span[1]:]):
            continue
        noun = sorted(n.counts)[0]
        verbs = sorted({w.lower() for w in words(text)} - {noun.lower()})
        tag = "total" if _TOTAL.search(text) or _TOTAL.search(text[max(0, n.span[0] - 8):n.span[0]].strip()) else ""
        if _WINDOW.search(text) or view.facts.times:
            tag = "window"  # a count over a stated window or at a stated moment is a count of that window only
        scope = sorted({*names(text), *(i.lower() for i in view.facts.identifiers)})
        out.append(_Bound(view, "count", f"{sorted(lemmas(noun))[0]}|{' '.join(scope)}|{tag}|{' '.join(verbs)}",
                          f"{'~' if n.approx else ''}{n.value:g}", "count"))
    return out


def _same_thing(a: _Bound, b: _Bound) -> bool:
    if a.attribute != b.attribute:
        return False
    if a.attribute == "setting":  # the same bound of the same thing: one's qualifiers include the other's
        noun_a, unit_a, qual_a, names_a = a.entity.split("|")
        noun_b, unit_b, qual_b, names_b = b.entity.split("|")
        qa, qb = set(qual_a.split()), set(qual_b.split())
        return (noun_a == noun_b and unit_a == unit_b and (qa <= qb or qb <= qa)
                and same_scope(tuple(names_a.split()), tuple(names_b.split())))
    if a.attribute != "count":
        if a.attribute == "exit code":
            return same_scope(tuple(a.entity.split()), tuple(b.entity.split()))
        return a.entity == b.entity
    noun_a, names_a, total_a, verbs_a = a.entity.split("|")
    noun_b, names_b, total_b, verbs_b = b.entity.split("|")
    if noun_a != noun_b or not same_scope(tuple(names_a.split()), tuple(names_b.split())):
        return False
    if "window" in (total_a, total_b):
        return False
    said_b = frozenset().union(*(lemmas(w) for w in verbs_b.split() if w.isalpha())) if verbs_b else frozenset()
    words_a = [w for w in verbs_a.split() if w.isalpha()]
    common = sum(1 for w in words_a if lemmas(w) & said_b)
    smaller = min(len(words_a), len([w for w in verbs_b.split() if w.isalpha()]))
    return bool(total_a and total_b) or (common >= 2 and common >= 0.6 * smaller)


def _differ(a: _Bound, b: _Bound) -> bool:
    if a.compare == "version":
        return not (version_matches(a.value, b.value) or version_matches(b.value, a.value))
    if a.compare == "setting":
        va, vb = float(a.value), float(b.value)
        unit = a.entity.split("|")[1]
        return not same_quantity(Quantity(va, unit), Quantity(vb, unit))
    if a.compare == "count":
        va, vb = float(a.value.lstrip("~")), float(b.value.lstrip("~"))
        slack = 0.1 if a.value.startswith("~") or b.value.startswith("~") else 0.0
        return abs(va - vb) > slack * max(va, vb) + 1e-9
    return a.value.lower() != b.value.lower()


def _bindings(ctx: RuleContext, done: set[frozenset[str]]) -> list[Found]:
    """The same named thing with two values: db-2 at 10.20.1.12 and at 10.20.1.13; consumer-3 on two hosts.

    Passing (no finding): "db-1 runs MySQL 8.0.34" and "db-2 runs MySQL 8.0.36" (two hosts).
    Failing: "db-1 and db-2 both run MySQL 8.0.36" and "db-1 is still on 8.0.34".
    """
    change, _ = _table()
    groups: dict[tuple[str, str], list[_Bound]] = {}  # only values of one attribute of one kind of thing are compared
    for view in ctx.claims:
        for value in _bound_values(view, change):
            kind = value.entity.split("|")[0] if value.attribute in ("count", "setting") else value.entity
            groups.setdefault((value.attribute, "" if value.attribute == "exit code" else kind), []).append(value)
    out: list[Found] = []
    for a, b, others in _conflicts(groups, done):
        what = a.entity.split("|")[0] if a.attribute in ("count", "setting") else a.entity
        if a.attribute == "setting":
            what = f"{a.entity.split('|')[2]} {what}"
        label = (f"the number of {what}s" if a.attribute == "count" else f"the {what}" if a.attribute == "setting"
                 else f"the {a.attribute} of {what}" if what else f"the {a.attribute}")
        backed = [c for c in (a.claim, b.claim) if c.result.status is ClaimStatus.VERIFIED]
        settle = (f"{backed[0].id} is backed by its cited evidence; correct {(b.claim if backed[0] is a.claim else a.claim).id}"
                  if len(backed) == 1 else f"Check {label} in the evidence and correct {a.claim.id} or {b.claim.id}")
        out.append(Found(ContradictionFinding(rule="factual", claims=[a.claim.id, b.claim.id, *others],
                                              detail=f"{a.claim.id} says {label} is {a.value.lstrip('~')}, "
                                                     f"{b.claim.id} says {b.value.lstrip('~')}",
                                              resolution=settle)))
    return out



def _conflicts(groups: dict[tuple[str, str], list[_Bound]], done: set[frozenset[str]]) -> list[tuple[_Bound, _Bound, list[str]]]:
    """Values of one thing that differ: each claim is reported once, against the first earlier claim that gives the
    thing another value (so n claims that all disagree make n - 1 findings, not n²)."""
    out: list[tuple[_Bound, _Bound, list[str]]] = []
    for members in groups.values():
        placed: set[str] = set()
        for n, b in enumerate(members):
            if b.claim.id in placed:
                continue
            for a in members[:n]:
                if a.claim is b.claim or not _same_thing(a, b) or not _differ(a, b):
                    continue
                pair = frozenset({a.claim.id, b.claim.id})
                if pair in done:
                    continue
                done.add(pair)
                placed.add(b.claim.id)
                out.append((a, b, []))
                break
    return out


def _finding(ctx: RuleContext, attr: dict[str, Any], a: Statement, b: Statement, entity: str | None, products: set[str]) -> Found:
    label = attr["id"].replace("_", " ")
    detail = f"{a.claim} says {label} {a.value}, {b.claim} says {b.value}"
    actual = _env_value(ctx, attr, entity, products)
    wrong: tuple[str, ...] = ()
    if actual is not None:
        value, where = actual
        wrong = tuple(s.claim for s in (a, b) if not _same(attr["compare"], s.value, value))
        right = [s.claim for s in (a, b) if s.claim not in wrong]
        resolution = f"{where} says {value}: " + (
            f"{' and '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} wrong" + (f", {right[0]} is right" if right else "")
        )
    else:
        resolution = f"Check the {label} in env.log or the configs and correct {a.claim} or {b.claim}"
    finding = ContradictionFinding(rule="factual", claims=[a.claim, b.claim], detail=detail, resolution=resolution,
                                   evidence=f"{actual[1]} = {actual[0]}" if actual else None)
    return Found(finding, wrong)


RULE = Rule("factual", "two claims state different values for the same attribute", check)
