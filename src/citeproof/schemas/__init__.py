"""JSON Schemas shipped with citeproof (``report.schema.json`` documents ``--format json``)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def report_schema() -> dict[str, Any]:
    """The JSON Schema of the JSON report, as shipped."""
    text = resources.files(__name__).joinpath("report.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def generate_report_schema() -> dict[str, Any]:
    """The schema as the code defines it (the shipped file must equal this)."""
    from ..model import Report

    schema = Report.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://citeproof.dev/schemas/report.schema.json"
    schema["title"] = "citeproof report"
    return schema
