"""The seven citation formats, as an explicit registry.

Each format is one module exposing ``FORMAT``, a :class:`~.base.CitationFormat` with ``find`` (spot
citations in claim text) and ``check`` (resolve one against the bundle). The module docstring is the
format's documentation, with a passing and a failing example.

:func:`find_citations` runs every format's finder over a text and keeps the non-overlapping
matches (earliest first, longest first), so ``timestamp:2026-01-15T10:30:45Z`` is one timestamp
citation, not also a bare instant.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model import CitationRef
from . import config_key, env, file_line, har_entry, jira, pattern, timestamp
from .base import CheckContext, Checked, CitationFormat, Scope

REGISTRY: Mapping[str, CitationFormat] = {
    f.id: f
    for f in (
        file_line.FORMAT,
        har_entry.FORMAT,
        timestamp.FORMAT,
        pattern.FORMAT,
        jira.FORMAT,
        config_key.FORMAT,
        env.FORMAT,
    )
}


def find_citations(text: str, scope: Scope | None = None, registry: Mapping[str, CitationFormat] = REGISTRY) -> list[CitationRef]:
    """Every citation in ``text``, in reading order, without overlaps."""
    scope = scope or Scope()
    found = [ref for fmt in registry.values() for ref in fmt.find(text, scope)]
    found.sort(key=lambda r: (r.start, -(r.end - r.start)))
    kept: list[CitationRef] = []
    end = -1
    for ref in found:
        if ref.start >= end:
            kept.append(ref)
            end = ref.end
    return kept


__all__ = ["REGISTRY", "CheckContext", "Checked", "CitationFormat", "Scope", "find_citations"]
