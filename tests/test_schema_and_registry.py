"""The JSON report matches its shipped schema; every citation format is registered, documented and exercised."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import citeproof
from citeproof.citations import REGISTRY, find_citations
from citeproof.schemas import generate_report_schema, report_schema

SPEC_FORMATS = {"file:line", "har:entry", "timestamp", "pattern", "jira", "config", "env"}


def test_shipped_schema_matches_the_model() -> None:
    assert report_schema() == json.loads(json.dumps(generate_report_schema(), sort_keys=True))


def test_report_validates_against_schema(example: Path) -> None:
    report = citeproof.validate(example / "findings.md", example / "bundle")
    jsonschema.Draft202012Validator(report_schema()).validate(report.to_dict())


def test_schema_rejects_a_wrong_report(example: Path) -> None:
    data = citeproof.validate(example / "findings.md", example / "bundle").to_dict()
    data["status"] = "MAYBE"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(report_schema()).validate(data)


def test_registry_holds_exactly_the_seven_formats() -> None:
    assert set(REGISTRY) == SPEC_FORMATS


@pytest.mark.parametrize("format_id", sorted(SPEC_FORMATS))
def test_every_format_is_documented_with_examples(format_id: str) -> None:
    fmt = REGISTRY[format_id]
    module = __import__(fmt.check.__module__, fromlist=["_"])
    doc = module.__doc__ or ""
    assert "Passing" in doc and "Failing" in doc, f"{format_id}: docstring needs a passing and a failing example"
    assert fmt.examples, format_id
    for example in fmt.examples:
        refs = find_citations(f"Claim text ({example}).")
        assert [r.format_id for r in refs] == [format_id], (example, refs)
        assert refs[0].parse_error is None
