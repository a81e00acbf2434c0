"""``--format json``: the documented JSON report (schema: ``citeproof/schemas/report.schema.json``).

Keys keep the order of the schema; the output is byte-identical for identical input.
"""

from __future__ import annotations

from typing import TextIO

import orjson

from ..model import Report
from .base import Reporter


class JsonReporter(Reporter):
    name = "json"
    description = "machine-readable report (JSON Schema shipped with the package)"

    def write(self, report: Report, stream: TextIO) -> None:
        stream.write(orjson.dumps(report.to_dict(), option=orjson.OPT_INDENT_2).decode())
        stream.write("\n")
