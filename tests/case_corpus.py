"""Loading and scoring the labelled case corpus in tests/cases (see tests/cases/README.md)."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import citeproof
from citeproof.model import Report

CASES = Path(__file__).parent / "cases"
CORPUS = Path(os.environ.get("CITEPROOF_CORPUS") or os.environ.get("EVIDENCEGATE_CORPUS")  # the variable's name before the rename
              or Path(__file__).resolve().parents[2] / "shared" / "corpus")


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


def case_dirs(root: Path = CASES) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "expected.json").is_file())


def findings_file(case: Path) -> Path:
    """``findings.md``, or ``findings.json`` for a case written as structured claims."""
    md = case / "findings.md"
    return md if md.is_file() else case / "findings.json"


def verdict(case: Path) -> str | None:
    """The labelled document verdict (PASSED/BLOCKED), when the case gives one."""
    data = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    value = data.get("verdict")
    return str(value) if value else None


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
            source = source.split("shared/corpus/", 1)[-1]
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
    report = citeproof.validate(findings_file(case), bundle, **options(case))
    return report, match(labels(case), report)


def plain(text: str) -> str:
    """Text as labels give it: white space collapsed, Markdown emphasis and code markers dropped."""
    return " ".join(re.sub(r"\*\*|__|(?<!\w)\*|\*(?!\w)|`", "", text).split())


def match(expected: list[Label], report: Report) -> list[Outcome]:
    outcomes: list[Outcome] = []
    used: set[int] = set()
    for claim in [*report.claims, *report.unverified_observations]:
        text = plain(claim.claim)
        # a table row is read as its cells joined by " | "; a label may give the row by any cell ("the finding column")
        cells = [text, *(text[m.end():] for m in re.finditer(r" \| ", text))]
        hit = next((i for i, lab in enumerate(expected) if i not in used and any(c.startswith(plain(lab.text)) for c in cells)), None)
        if hit is None:
            outcomes.append(Outcome(None, "unlabelled", text, claim.reason))
            continue
        used.add(hit)
        outcomes.append(Outcome(expected[hit], claim.status.value, text, claim.reason))
    for i, lab in enumerate(expected):
        if i not in used:
            outcomes.append(Outcome(lab, "not_a_claim", lab.text))
    return outcomes
