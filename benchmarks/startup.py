"""Startup benchmark (issue 15): the fixed cost of every run, against a bare interpreter and ``cat``.

    python benchmarks/startup.py [--runs 15]

Runs, alternating so that the machine's load falls on all of them alike, and reports medians:
  * ``cat`` of the example's findings (the cost of starting any process) and ``python -c pass``;
  * ``python -c "import citeproof.cli"`` (goal: at most 0.15 s);
  * ``citeproof check`` of the shipped example, warm (a second run on unchanged inputs; goal: at most
    0.3 s) and with ``--no-cache`` (every claim checked).
It checks that the warm report is the same as the cold one, and prints each goal with whether it holds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rate-limit"


def _seconds(cmd: list[str], env: dict[str, str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, env=env, cwd=EXAMPLE, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[:400]}")
    return elapsed, proc.stdout


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    check = [sys.executable, "-m", "citeproof", "check", "findings.md", "-e", "bundle", "-f", "json"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CITEPROOF_CACHE_DIR": cache}
        _, cold_out = _seconds(check, env)  # fills the caches
        commands = {
            "cat findings.md": ["cat", "findings.md"],
            "python -c pass": [sys.executable, "-c", "pass"],
            "import citeproof.cli": [sys.executable, "-c", "import citeproof.cli"],
            "check, warm": check,
            "check, --no-cache": [*check, "--no-cache"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        same = True
        for _ in range(args.runs):
            for name, cmd in commands.items():
                elapsed, out = _seconds(cmd, env)
                times[name].append(elapsed)
                if name == "check, warm":
                    same = same and out == cold_out
    median = {name: statistics.median(values) for name, values in times.items()}
    cat = median["cat findings.md"]
    print(f"startup, {args.runs} alternating runs each, medians (example: {EXAMPLE.name})")
    for name, value in median.items():
        print(f"  {name:22s} {value:6.3f} s   {value / cat:6.1f}x cat")
    print(f"  warm report identical to the cold one: {same}")
    goals = [("import citeproof.cli <= 0.15 s", median["import citeproof.cli"] <= 0.15),
             ("warm check of the example <= 0.3 s", median["check, warm"] <= 0.3)]
    for goal, held in goals:
        print(f"  goal {goal}: {'holds' if held else 'MISSED'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
