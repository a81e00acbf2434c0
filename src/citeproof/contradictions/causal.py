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
from ..support.facts import extract, split_negation
from ..text import Quantity, parse_quantity, unit_from_key
from .base import Found, Rule, RuleContext

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
