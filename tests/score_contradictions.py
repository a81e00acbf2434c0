"""Score contradictions between claims against a labelled contradiction corpus.

    python -m tests.score_contradictions DIR [-v]

Each case folder of DIR is a labelled case (see tests/cases/README.md) whose ``expected.json`` also lists
``"contradictions": [{"a", "b", "rule", "why"}]`` (pairs of claims, by the beginning of their text, that
contradict each other) and ``"near_misses": [{"a", "b", "why"}]`` (pairs that look contradictory but are not).
Printed: expected pairs reported as a contradiction between those two claims (overall and per rule), near
misses reported, other pairs reported (false contradictions), and per-claim evidence refutations apart.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

import citeproof

from .case_corpus import build_bundle, case_dirs, findings_file, options, plain


def _claim_id(report: citeproof.Report, text: str) -> str | None:
    want = plain(text)
    for claim in [*report.claims, *report.unverified_observations]:
        got = plain(claim.claim)
        cells = [got, *(got[i + 3:] for i in range(len(got)) if got.startswith(" | ", i))]
        if any(c.startswith(want) for c in cells):
            return claim.id
    return None


def score(root: Path, verbose: bool = False) -> dict[str, int]:
    tally: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for case in case_dirs(root):
            data = json.loads((case / "expected.json").read_text(encoding="utf-8"))
            if "contradictions" not in data and "near_misses" not in data:
                continue
            bundle = build_bundle(case, Path(tmp) / case.name)
            report = citeproof.validate(findings_file(case), bundle, **options(case))
            pairs = {frozenset(f.claims): f for f in report.contradiction_findings if len(set(f.claims)) == 2}
            tally["evidence_refutations"] += sum(1 for f in report.contradiction_findings if len(set(f.claims)) == 1)
            seen: set[frozenset[str]] = set()
            for item in data.get("contradictions", []):
                a, b = _claim_id(report, item["a"]), _claim_id(report, item["b"])
                key = frozenset({a, b}) if a and b else None
                found = key in pairs if key else False
                tally["expected"] += 1
                tally[f"expected_{item['rule']}"] += 1
                tally["found"] += found
                tally[f"found_{item['rule']}"] += found
                tally["unmatched_text"] += key is None
                if key:
                    seen.add(key)
                if verbose and not found:
                    print(f"  MISSED {case.name} [{item['rule']}] {item['a'][:60]!r} / {item['b'][:60]!r}")
            for item in data.get("near_misses", []):
                a, b = _claim_id(report, item["a"]), _claim_id(report, item["b"])
                key = frozenset({a, b}) if a and b else None
                flagged = key in pairs if key else False
                tally["near_misses"] += 1
                tally["near_misses_flagged"] += flagged
                if key:
                    seen.add(key)
                if verbose and flagged:
                    print(f"  NEAR MISS FLAGGED {case.name} {item['a'][:60]!r} / {item['b'][:60]!r}: {pairs[key].detail[:120]}")
            for key, finding in pairs.items():
                if key not in seen:
                    tally["other_pairs"] += 1
                    if verbose:
                        print(f"  OTHER PAIR {case.name} {sorted(key)} [{finding.rule}] {finding.detail[:140]}")
            tally["cases"] += 1
            tally["cases_without_expected"] += not data.get("contradictions")
            tally["false_in_clean_cases"] += (not data.get("contradictions")) and bool(pairs)
    return dict(tally)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    root = Path(next(a for a in argv if not a.startswith("-")))
    t = score(root, verbose)
    rules = sorted(k.removeprefix("expected_") for k in t if k.startswith("expected_"))
    print(f"cases: {t.get('cases', 0)}  expected contradictions found: {t.get('found', 0)}/{t.get('expected', 0)}  "
          + "  ".join(f"{r} {t.get('found_' + r, 0)}/{t.get('expected_' + r, 0)}" for r in rules))
    print(f"near misses reported as contradictions: {t.get('near_misses_flagged', 0)}/{t.get('near_misses', 0)}  "
          f"other pairs reported: {t.get('other_pairs', 0)}  clean cases with a reported pair: "
          f"{t.get('false_in_clean_cases', 0)}/{t.get('cases_without_expected', 0)}  "
          f"evidence refutations (one claim): {t.get('evidence_refutations', 0)}  label texts not found: {t.get('unmatched_text', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
