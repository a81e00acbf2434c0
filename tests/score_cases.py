"""Print the claim-level accuracy of citeproof on a labelled case corpus.

    python -m tests.score_cases [-v] [--cases DIR]

DIR defaults to tests/cases; a fresh batch written elsewhere in the same layout is scored the same way.
Three figures, all over labelled sentences (plus claims the reader found that carry no label, each
counted as wrong):

* accuracy: the status (or non-claim) is exactly the label;
* verified/not: the tool verifies exactly the claims labelled ``verified`` (the direction that decides
  PASSED/BLOCKED); with bad claims caught and good claims passed shown apart;
* trivial baseline: the same figure for the rule "verified iff every citation resolves".

Document verdicts (PASSED/BLOCKED) are compared with the label's ``verdict`` where given.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

from .case_corpus import CASES, CORPUS, case_dirs, needs_corpus, run_case, verdict

RESOLVED = ("verified", "unsupported", "contradicted")


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    root = Path(argv[argv.index("--cases") + 1]) if "--cases" in argv else CASES
    total = right = binary = trivial = 0
    good = good_passed = bad = bad_caught = 0
    verdicts = verdicts_right = 0
    confusion: Counter[tuple[str, str]] = Counter()
    cases = case_dirs(root)
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            if needs_corpus(case) and not CORPUS.is_dir():
                print(f"skip {case.name}: corpus absent")
                continue
            report, outcomes = run_case(case, Path(tmp) / case.name)
            expected_verdict = verdict(case)
            if expected_verdict:
                verdicts += 1
                verdicts_right += report.status.value == expected_verdict
                if verbose and report.status.value != expected_verdict:
                    print(f"  {case.name}: verdict expected {expected_verdict}, got {report.status.value}")
            for o in outcomes:
                total += 1
                right += o.correct
                expected = o.label.status if o.label else "unlabelled"
                confusion[(expected, o.actual)] += 1
                binary += (expected == "verified") == (o.actual == "verified")
                trivial += (expected == "verified") == (o.actual in RESOLVED)
                if expected == "verified":
                    good += 1
                    good_passed += o.actual == "verified"
                elif expected in ("unsupported", "contradicted", "missing_evidence", "invalid_citation", "uncited"):
                    bad += 1
                    bad_caught += o.actual != "verified"
                if verbose and not o.correct:
                    print(f"  {case.name}: expected {expected}, got {o.actual}: {o.claim[:110]}")
                    print(f"      why expected: {o.label.why if o.label else '-'}")
                    print(f"      tool said:    {o.reason[:160]}")
    n = max(total, 1)
    print(f"cases: {len(cases)}  labelled sentences: {total}  correct: {right}  accuracy: {right / n:.3f}")
    print(f"verified/not accuracy: {binary / n:.3f}  (trivial 'verified iff citations resolve': {trivial / n:.3f})")
    print(f"bad claims caught: {bad_caught}/{bad}  good claims verified: {good_passed}/{good}  "
          f"document verdicts right: {verdicts_right}/{verdicts}")
    wrong = {k: v for k, v in confusion.items() if k[0] != k[1]}
    for (expected, actual), count in sorted(wrong.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  expected {expected:<22} got {actual:<22} x{count}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
