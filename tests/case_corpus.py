"""Loading and scoring the labelled case corpus in tests/cases (see tests/cases/README.md)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import citeproof
from citeproof.model import Report

CASES = Path(__file__).parent / "cases"
CORPUS = Path(os.environ.get("CITEPROOF_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus")


@dataclass(frozen=True)
class Label:
    case: str
    text: str
    status: str
    why: str
    known_gap: str | None


@dataclass(frozen=True)
class Outcome:
    label: Label | None
    actual: str  # a claim status, "not_a_claim" (not found by the reader) or "unlabelled"
    claim: str
    reason: str = ""

    @property
    def correct(self) -> bool:
        return self.label is not None and self.label.status == self.actual


def case_dirs() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if (p / "expected.json").is_file())


def needs_corpus(case: Path) -> bool:
    return (case / "corpus.json").is_file()


def labels(case: Path) -> list[Label]:
    data = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    return [Label(case.name, c["text"], c["status"], c.get("why", ""), c.get("known_gap")) for c in data["claims"]]


def build_bundle(case: Path, into: Path, corpus: Path = CORPUS) -> Path:
    """The case's evidence: its bundle/ folder plus any corpus files it names, copied into ``into``."""
    target = into / "bundle"
    if (case / "bundle").is_dir():
        shutil.copytree(case / "bundle", target, symlinks=True)
    target.mkdir(parents=True, exist_ok=True)
    if needs_corpus(case):
        manifest = json.loads((case / "corpus.json").read_text(encoding="utf-8"))
        for rel, source in manifest["files"].items():
            if source.startswith("loghub/"):
                raise ValueError(f"{case.name}: loghub is licensed for research only and may not be used in tests")
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(corpus / source, dest)
    return target


def options(case: Path) -> dict[str, Any]:
    data = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    opts = dict(data.get("options") or {})
    if isinstance(opts.get("now"), str):
        opts["now"] = dt.datetime.fromisoformat(opts["now"].replace("Z", "+00:00"))
    opts.setdefault("now", dt.datetime(2026, 11, 30, tzinfo=dt.UTC))
    return opts


def run_case(case: Path, workdir: Path) -> tuple[Report, list[Outcome]]:
    bundle = build_bundle(case, workdir)
    report = citeproof.validate(case / "findings.md", bundle, **options(case))
    return report, match(labels(case), report)


def match(expected: list[Label], report: Report) -> list[Outcome]:
    outcomes: list[Outcome] = []
    used: set[int] = set()
    for claim in [*report.claims, *report.unverified_observations]:
        text = " ".join(claim.claim.split())
        hit = next(
            (i for i, lab in enumerate(expected) if i not in used and text.startswith(" ".join(lab.text.split()))), None
        )
        if hit is None:
            outcomes.append(Outcome(None, "unlabelled", text, claim.reason))
            continue
        used.add(hit)
        outcomes.append(Outcome(expected[hit], claim.status.value, text, claim.reason))
    for i, lab in enumerate(expected):
        if i not in used:
            outcomes.append(Outcome(lab, "not_a_claim", lab.text))
    return outcomes
