"""Does an evidence key hold data, and are masked placeholders left in it?

An evidence dict maps keys (``cloudwatch_logs``, ``rds_metrics``, ...) to whatever the observability
tool returned. A key counts as *present* only when its value holds data:

- ``None``, ``false``, an empty or blank string, an empty list or object: no data;
- a non-empty string, a number, ``true``: data;
- a list: data when any item holds data;
- an object with one of the rule table's ``data_keys`` (``data``, ``results``, ``events``,
  ``Datapoints``, ``values``, ... compared case-insensitively): data when one of those holds data.
  So ``{"host": "web-1", "data": []}`` and ``{"Label": "CPUUtilization", "Datapoints": []}`` are empty;
- any other object holding such series (``{"FunctionName": "ingest", "Throttles": {"Datapoints": []}}``,
  ``{"MetricList": [{"DataPoints": [...]}]}``): data when one of the series does; its other values are labels;
- any other non-empty object (a record such as a Datadog monitor): data.

    >>> has_data({"status": "Complete", "results": []}, frozenset({"results"}))
    False
    >>> has_data({"DatabaseConnections": {"Datapoints": [{"Maximum": 5000.0}]}}, frozenset({"datapoints"}))
    True
    >>> has_data({"FunctionName": "ingest", "Throttles": {"Datapoints": []}}, frozenset({"datapoints"}))
    False
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any


def has_data(value: Any, data_keys: frozenset[str]) -> bool:
    """True when ``value`` holds data (see the module documentation)."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, list | tuple):
        return any(has_data(v, data_keys) for v in value)
    if isinstance(value, Mapping):
        nested = [v for k, v in value.items() if str(k).lower() in data_keys]
        if nested:
            return any(has_data(v, data_keys) for v in nested)
        series = [v for v in value.values() if _is_series(v, data_keys)]
        if series:
            return any(has_data(v, data_keys) for v in series)
        return bool(value)
    return True


def _is_series(value: Any, data_keys: frozenset[str]) -> bool:
    """An object with a data key, or a list holding one: what decides whether its parent holds data."""
    if isinstance(value, Mapping):
        return any(str(k).lower() in data_keys for k in value)
    return isinstance(value, list | tuple) and any(_is_series(v, data_keys) for v in value)


def data_map(evidence: Mapping[str, Any], data_keys: frozenset[str]) -> dict[str, bool]:
    """Evidence key -> whether it holds data, in the evidence's own order."""
    return {k: has_data(v, data_keys) for k, v in evidence.items()}


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for n, v in enumerate(value):
            yield from _strings(v, f"{path}[{n}]")


def placeholders_in(text: str, patterns: tuple[tuple[str, re.Pattern[str]], ...]) -> tuple[str, ...]:
    """The distinct masked placeholders (``<IP_1>``, ``[REDACTED]``, ``***``) in ``text``, in order."""
    found: dict[str, int] = {}
    for _, pattern in patterns:
        for m in pattern.finditer(text):
            found.setdefault(m.group(0), m.start())
    return tuple(sorted(found, key=lambda tok: (found[tok], tok)))


def evidence_placeholders(
    key: str, value: Any, patterns: tuple[tuple[str, re.Pattern[str]], ...]
) -> tuple[int, tuple[str, ...], str] | None:
    """(count of strings with placeholders, distinct placeholders, first path) for one evidence key."""
    count, tokens, first = 0, dict[str, None](), ""
    for path, text in _strings(value, key):
        found = placeholders_in(text, patterns)
        if found:
            count += 1
            first = first or path
            tokens.update(dict.fromkeys(found))
    return (count, tuple(tokens), first) if count else None
