"""Reporters: each renders a :class:`~citeproof.model.Report` to a text stream.

The registry maps a ``--format`` name to a reporter class; a reporter has a ``name``, a
``description`` and ``write(report, stream)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from .base import Reporter

_WHERE = {
    "text": "text:TextReporter",
    "json": "json:JsonReporter",
    "markdown": "markdown:MarkdownReporter",
    "sarif": "sarif:SarifReporter",
    "html": "html:HtmlReporter",
}


class _Registry(Mapping[str, type[Reporter]]):
    """The reporter registry; a reporter's module is imported when it is first asked for."""

    def __getitem__(self, name: str) -> type[Reporter]:
        module, _, cls = _WHERE[name].partition(":")
        reporter: type[Reporter] = getattr(import_module(f"{__name__}.{module}"), cls)
        return reporter

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)


REPORTERS: Mapping[str, type[Reporter]] = _Registry()
REPORTER_NAMES = tuple(_WHERE)  # the ``--format`` choices, known without importing any reporter

__all__ = ["REPORTERS", "REPORTER_NAMES", "Reporter"]
