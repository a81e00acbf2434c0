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
from ..model import ContradictionFinding
from ..support.checks.versions import matches as version_matches
from ..text import STOP_WORDS, parse_quantity, same_number
from .base import ClaimView, Found, Rule, RuleContext

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
            if a.claim == b.claim:
                continue
            one, two = sorted((a.claim, b.claim))
            if (attribute, one, two) in reported:
                continue
            reported.add((attribute, one, two))
            out.append(_finding(ctx, attr, a, b, entity or None, products))
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
