"""Score contradictions between claims against a labelled contradiction corpus.

    python -m tests.score_contradictions DIR [-v]

Each case folder of DIR is a labelled case (see tests/cases/README.md) whose ``expected.json`` also lists
``"contradictions": [{"a", "b", "rule", "why"}]`` (pairs of claims, by the beginning of their text, that
contradict each other) and ``"near_misses": [{"a", "b", "why"}]`` (pairs that look contradictory but are not).
A finding counts for a pair when it names both claims (it may name a third, the claim stating a bound) and, for
an expected pair, has the labelled rule. Printed: expected pairs found (overall and per rule), pairs found under
another rule, near misses reported, other findings between claims (false contradictions, also per 100 correct
claims), and per-claim evidence refutations apart.
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
            multi = [f for f in report.contradiction_findings if len(set(f.claims)) >= 2]
            tally["evidence_refutations"] += sum(1 for f in report.contradiction_findings if len(set(f.claims)) == 1)
            tally["correct_claims"] += sum(1 for c in data.get("claims", []) if c.get("status") == "verified")
            used: set[int] = set()

            def covering(a: str | None, b: str | None, rule: str | None = None,
                         multi: list[citeproof.ContradictionFinding] = multi) -> list[int]:
                if not a or not b:
                    return []
                return [i for i, f in enumerate(multi) if {a, b} <= set(f.claims) and rule in (None, f.rule)]

            for item in data.get("contradictions", []):
                a, b = _claim_id(report, item["a"]), _claim_id(report, item["b"])
                hits = covering(a, b, item["rule"])
                used.update(covering(a, b))
                tally["expected"] += 1
                tally[f"expected_{item['rule']}"] += 1
                tally["found"] += bool(hits)
                tally[f"found_{item['rule']}"] += bool(hits)
                tally["found_other_rule"] += not hits and bool(covering(a, b))
                tally["unmatched_text"] += not (a and b)
                if verbose and not hits:
                    print(f"  MISSED {case.name} [{item['rule']}] {item['a'][:60]!r} / {item['b'][:60]!r}")
            for item in data.get("near_misses", []):
                a, b = _claim_id(report, item["a"]), _claim_id(report, item["b"])
                hits = [i for i in covering(a, b) if i not in used]
                tally["near_misses"] += 1
                tally["near_misses_flagged"] += bool(hits)
                used.update(hits)
                if verbose and hits:
                    print(f"  NEAR MISS FLAGGED {case.name} {item['a'][:60]!r} / {item['b'][:60]!r}: {multi[hits[0]].detail[:120]}")
            others = [f for i, f in enumerate(multi) if i not in used]
            tally["other_pairs"] += len(others)
            for finding in others:
                if verbose:
                    print(f"  OTHER PAIR {case.name} {sorted(set(finding.claims))} [{finding.rule}] {finding.detail[:140]}")
            pairs = bool(others) or any(i in used for i in range(len(multi)))
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
    false = t.get("near_misses_flagged", 0) + t.get("other_pairs", 0)
    print(f"found under another rule: {t.get('found_other_rule', 0)}  false contradictions per 100 correct claims: "
          f"{100 * false / max(1, t.get('correct_claims', 0)):.1f} ({false}/{t.get('correct_claims', 0)})")
    print(f"near misses reported as contradictions: {t.get('near_misses_flagged', 0)}/{t.get('near_misses', 0)}  "
          f"other pairs reported: {t.get('other_pairs', 0)}  clean cases with a reported pair: "
          f"{t.get('false_in_clean_cases', 0)}/{t.get('cases_without_expected', 0)}  "
          f"evidence refutations (one claim): {t.get('evidence_refutations', 0)}  label texts not found: {t.get('unmatched_text', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
