"""Attribute values: the value a claim states for a cited config or env key is the key's value.

A value is stated either explicitly in the citation (``env:version=8.9.0``, ``config:a.b=5000``) or in
the claim's own words ("timeout is 30 s (config:integration.timeout_ms)"). Numbers compare
numerically with units normalised (``30 s`` equals ``timeout_ms: 30000``); strings compare
case-insensitively; a version may match as a prefix on component boundaries (``8.9`` matches
``8.9.0-2464525``, ``8.9.0-24`` does not); a switch reads "enabled"/"disabled" against true/false.

Passing::

    evidence integration.yaml: integration:
    evidence integration.yaml:   timeout_ms: 30000
    claim: The integration timeout is 30 seconds (config:integration.timeout_ms).
    verdict: supported

Failing::

    evidence integration.yaml: integration:
    evidence integration.yaml:   timeout_ms: 30000
    claim: The integration timeout is 10 seconds (config:integration.timeout_ms).
    verdict: contradicted
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ...model import Evidence
from ...text import Quantity, parse_quantity, same_number, same_quantity, size_from_key, stem, terms, unit_from_key
from ..facts import spelled_out
from .base import Check, FactVerdict, Outcome, Subject
from .versions import matches

Match = Literal["match", "mismatch", "not_stated"]

_NUMBER_IN_TEXT = re.compile(  # never a piece of a version or an address: 4.18.0 and 198.51.100.23 are not 4.1 and 198.5
    r"(?<![\w.:/\-])(\d[\d,]*(?:\.\d+)?)(?!\d)(?![.:]\d|[\-/]\d)\s?(%|[A-Za-z]+(?:/[A-Za-z]+)?)?"
)
_ADDRESS = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+(?:[-+_][\w.]+)?)(?![\w.])")


def values_match(stated: str, actual: Any, key: str = "") -> bool:
    """``stated`` equals ``actual`` (numbers with units normalised; ``key`` may imply the unit)."""
    actual_text = _text(actual)
    if stated.strip().lower() == actual_text.lower():
        return True
    qs, qa = parse_quantity(stated), _actual_quantity(key, actual) if key else parse_quantity(actual_text)
    if qs is not None and qa is not None and qs.unit and not qa.unit and not unit_from_key(key):
        return False
    if qs is not None and qa is not None:
        return same_quantity(qs, qa)
    leading = _VERSION.match(actual_text.strip())  # "17.0.10+7-LTS (Amazon Corretto)" is version 17.0.10+7-LTS
    if _VERSION.fullmatch(stated.strip()) and leading:
        return matches(stated, leading.group(1))
    # a release named by its leading components: "systemd 252" is 252.30-1~deb12u2, "Java 17" is 17.0.10
    if leading is None or _ADDRESS.fullmatch(leading.group(1)) or not re.fullmatch(r"\d+", stated.strip()):
        return False
    return bool(re.match(re.escape(stated.strip()) + r"[.\-~+_]", leading.group(1)))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _actual_quantity(key: str, actual: Any) -> Quantity | None:
    if isinstance(actual, bool):
        return None
    text = _text(actual).strip()
    size = size_from_key(key, text)
    if size is not None:
        return size
    unit = unit_from_key(key)
    if unit:
        q = parse_quantity(f"{text} {unit}")
        if q is not None:
            return q
    return parse_quantity(text)


_AFTER_NAME = re.compile(r"[\s:=`]*(?:is\s|of\s|at\s|to\s|was\s)?\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|[^\s,;()`]+)(?:\s([A-Za-z%]+))?")


_BEFORE_NAME = re.compile(r"(?<![\w.:/])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s$")


def _named_values(claim: str, key: str) -> list[str]:
    """The values written at the place ``claim`` names ``key``: just after the name ("ttl 30", "loop_wait: 10",
    "systemd 249", "max length of 50,000") or just before it ("2 erasure sets"). Each of several cited keys is
    then read from its own place, not from the first number of the sentence."""
    parts = [p for p in re.split(r"[.\[\]]", key.lower()) if p and not p.isdigit() and p not in ("version", "value")]
    if not parts:
        return []
    leaf = parts[-1]
    for name in dict.fromkeys((leaf, leaf.replace("_", " "), leaf.replace("_", "-"))):
        m = re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", claim, re.I)
        if m:
            out = []
            before = _BEFORE_NAME.search(claim[max(0, m.start() - 16):m.start()])
            if before:
                out.append(before.group(1))
            after = _AFTER_NAME.match(claim[m.end():])
            if after:
                value, unit = after.group(1), after.group(2)
                out.append(f"{value} {unit}" if unit and parse_quantity(f"{value} {unit}") else value)
            return [v for v in out if re.fullmatch(r"v?\d[\d,.]*(?:[-+_][\w.]+)?", v.split()[0])]
    return []


def stated_in_claim(claim: str, key: str, actual: Any) -> tuple[Match, str]:
    """Whether ``claim`` states a value for ``key`` and whether it equals ``actual``."""
    if isinstance(actual, dict | list):
        return "not_stated", ""
    named = _named_values(claim, key)
    verdicts = []
    for value in named:  # the value written at the key's name
        got = _stated_in(value, key, actual)
        bare = re.fullmatch(r"v?(\d+)", value.split()[0])
        if got[0] == "match" or (bare and matches(bare.group(1), _text(actual))):
            return "match", ""  # "systemd 249" names 249.11-0ubuntu3.10
        if got[0] == "mismatch":
            verdicts.append(got)
        elif bare and ("version" in key.lower() or _VERSION.match(_text(actual).strip())):
            verdicts.append(("mismatch", f"the claim says {value}, the evidence says {_text(actual)}"))
    if verdicts:
        return verdicts[0]
    return _stated_in(claim, key, actual)


def _stated_in(claim: str, key: str, actual: Any) -> tuple[Match, str]:
    actual_text = _text(actual)
    if actual_text.lower() in _TRUE | _FALSE:
        return _stated_switch(claim, actual_text.lower() in _TRUE, actual_text)
    leading = _VERSION.match(actual_text.strip())
    if leading and (leading.end() == len(actual_text.strip()) or "version" in key.lower()):
        actual_text = leading.group(1)
    if _VERSION.fullmatch(actual_text.strip()) or "version" in key.lower():
        versions = [m.group(1) for m in _VERSION.finditer(claim)]
        if not versions:
            return "not_stated", ""
        if any(matches(v, actual_text) for v in versions):
            return "match", ""
        return "mismatch", f"the claim says {versions[0]}, the evidence says {actual_text}"
    qa = _actual_quantity(key, actual)
    if qa is None:
        if actual_text and actual_text.lower() in claim.lower():
            return "match", ""
        return "not_stated", ""
    claim = spelled_out(claim)  # "sixteen CPU cores" states 16 for cpu_cores
    key_terms = terms(re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace(".", " "))  # maxIncomingConnections: max incoming connections
    compared: list[str] = []
    for m in _NUMBER_IN_TEXT.finditer(claim):
        number, unit = m.group(1), (m.group(2) or "")
        q = parse_quantity(f"{number} {unit}".strip())
        if q is None:  # the number is bound to a noun: only a noun of this key counts
            if not unit or stem(unit.lower().split("/")[0]) not in key_terms:
                continue
            q = Quantity(float(number.replace(",", "")), "")
        raw = float(number.replace(",", ""))
        if same_quantity(q, qa) or (
            (q.unit == "" or unit_from_key(key) is None) and _raw_equal(raw, actual)
        ) or (unit_from_key(key) is None and _bare_in_base(q, qa)):
            return "match", ""
        if q.unit == qa.unit or q.unit == "":
            compared.append(f"{number}{' ' + unit if unit else ''}")
    if compared:
        return "mismatch", f"the claim says {compared[0]}, the evidence says {actual_text}"
    return "not_stated", ""


_TRUE = frozenset({"true", "yes", "on", "enabled", "1"})
_FALSE = frozenset({"false", "no", "off", "disabled", "0"})
_ON = re.compile(r"\b(?:enabled|switched on|turned on|is on|set to true|true|active|activated|allowed)\b", re.I)
_OFF = re.compile(r"\b(?:disabled|switched off|turned off|is off|set to false|false|inactive|deactivated|not enabled|not active)\b", re.I)


def _stated_switch(claim: str, actual: bool, actual_text: str) -> tuple[Match, str]:
    """A boolean setting: does the claim call it on or off?"""
    off = bool(_OFF.search(claim))
    on = bool(_ON.search(claim)) and not off
    if not (on or off):
        return "not_stated", ""
    if on == actual:
        return "match", ""
    return "mismatch", f"the claim says it is {'on' if on else 'off'}, the evidence says {actual_text}"


def _bare_in_base(claimed: Quantity, actual: Quantity) -> bool:
    """A bare number under a key that names no unit, read in the units configs write durations and sizes in: a duration
    in milliseconds or seconds ("a 30-second connection timeout" for ``connection-timeout: 30000``, "a 1-hour TTL" for
    ``message-ttl: 3600000``), a size in bytes."""
    if actual.unit != "":
        return False
    if claimed.unit == "s":
        return same_number(actual.value, claimed.value) or same_number(actual.value, claimed.value * 1000)
    return claimed.unit == "B" and same_number(actual.value, claimed.value)


def _raw_equal(number: float, actual: Any) -> bool:
    try:
        return same_number(number, float(_text(actual).replace(",", "")))
    except ValueError:
        return False


def _value(e: Evidence) -> Any:
    """The cited value as the config held it: text, or None for a table or list (it states nothing)."""
    value = e.items[0] if e.items else ""
    return None if value.startswith(("{", "[")) else value


def check(s: Subject) -> FactVerdict | None:
    cited = s.of_kind("config", "env")
    if not cited:
        return None
    compared = []
    for e in cited:
        value = _value(e)
        if e.stated is not None:
            match, why = ("match", "") if values_match(e.stated, value or "", e.key) else (
                "mismatch", f"stated {e.stated}, the evidence says {e.items[0] if e.items else ''}")
        elif value is None:
            continue
        else:
            match, why = stated_in_claim(s.text, e.key, value)
        if match == "mismatch":
            return CHECK.verdict(Outcome.CONTRADICTED, "mismatch", f"{e.location}: value mismatch: {why}",
                                 e.stated or "", str(value), e.location)
        if match == "match":
            compared.append(f"{e.location} = {value}")
    if not compared:
        return CHECK.verdict(Outcome.SUPPORTED, "not_stated", "the claim states no value for the cited keys")
    return CHECK.verdict(Outcome.SUPPORTED, "match", "; ".join(compared), location=cited[0].location)


CHECK = Check("values", "value", check, "a value the claim states for a cited config or env key is that key's value")
