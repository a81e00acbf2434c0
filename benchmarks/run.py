"""Benchmark: citeproof against one grep pass and the naive per-citation method, in one go.

    python benchmarks/generate.py            # once: ~2.3 GB log + HAR (minified and pretty) + findings
    python benchmarks/run.py [--data benchmarks/data] [--naive-sample 10]

For each HAR variant it runs, on the same machine and page cache:
  * ``grep -c 429`` over the log and the HAR (one sequential pass: the baseline);
  * ``citeproof check`` cold (empty index cache) and warm (second run, cache filled);
  * the seed document's naive method (``test -f``, ``wc -l``, ``sed -n 'Np' | grep``, ``jq`` per
    citation) on a sample of citations of each kind, extrapolated to all of them.
It checks every citeproof answer against expected.json and prints the times, the ratios to the
grep pass, and the peak private memory (RssAnon, which leaves out the file pages a memory map shares
with the page cache) of the citeproof process.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """(wall seconds, peak RssAnon in KiB, stdout) of a command, polling /proc every 2 ms."""
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out_file, stderr=err_file, env=env)  # files: a full pipe would block it
        peak = 0
        status = Path(f"/proc/{proc.pid}/status")
        while proc.poll() is None:
            try:
                m = re.search(r"RssAnon:\s+(\d+)", status.read_text())
                if m:
                    peak = max(peak, int(m.group(1)))
            except OSError:
                pass
            time.sleep(0.002)
        elapsed = time.perf_counter() - start
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode()[:500]}")
    return elapsed, peak, out.decode()


def naive(case: Path, findings: list[str], sample: int) -> tuple[float, int]:
    """Seconds for the naive method on ``sample`` citations of each kind, extrapolated to all."""
    bundle = case / "bundle"
    kinds: dict[str, list[str]] = {"line": [], "har": [], "time": []}
    for line in findings:
        if "server.log:" in line:
            kinds["line"].append(line)
        elif "capture.har:" in line:
            kinds["har"].append(line)
        elif "timestamp:" in line:
            kinds["time"].append(line)
    total = 0.0
    for kind, items in kinds.items():
        spent = 0.0
        for line in items[:sample]:
            if kind == "line":
                n = re.search(r"server\.log:(\d+)", line).group(1)  # type: ignore[union-attr]
                quote = re.search(r"'([^']+)'", line).group(1)  # type: ignore[union-attr]
                f = shlex.quote(str(bundle / "server.log"))
                cmd = f"test -f {f} && wc -l {f} && sed -n '{n}p' {f} | grep -F {shlex.quote(quote)}"
            elif kind == "har":
                n = int(re.search(r"entry-(\d+)", line).group(1))  # type: ignore[union-attr]
                f = shlex.quote(str(bundle / "capture.har"))
                cmd = f"jq . {f} > /dev/null && jq '.log.entries[{n - 1}].response.status' {f}"
            else:
                t = re.search(r"T(\d{2}:\d{2}:\d{2})", line).group(1)  # type: ignore[union-attr]
                cmd = f"grep -c {shlex.quote(t)} {shlex.quote(str(bundle / 'server.log'))}"
            start = time.perf_counter()
            subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            spent += time.perf_counter() - start
        done = min(sample, len(items))
        total += spent / max(done, 1) * len(items)
    return total, sum(min(sample, len(v)) for v in kinds.values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=str(Path(__file__).parent / "data"))
    parser.add_argument("--naive-sample", type=int, default=10)
    args = parser.parse_args()
    data = Path(args.data)
    for variant in ("minified", "pretty"):
        case = data / variant
        bundle = case / "bundle"
        sizes = {p.name: p.stat().st_size for p in bundle.iterdir()}
        grep_cmd = ["grep", "-c", "429", str(bundle / "server.log"), str(bundle / "capture.har")]
        grep_s = min(run_timed(grep_cmd)[0] for _ in range(2))  # the first pass also warms the page cache
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "CITEPROOF_CACHE_DIR": cache}
            cmd = [sys.executable, "-m", "citeproof.cli", "check", str(case / "findings.md"), "--evidence", str(bundle), "-f", "json"]
            cold_s, cold_mem, out = run_timed(cmd, env)
            warm_s, warm_mem, out_warm = run_timed(cmd, env)
        report = json.loads(out)
        expected = json.loads((case / "expected.json").read_text())
        actual = {c["id"]: c["status"] for c in report["claims"]}
        wrong = {k: (v, actual.get(k)) for k, v in expected.items() if actual.get(k) != v}
        same = json.loads(out_warm) == report
        startup_s = min(run_timed([sys.executable, "-c", "import citeproof.cli"])[0] for _ in range(3))
        findings = (case / "findings.md").read_text().splitlines()
        naive_s, sampled = naive(case, [f for f in findings if f.startswith("- ")], args.naive_sample)
        print(f"\n== {variant} HAR ==  log {sizes['server.log'] / 1e9:.2f} GB, HAR {sizes['capture.har'] / 1e6:.0f} MB, "
              f"{len(expected)} citations")
        shown = f"; wrong: {dict(list(wrong.items())[:5])}" if wrong else ""
        print(f"answers: {len(expected) - len(wrong)}/{len(expected)} right{shown}; warm report identical to cold: {same}")
        print(f"grep -c pass         {grep_s:8.2f} s   1.00x")
        print(f"citeproof cold    {cold_s:8.2f} s   {cold_s / grep_s:5.2f}x grep   peak RssAnon {cold_mem / 1024:6.0f} MB")
        print(f"citeproof warm    {warm_s:8.2f} s   {warm_s / grep_s:5.2f}x grep   peak RssAnon {warm_mem / 1024:6.0f} MB")
        print(f"python + imports     {startup_s:8.2f} s   (python -c 'import citeproof.cli': the floor of any run)")
        print(f"naive per-citation   {naive_s:8.2f} s   {naive_s / grep_s:5.2f}x grep   (extrapolated from {sampled} sampled citations)")
        print(f"naive / cold         {naive_s / cold_s:8.1f}x")


if __name__ == "__main__":
    main()
