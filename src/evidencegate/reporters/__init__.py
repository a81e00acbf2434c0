"""Reporters: each renders a :class:`~evidencegate.model.Report` to a text stream.

The registry maps a ``--format`` name to a reporter class; a reporter has a ``name``, a
``description`` and ``write(report, stream)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Reporter
from .html import HtmlReporter
from .json import JsonReporter
from .markdown import MarkdownReporter
from .sarif import SarifReporter
from .text import TextReporter

REPORTERS: Mapping[str, type[Reporter]] = {
    r.name: r for r in (TextReporter, JsonReporter, MarkdownReporter, SarifReporter, HtmlReporter)
}

__all__ = ["REPORTERS", "Reporter"]
