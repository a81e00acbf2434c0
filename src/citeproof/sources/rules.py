"""The evidence-source rule table: which words in a claim call for which evidence keys.

The table is data: ``citeproof/data/source_rules.json`` (its ``description`` field documents the
shape). A user rules file has the same shape, every section optional, and is merged over it: a rule
or category with the same id replaces the shipped one, a new one is added, and ``data_keys``,
``context_keys`` and ``placeholders`` are extended.

A user file that adds a cache rule (and so silences the "no rule for category cache" warning)::

    {"rules": [{"id": "cache", "words": ["cache", "redis", "evictions"],
                "evidence": ["elasticache_metrics", "redis_*"]}]}

Words match whole words, case-insensitively: ``disk`` fires on "disk full" and "rds-disk" but never
inside "diskless". ``evict*`` opts in to any ending; a space also matches ``-`` and ``_``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ConfigError


def _words_pattern(words: Iterable[str]) -> re.Pattern[str]:
    parts = []
    for word in sorted({w.strip().lower() for w in words}, key=lambda w: (-len(w), w)):
        stem = word.rstrip("*")
        body = r"[\s_-]+".join(re.escape(piece) for piece in stem.split())
        parts.append(body + (r"[a-z0-9]*" if word.endswith("*") else ""))
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(parts) + r")(?![a-z0-9])", re.I)


@dataclass(frozen=True)
class WordSet:
    """Words (matched as whole words) and the compiled pattern that finds them."""

    words: tuple[str, ...]
    pattern: re.Pattern[str]

    @classmethod
    def of(cls, words: Iterable[str]) -> WordSet:
        ws = tuple(words)
        return cls(ws, _words_pattern(ws))

    def found_in(self, text: str) -> tuple[str, ...]:
        """The distinct words of this set in ``text`` (lower-cased, in order of appearance)."""
        seen: dict[str, None] = {}
        for m in self.pattern.finditer(text):
            seen.setdefault(" ".join(m.group(0).lower().replace("_", " ").replace("-", " ").split()), None)
        return tuple(seen)


@dataclass(frozen=True)
class Alternative:
    """More accepted evidence keys when the claim also names one of ``words``."""

    words: WordSet
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class SourceRule:
    id: str
    description: str
    words: WordSet
    evidence: tuple[str, ...]
    also: tuple[Alternative, ...] = ()

    def patterns(self) -> tuple[str, ...]:
        """Every evidence-key pattern this rule can ever accept."""
        return self.evidence + tuple(p for alt in self.also for p in alt.evidence)


@dataclass(frozen=True)
class RuleSet:
    """The merged rule table, built once and passed in (never mutated)."""

    rules: tuple[SourceRule, ...]
    categories: Mapping[str, WordSet]
    data_keys: frozenset[str]
    context_keys: frozenset[str]
    placeholders: tuple[tuple[str, re.Pattern[str]], ...]

    def knows_key(self, key: str) -> bool:
        """True when some rule can accept ``key`` as evidence, or it is a context key."""
        k = key.lower()
        return k in self.context_keys or any(fnmatchcase(k, p) for r in self.rules for p in r.patterns())

    def unruled_categories(self) -> dict[str, WordSet]:
        ids = {r.id for r in self.rules}
        return {name: ws for name, ws in self.categories.items() if name not in ids}


def _strings(value: Any, where: str, source: str, allow_empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value) or not (value or allow_empty):
        raise ConfigError(f"{where} must be a non-empty list of non-empty strings", source)
    return tuple(v.strip() for v in value)


def _rule(raw: Any, where: str, source: str) -> SourceRule:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"].strip():
        raise ConfigError(f"{where} must be an object with a non-empty 'id'", source)
    where = f"{where} ({raw['id']})"
    also_raw = raw.get("also", [])
    if not isinstance(also_raw, list):
        raise ConfigError(f"{where}: 'also' must be a list", source)
    also = []
    for n, alt in enumerate(also_raw):
        if not isinstance(alt, dict):
            raise ConfigError(f"{where}: also[{n}] must be an object with 'words' and 'evidence'", source)
        also.append(Alternative(WordSet.of(_strings(alt.get("words"), f"{where}: also[{n}].words", source)),
                                tuple(p.lower() for p in _strings(alt.get("evidence"), f"{where}: also[{n}].evidence", source))))
    return SourceRule(
        id=raw["id"].strip(),
        description=str(raw.get("description", "")),
        words=WordSet.of(_strings(raw.get("words"), f"{where}: 'words'", source)),
        evidence=tuple(p.lower() for p in _strings(raw.get("evidence"), f"{where}: 'evidence'", source)),
        also=tuple(also),
    )


def _placeholder(raw: Any, where: str, source: str) -> tuple[str, re.Pattern[str]]:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not isinstance(raw.get("pattern"), str):
        raise ConfigError(f"{where} must be an object with string 'id' and 'pattern'", source)
    try:
        return raw["id"], re.compile(raw["pattern"])
    except re.error as exc:
        raise ConfigError(f"{where} ({raw['id']}): bad pattern ({exc})", source) from None


def build_rules(layers: Iterable[tuple[Mapping[str, Any], str]]) -> RuleSet:
    """Merge rule-table layers (data, name for messages) in order; later layers win by id."""
    rules: dict[str, SourceRule] = {}
    categories: dict[str, WordSet] = {}
    data_keys: set[str] = set()
    context_keys: set[str] = set()
    placeholders: dict[str, re.Pattern[str]] = {}
    for data, source in layers:
        if not isinstance(data, Mapping):
            raise ConfigError("a rules file must be a JSON object", source)
        raw_rules = data.get("rules", [])
        if not isinstance(raw_rules, list):
            raise ConfigError("'rules' must be a list", source)
        for n, raw in enumerate(raw_rules):
            rule = _rule(raw, f"rules[{n}]", source)
            rules[rule.id] = rule
        raw_categories = data.get("categories", {})
        if not isinstance(raw_categories, dict):
            raise ConfigError("'categories' must be an object of name -> words", source)
        for name, words in raw_categories.items():
            categories[name] = WordSet.of(_strings(words, f"categories.{name}", source))
        data_keys.update(k.lower() for k in _strings(data.get("data_keys", []), "'data_keys'", source, allow_empty=True))
        context_keys.update(k.lower() for k in _strings(data.get("context_keys", []), "'context_keys'", source, allow_empty=True))
        raw_placeholders = data.get("placeholders", [])
        if not isinstance(raw_placeholders, list):
            raise ConfigError("'placeholders' must be a list", source)
        for n, raw in enumerate(raw_placeholders):
            pid, pattern = _placeholder(raw, f"placeholders[{n}]", source)
            placeholders[pid] = pattern
    return RuleSet(tuple(rules.values()), categories, frozenset(data_keys), frozenset(context_keys), tuple(placeholders.items()))


def _builtin_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("citeproof").joinpath("data/source_rules.json").read_text(encoding="utf-8"))
    return data


@cache
def builtin_rules() -> RuleSet:
    """The shipped table (``citeproof/data/source_rules.json``)."""
    return build_rules([(_builtin_data(), "source_rules.json")])


def load_rules(extra: str | Path | Mapping[str, Any] | None = None) -> RuleSet:
    """The shipped table, merged with a user rules file (path) or mapping when given."""
    if extra is None:
        return builtin_rules()
    if isinstance(extra, Mapping):
        return build_rules([(_builtin_data(), "source_rules.json"), (extra, "rules")])
    try:
        text = Path(extra).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ConfigError(f"cannot read rules file ({exc.strerror or exc})", extra) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})", extra) from None
    except RecursionError:
        raise ConfigError("rules file is nested too deeply", extra) from None
    return build_rules([(_builtin_data(), "source_rules.json"), (data, str(extra))])
