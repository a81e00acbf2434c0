"""Batch mode: validate many investigations at once, for QA teams scoring agent runs.

    citeproof batch CASES_DIR [--jobs N]

Each case is a sub-folder of ``CASES_DIR`` holding findings (``findings.md``, ``findings.txt``,
``findings.json`` or ``claims.json``) and evidence (a ``bundle/`` or ``evidence/`` folder; without one,
the case folder itself minus the findings file is the bundle). Cases run in parallel processes
(``--jobs``, default: the number of cores). One JSON line per case goes to stdout, in case-name order,
and a summary table to stderr. A case whose input is unusable gets ``"status": "ERROR"`` and its
one-line error; it never stops the others. While it works, a terminal on stderr shows how many cases
are done (``batch: 2 of 3 cases (66%)``, see :mod:`citeproof.terminal`); piped, only the table.

Exit code: 0 when every case PASSED, 1 when any was BLOCKED, 2 when any case could not be run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FINDINGS_NAMES = ("findings.md", "findings.txt", "findings.json", "claims.json", "findings.markdown")
BUNDLE_NAMES = ("bundle", "evidence")


@dataclass(frozen=True)
class Case:
    name: str
    findings: Path | None
    bundle: Path


def discover(cases_dir: Path) -> list[Case]:
    out = []
    for folder in sorted(p for p in cases_dir.iterdir() if p.is_dir() and not p.name.startswith(".")):
        findings = next((folder / n for n in FINDINGS_NAMES if (folder / n).is_file()), None)
        bundle = next((folder / n for n in BUNDLE_NAMES if (folder / n).is_dir()), folder)
        out.append(Case(folder.name, findings, bundle))
    return out


def run_case(case: Case, options: dict[str, Any]) -> dict[str, Any]:
    from .engine import validate
    from .errors import CiteproofError

    if case.findings is None:
        return {"case": case.name, "status": "ERROR", "error": f"{case.name}: no findings file ({', '.join(FINDINGS_NAMES)})"}
    try:
        report = validate(case.findings, case.bundle, **options)
    except CiteproofError as exc:
        return {"case": case.name, "status": "ERROR", "error": str(exc)}
    except Exception as exc:  # one broken case must not stop the batch
        return {"case": case.name, "status": "ERROR", "error": f"internal error: {type(exc).__name__}: {exc}"}
    return {
        "case": case.name,
        "status": report.status.value,
        "verification_rate": report.verification_rate,
        "total_claims": report.total_claims,
        "verified_claims": report.verified_claims,
        "contradictions": report.contradictions,
        "uncited_claims": report.uncited_claims,
        "message": report.message,
    }


def run_batch(cases_dir: Path, jobs: int | None = None, on_done: Callable[[int, int], None] | None = None,
              **options: Any) -> list[dict[str, Any]]:
    """Results of every case, in case-name order; ``on_done(done, total)`` is called before the first case and as
    each case finishes."""
    cases = discover(cases_dir)
    workers = max(1, jobs or os.cpu_count() or 1)
    done = (lambda n, total: None) if on_done is None else on_done
    results: list[dict[str, Any] | None] = [None] * len(cases)
    done(0, len(cases))
    if workers == 1 or len(cases) <= 1:
        for n, case in enumerate(cases):
            results[n] = run_case(case, options)
            done(n + 1, len(cases))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(cases))) as pool:
            futures = {pool.submit(run_case, case, options): n for n, case in enumerate(cases)}
            for finished, future in enumerate(as_completed(futures), 1):
                results[futures[future]] = future.result()
                done(finished, len(cases))
    return [r for r in results if r is not None]


def exit_code(results: list[dict[str, Any]]) -> int:
    statuses = {r["status"] for r in results}
    if "ERROR" in statuses:
        return 2
    return 1 if "BLOCKED" in statuses else 0


def summary_table(results: list[dict[str, Any]]) -> str:
    """A plain-text table: case, verdict, rate, verified/total, contradictions."""
    width = max([len(r["case"]) for r in results] + [4])
    lines = [f"{'case':<{width}}  verdict  rate   verified  contradictions"]
    for r in results:
        if r["status"] == "ERROR":
            lines.append(f"{r['case']:<{width}}  ERROR    {r['error']}")
            continue
        lines.append(
            f"{r['case']:<{width}}  {r['status']:<7}  {r['verification_rate']:.3f}  "
            f"{r['verified_claims']:>3}/{r['total_claims']:<4}  {r['contradictions']:>14}"
        )
    passed = sum(1 for r in results if r["status"] == "PASSED")
    lines.append(f"{passed} of {len(results)} cases passed")
    return "\n".join(lines)
