"""Growth of the findings reader and the gate on hostile findings: must be linear, never a hang.

    python benchmarks/adversarial.py [--max-kb 1024]

For each pathological input (one huge line of one character class, runs of punctuation, thousands of
citations, deep nesting, ...) it times a full validation at sizes doubling up to ``--max-kb`` and
prints the time per size and the growth ratio between the last two sizes: about 2 means linear,
about 4 quadratic. The exit code is 1 when a ratio exceeds 3.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import citeproof

# claims that each trigger a contradiction rule between two claims (issue 14), many of them disagreeing with each other
_PAIR_CLAIMS = (
    "- The first OOM kill on worker-a{h} was at 10:{m:02d}:{s:02d} UTC (app.log:1).",
    "- OOM kills only started at 10:{m:02d}:{s:02d} UTC (app.log:2).",
    "- Connections were rejected because db-{h} exceeded the hard limit of connections (app.log:3).",
    "- Max_used_connections on db-{h} peaked at {u} (app.log:1).",
    "- The orders retry policy allows at most 3 attempts and gave up after 5 retries (app.log:2).",
    "- In total {u} clients were dropped with query_wait_timeout (app.log:3).",
    "- db-{h} (10.20.1.{u}) is the primary and runs MySQL 8.0.{u} (app.log:1).",
    "- The container memory limit is {u}Mi, with a 256Mi limit per container (app.log:2).",
    "- The restart came after the failover of db-{h} (app.log:3).",
    "- No OOM kills were logged after 10:{m:02d}:{s:02d} (app.log:1).",
)

INPUTS: dict[str, Callable[[int], str]] = {
    "letters": lambda n: "a" * n,
    "digits": lambda n: "1" * n,
    "dotted": lambda n: "a." * (n // 2),
    "hyphens": lambda n: "a-" * (n // 2),
    "digit-letter": lambda n: "1a" * (n // 2),
    "open-parens": lambda n: "(" * n,
    "quotes": lambda n: "'" * n,
    "backticks": lambda n: "`" * n,
    "colons": lambda n: "a:" * (n // 2),
    "sentences-in-parens": lambda n: "(" + "a. B" * (n // 4),
    "abbreviations": lambda n: "e.g. " * (n // 5),
    "path-no-colon": lambda n: "dir/" * (n // 4) + "file.log",
    "entries-list": lambda n: "HAR entries " + ", ".join(str(i) for i in range(n // 6)),
    "citations": lambda n: " ".join(f"app.log:{i % 3 + 1}" for i in range(n // 10)),
    "nested-bullets": lambda n: "\n".join("  " * (i % 200) + "- x" for i in range(n // 200)),
    "claims": lambda n: "\n".join(f"- The server logged HTTP 429 at 10:30:{i % 60:02d} (app.log:{i % 3 + 1})." for i in range(n // 60)),
    "mixed": lambda n: ("HTTP 429 'q' `x` a.b.c 10:30:45 P-1 JIRA:AB-1 (app.log:2) e.g. " * (n // 64)),
    "pair-rules": lambda n: "\n".join(_PAIR_CLAIMS[i % len(_PAIR_CLAIMS)].format(h=i % 9, m=i // 60 % 60, s=i % 60, u=i % 250)
                                      for i in range(n // 80)),
}


def time_one(text: str, bundle: Path) -> float:
    start = time.perf_counter()
    citeproof.validate(text, bundle, use_cache=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-kb", type=int, default=1024)
    args = parser.parse_args()
    sizes = []
    size = 64 * 1024
    while size <= args.max_kb * 1024:
        sizes.append(size)
        size *= 2
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp)
        (bundle / "app.log").write_text("2026-01-15 10:30:45 ERROR HTTP 429\n" * 3, encoding="utf-8")
        print(f"{'input':<22}" + "".join(f"{s // 1024:>9} KB" for s in sizes) + "   growth")
        for name, make in INPUTS.items():
            times = [time_one(make(s), bundle) for s in sizes]
            ratio = times[-1] / max(times[-2], 1e-3) if len(times) > 1 else 1.0
            worst = max(worst, ratio if times[-1] > 0.05 else 0.0)
            print(f"{name:<22}" + "".join(f"{t:>10.3f}s" for t in times) + f"   x{ratio:.2f}")
    print(f"worst growth when the size doubles: x{worst:.2f} (2 is linear, 4 quadratic)")
    return 1 if worst > 3 else 0


if __name__ == "__main__":
    sys.exit(main())
