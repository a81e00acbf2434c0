"""Benchmark: ``citeproof batch`` on the local process pool against the Ray engine, on the same generated cases.

    python benchmarks/batch_ray.py [--cases 200] [--lines 3000] [--jobs 2] [--address ray://head:10001] [--dir /shared/cases]

It writes ``--cases`` generated cases (a log of ``--lines`` lines, default 3,000, an env.log and four claims
each; one case in five is BLOCKED), then, in this process, runs the batch with ``--engine local`` and with
``--engine ray``, checks that both give the same JSON lines, and prints the wall times, their ratio, how long
Ray took to start or connect, and Ray's overhead per case. Each engine runs the batch twice. Ray's first batch
includes starting the worker processes (each imports citeproof and loads the rule data), the second reuses
them; the local engine's first batch is the command as it runs (fresh worker processes load the rule data),
the second forks its workers from this process after it has validated one case, so they start warm. The
overhead per case is (Ray's second batch - the local second batch) / cases, and that times the number of
workers (what a case costs a worker in scheduling and transfer). The index cache is off in every run (``use_cache=False``), so every case
does the same work each time.

Without ``--address`` Ray starts a local instance on this machine (``--jobs`` CPUs, default 2, the local pool
gets the same number of processes). To measure a real cluster, generate the cases on a file system every node
mounts at the same path (``--dir /shared/cases``), install the same citeproof on every node, and give the
cluster: ``--address ray://head:10001`` (Ray Client; on KubeRay, port-forward or expose the head service's
client port 10001) or ``--address auto`` on a node of the cluster; ``--jobs`` then only sizes the local pool.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(SRC))


def make_cases(root: Path, count: int, lines: int = 3000) -> list[str]:
    """``count`` case folders under ``root`` (``case-0000``, ...): findings.md and bundle/{app.log,env.log}. Every fifth
    case cites a line off by one, so it is BLOCKED; the others PASS. Returns the case names."""
    names = []
    for n in range(count):
        name = f"case-{n:04d}"
        bundle = root / name / "bundle"
        bundle.mkdir(parents=True)
        host, version = f"api-{n % 4}", f"2.{n % 13}.{n % 7}"
        log = [f"2026-01-15T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO api-{i % 4} GET /v1/items/{i * 7 + n} status=200 "
               f"latency_ms={20 + (i + n) % 37}" for i in range(1, lines + 1)]
        error_at, pool_at = 1 + n % (lines // 3), lines // 3 + 1 + n % (lines // 2)
        log[error_at - 1] = f"2026-01-15T10:08:20Z ERROR {host} upstream billing returned HTTP 503 Service Unavailable after 3 retries"
        log[pool_at - 1] = f"2026-01-15T10:20:00Z WARN {host} connection pool exhausted (max_connections=50)"
        (bundle / "app.log").write_text("\n".join(log) + "\n", encoding="utf-8")
        (bundle / "env.log").write_text(f"version={version}\nhostname={host}\n", encoding="utf-8")
        cited = pool_at + 1 if n % 5 == 4 else pool_at
        (root / name / "findings.md").write_text(
            "## Findings\n"
            f"- The upstream billing service returned 'HTTP 503 Service Unavailable' to {host} (app.log:{error_at}).\n"
            f"- The connection pool of {host} was exhausted (app.log:{cited}).\n"
            f"- The service runs version {version} (env:version={version}).\n"
            f"- The host is {host} (env:hostname).\n", encoding="utf-8")
        names.append(name)
    return names


def timed_batch(cases: Path, **kwargs: Any) -> tuple[float, list[dict[str, Any]]]:
    """(wall seconds, results) of one batch over ``cases``, the index cache off."""
    from citeproof.batch import run_batch

    start = time.perf_counter()
    results = run_batch(cases, use_cache=False, **kwargs)
    return time.perf_counter() - start, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2, help="local processes, and the CPUs of a local Ray")
    parser.add_argument("--address", help="a Ray cluster (auto, ray://head:10001); default: a local Ray instance")
    parser.add_argument("--dir", type=Path, help="where to write the cases (a shared file system for a real cluster)")
    parser.add_argument("--lines", type=int, default=3000, help="lines of each case's log (more: heavier cases)")
    args = parser.parse_args()
    try:
        import ray
    except ImportError:
        sys.exit("this benchmark needs Ray: pip install 'citeproof[ray]'")
    import citeproof
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        cases = Path(tmp)
        start = time.perf_counter()
        names = make_cases(cases, args.cases, args.lines)
        print(f"{args.cases} cases written to {cases} in {time.perf_counter() - start:.1f} s")
        first, local_results = timed_batch(cases, jobs=args.jobs)
        citeproof.validate(cases / names[0] / "findings.md", cases / names[0] / "bundle", use_cache=False)
        local, again = timed_batch(cases, jobs=args.jobs)  # forked from a process that has loaded the rule data
        assert again == local_results
        print(f"local ({args.jobs} processes): {first:.2f} s as the command runs it; {local:.2f} s with the workers "
              f"forked warm ({1000 * local / args.cases:.1f} ms per case)")

        start = time.perf_counter()
        if args.address:
            ray.init(address=args.address, logging_level="error", log_to_driver=False)
        else:
            ray.init(address="local", num_cpus=args.jobs, logging_level="error", log_to_driver=False)
        startup = time.perf_counter() - start
        workers = int(ray.cluster_resources().get("CPU", 1))
        try:
            cold, cold_results = timed_batch(cases, engine="ray")  # the workers start and import citeproof
            warm, warm_results = timed_batch(cases, engine="ray")  # the same workers again
        finally:
            ray.shutdown()
        if not cold_results == warm_results == local_results:
            sys.exit("the Ray engine's JSON lines differ from the local engine's")
        statuses = {s: sum(1 for r in local_results if r["status"] == s) for s in ("PASSED", "BLOCKED", "ERROR")}
        where = args.address or "a local instance"
        print(f"ray ({workers} CPUs, {where}): start or connect {startup:.2f} s; first batch {cold:.2f} s (workers start); "
              f"second batch {warm:.2f} s")
        print(f"same JSON lines from both engines: {statuses}")
        print(f"ratio ray / local: {warm / local:.2f} (both warm), {cold / first:.2f} (first batches), "
              f"{(startup + cold) / first:.2f} (first batches, with Ray's start)")
        overhead = (warm - local) / args.cases
        print(f"ray overhead per case (warm): {1000 * overhead:+.1f} ms of wall time; x {workers} workers = "
              f"{1000 * overhead * workers:+.1f} ms of a worker's time per case"
              + ("" if workers == args.jobs else f" (the local pool had {args.jobs} processes: not the same width)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
