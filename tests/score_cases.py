"""Print the claim-level accuracy of citeproof on the labelled case corpus.

    python -m tests.score_cases [-v]

Accuracy = labelled sentences whose status (or non-claim) is right / all labelled sentences,
plus claims the reader found that carry no label (each counted as wrong).
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

from .case_corpus import CORPUS, case_dirs, needs_corpus, run_case


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    total = right = 0
    confusion: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for case in case_dirs():
            if needs_corpus(case) and not CORPUS.is_dir():
                print(f"skip {case.name}: corpus absent")
                continue
            _, outcomes = run_case(case, Path(tmp) / case.name)
            for o in outcomes:
                total += 1
                right += o.correct
                expected = o.label.status if o.label else "unlabelled"
                confusion[(expected, o.actual)] += 1
                if verbose and not o.correct:
                    print(f"  {case.name}: expected {expected}, got {o.actual}: {o.claim[:110]}")
                    print(f"      why expected: {o.label.why if o.label else '-'}")
                    print(f"      tool said:    {o.reason[:160]}")
    print(f"cases: {len(case_dirs())}  labelled sentences: {total}  correct: {right}  accuracy: {right / max(total, 1):.3f}")
    wrong = {k: v for k, v in confusion.items() if k[0] != k[1]}
    for (expected, actual), n in sorted(wrong.items(), key=lambda kv: -kv[1]):
        print(f"  expected {expected:<22} got {actual:<22} x{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
