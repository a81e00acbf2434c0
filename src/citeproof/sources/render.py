"""Pipeline-mode report renderers: JSON (the machine contract) and text (for people)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import orjson

from .report import SourcesReport


def render_json(report: SourcesReport) -> str:
    """Indented JSON of :meth:`SourcesReport.to_dict`, keys in a fixed order, ending in a newline."""
    return orjson.dumps(report.to_dict(), option=orjson.OPT_INDENT_2).decode() + "\n"


def render_text(report: SourcesReport) -> str:
    """One block per claim (weight, status, where it came from, why), then the warnings."""
    gate = ""
    if report.threshold is not None:
        gate = (f"PASSED: validity score {report.validity_score:.2f} >= threshold {report.threshold:.2f}" if report.passed
                else f"BLOCKED: validity score {report.validity_score:.2f} < threshold {report.threshold:.2f}")
    lines = [*([gate] if gate else []), f"validity score: {report.validity_score:.2f} ({report.score_reason()})",
             f"validated: {len(report.validated_claims)}  non-validated: {len(report.non_validated_claims)}", ""]
    for e in report.explanations:
        status = e.status + (" (promoted)" if e.promoted else "")
        lines += [f"{e.weight:.1f}  {status:<24} {e.location}: {e.claim}",
                  f"     sources: {', '.join(e.evidence_sources)}",
                  f"     why: {e.reason}"]
    lines += ["", f"warnings: {len(report.warnings)}"]
    lines += [f"  {w.code}  {w.location}: {w.message}" for w in report.warnings]
    return "\n".join(lines) + "\n"


RENDERERS: Mapping[str, Callable[[SourcesReport], str]] = {"json": render_json, "text": render_text}
