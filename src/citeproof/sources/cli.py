"""``citeproof sources``: pipeline mode from the command line.

    citeproof sources --claims CLAIMS.json --evidence EVIDENCE.json [--rules FILE] [--format json|text]

CLAIMS.json is ``{"validated_claims": [...], "non_validated_claims": [...]}`` (either list may be
missing) or a bare list, read as the model's validated claims; a claim is a string or an object with
a ``"claim"`` or ``"text"`` string. EVIDENCE.json is an object of evidence keys. Prints the
categorized claims, ``validity_score``, the score breakdown, one explanation per claim and the
warnings.

Exit 0; with ``--threshold T`` (0 to 1), exit 1 when ``validity_score`` is below T, as ``check``
does for the verification rate, so a CI step fails (the JSON then has ``"threshold"`` and
``"passed"``, the text report opens with PASSED/BLOCKED). Exit 2 with one line on stderr
(``citeproof: error: FILE: what``) for unusable input.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import BundleError, CiteproofError, ConfigError, FindingsError
from ..evidence.structured import MAX_DEPTH, too_deep
from .check import claim_text
from .render import RENDERERS
from .report import check_sources
from .rules import load_rules


def _read_json(path: Path, error: type[CiteproofError]) -> Any:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read ({getattr(exc, 'strerror', None) or exc})", path) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})", path) from None
    except RecursionError:
        data = None
    if data is None or too_deep(data):
        raise error(f"nested too deeply (more than {MAX_DEPTH} levels)", path)
    return data


def load_claims(path: Path) -> tuple[list[Any], list[Any]]:
    """(validated_claims, non_validated_claims) from a claims file; FindingsError when unusable."""
    data = _read_json(path, FindingsError)
    if isinstance(data, list):
        data = {"validated_claims": data}
    if not isinstance(data, dict) or not ({"validated_claims", "non_validated_claims"} & data.keys()):
        raise FindingsError("expected a list of claims or an object with 'validated_claims' and/or 'non_validated_claims'", path)
    lists = []
    for name in ("validated_claims", "non_validated_claims"):
        claims = data.get(name) or []
        if not isinstance(claims, list):
            raise FindingsError(f"'{name}' must be a list", path)
        for n, claim in enumerate(claims):
            try:
                claim_text(claim, f"{name}[{n}]")
            except FindingsError as exc:
                raise FindingsError(exc.message, path) from None
        lists.append(claims)
    return lists[0], lists[1]


def load_evidence(path: Path) -> dict[str, Any]:
    data = _read_json(path, BundleError)
    if not isinstance(data, dict):
        raise BundleError("expected a JSON object of evidence keys (cloudwatch_logs, rds_metrics, ...)", path)
    return data


@click.command("sources", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--claims", "claims_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Claims JSON: {validated_claims, non_validated_claims} or a list.")
@click.option("--evidence", "evidence_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Evidence dict JSON (cloudwatch_logs, rds_metrics, ...).")
@click.option("--rules", "rules_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Extra evidence-source rules (same shape as the shipped source_rules.json), merged by id.")
@click.option("--format", "-f", "fmt", type=click.Choice(sorted(RENDERERS)), default="json", show_default=True)
@click.option("--threshold", type=click.FloatRange(0.0, 1.0),
              help="Exit 1 when the validity score is below this (0 to 1) [default: no threshold, exit 0].")
@click.pass_context
def sources_command(ctx: click.Context, claims_path: Path, evidence_path: Path, rules_path: Path | None, fmt: str,
                    threshold: float | None) -> int:
    """Check pipeline claims against an evidence dict: categorized claims, validity score, warnings."""
    try:
        rules = load_rules(rules_path)
        validated, non_validated = load_claims(claims_path)
        report = check_sources(validated, non_validated, load_evidence(evidence_path), rules)
    except (ConfigError, FindingsError, BundleError) as exc:
        click.echo(f"citeproof: error: {' '.join(str(exc).split())}", err=True)
        ctx.exit(2)
    report = dataclasses.replace(report, threshold=threshold)
    sys.stdout.write(RENDERERS[fmt](report))
    return 0 if report.passed else 1
