"""Batch mode: validate many investigations at once, for QA teams scoring agent runs, on this machine or on a
Ray cluster.

    citeproof batch CASES_DIR [--jobs N] [--engine local|ray] [--address auto|ray://head:10001]
                    [--case-timeout SECONDS] [--resume FILE] [--cache-dir DIR]
                    [--threshold T] [--config FILE] [--no-cache]

**Cases.** Each case is a sub-folder of ``CASES_DIR`` (hidden folders are skipped) holding findings
(``findings.md``, ``findings.txt``, ``findings.json``, ``claims.json`` or ``findings.markdown``) and evidence: a
``bundle/`` or ``evidence/`` folder, else an archive named ``bundle`` or ``evidence`` (``bundle.zip``,
``bundle.tar.gz``, ... any archive ``citeproof check --evidence`` reads, unpacked for the run under the archive
limits of the config); without either, the case folder itself is the bundle.

**Output.** One JSON line per case on stdout, sorted by case name, the same whatever the engine and the order in
which the cases finish. Each line is written as soon as its case and every case before it are done, so an
interrupted run leaves a sorted prefix that ``--resume`` picks up. The summary table goes to stderr at the end.
A case that cannot be run gets ``"status": "ERROR"`` and a one-line ``"error"`` (no findings file, an unusable
bundle or findings file, a timeout, a lost worker); it never stops the others. While it works, a terminal on
stderr shows how many cases are done (``batch: 2 of 3 cases (66%)``, see :mod:`citeproof.terminal`); piped,
only the table (after the note of ``--resume``).

**Engines.** ``--engine local`` (the default) runs the cases in worker processes on this machine (``--jobs``,
default: the number of cores; with one job, in the command's own process). A worker process that dies makes
its cases ERRORs (the local engine does not retry).

``--engine ray`` (``pip install 'citeproof[ray]'``) runs each case as one Ray task calling the same
:func:`run_case` (and so :func:`citeproof.validate`), one CPU each. ``--address`` names the cluster: ``auto``
(the one ``ray start`` started on this machine), ``HOST:6379`` (a head node's GCS, from a node of the cluster)
or ``ray://head:10001`` (Ray Client, e.g. a KubeRay head service); without it, ``$RAY_ADDRESS`` (KubeRay sets
it for a RayJob's entrypoint), else a local Ray instance for this run alone, stopped at the end (a cluster
``ray start`` left running here is not used unless ``--address auto`` asks for it). ``--jobs N`` keeps at
most N cases in flight; without it every case is submitted at once and the cluster schedules them (an
autoscaler sees the whole demand). A task whose worker dies is retried once
(``max_retries=1``); a case whose worker is lost twice is an ERROR; a case is counted once however many
times it ran. Workers open the cases by the absolute paths the command sees, so ``CASES_DIR`` must be on a
file system every node mounts at the same path, and every node needs citeproof installed (the version of the
command: a worker with another version answers ERROR for its cases). The options (``--threshold``, the config
file) are read once, by the command, and sent to the workers; a file they name (``causal_rules``) must be
readable on the workers too.

**Timeouts.** ``--case-timeout SECONDS``: a case still running SECONDS after it started (time spent waiting for
a worker does not count) is stopped by an alarm signal in its worker and reported as ``"<case>: timed out after
SECONDS s (--case-timeout)"``; the worker goes on with the next case. The alarm interrupts Python code and
interruptible waits, not a read stuck in the kernel (a hung network file system).

**Caches.** The on-disk index and claim caches (:mod:`citeproof.evidence.cache`, :mod:`citeproof.claim_cache`) are
per worker node: a worker uses ``$CITEPROOF_CACHE_DIR``, else ``$XDG_CACHE_HOME/citeproof``, else
``~/.cache/citeproof`` of its own environment. With Ray that is the environment ``ray start`` ran in on its
node, so ``CITEPROOF_CACHE_DIR=/local/ssd/citeproof ray start ...`` chooses it per node; a local Ray instance
started by this command inherits the command's environment. ``--cache-dir DIR`` sets ``CITEPROOF_CACHE_DIR`` to
DIR (made absolute) for every worker instead (Ray: through the tasks' ``runtime_env`` ``env_vars``), the same
path on each node. Entries are sealed under a per-user key of each node (``$CITEPROOF_CACHE_KEY``, else
``~/.config/citeproof/cache.key``): a cache directory shared by several nodes needs the same key file on each,
or what one node writes is a miss on the others (a node-local directory is the better choice). ``--no-cache``
turns both caches off.

**Resume.** ``--resume FILE`` takes the output of an earlier run over the same ``CASES_DIR`` (JSON lines). Cases
with a PASSED or BLOCKED line in FILE are not run again: their lines are copied as they were. Cases with an
ERROR line, or with none, are run. The output is the whole batch again, sorted by case, so it can replace FILE
(write it elsewhere first: the command refuses to write into FILE itself). Lines for cases that are no longer in
``CASES_DIR`` are left out. A line that is not a JSON object with a ``"case"`` name and a ``"status"`` (PASSED,
BLOCKED or ERROR; PASSED and BLOCKED lines also need the numbers of the summary table), or a case given twice,
is a one-line error naming FILE and the line; only an incomplete last line (no newline at the end of FILE, as
an interrupted run may leave) is ignored, and its case is run again. A note on stderr says how many cases were
kept. The earlier lines are trusted as they are: a resumed run does not check that they were made with the
same options or evidence.

Exit code: 0 when every case PASSED, 1 when any was BLOCKED, 2 when any case could not be run or the batch could
not start (a bad option, a bad resume file, ``--engine ray`` without Ray installed).
"""

from __future__ import annotations

import functools
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from queue import SimpleQueue
from types import FrameType
from typing import Any, Protocol

import orjson

from .config import Options, make_options
from .errors import CiteproofError
from .evidence.archive import ARCHIVE_SUFFIXES

FINDINGS_NAMES = ("findings.md", "findings.txt", "findings.json", "claims.json", "findings.markdown")
BUNDLE_NAMES = ("bundle", "evidence")
STATUSES = ("PASSED", "BLOCKED", "ERROR")
ENGINES = ("local", "ray")
MAX_LOCAL_JOBS = 64
RAY_EXTRA = "--engine ray needs Ray: pip install 'citeproof[ray]'"
# the fields summary_table reads from a PASSED or BLOCKED line, and their types
RESULT_FIELDS: dict[str, tuple[type, ...]] = {"verification_rate": (int, float), "total_claims": (int,),
                                              "verified_claims": (int,), "contradictions": (int,)}

Result = dict[str, Any]


@dataclass(frozen=True)
class Case:
    name: str
    findings: Path | None
    bundle: Path


def discover(cases_dir: Path) -> list[Case]:
    """The cases of ``cases_dir``, sorted by name, with absolute paths (what a worker on another node opens)."""
    root = Path(os.path.abspath(cases_dir))
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        findings = next((folder / n for n in FINDINGS_NAMES if (folder / n).is_file()), None)
        packed = (folder / f"{n}{s}" for n in BUNDLE_NAMES for s in ARCHIVE_SUFFIXES)
        bundle = next((folder / n for n in BUNDLE_NAMES if (folder / n).is_dir()), None) \
            or next((p for p in packed if p.is_file()), folder)
        out.append(Case(folder.name, findings, bundle))
    return out


class CaseTimeout(BaseException):
    """Raised by the alarm of ``--case-timeout`` in the worker's main thread. A BaseException, so that no handler
    inside the engine takes it for a bad input; the bundle's context manager still unwinds (unpacked archives go)."""


@contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    if seconds is None:
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise CaseTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@functools.cache
def _warm() -> None:
    """Load the checking code and the lemmatizer's tables once per worker, before a case's clock starts: both are
    imported on first use (see :mod:`citeproof.engine`), and ``--case-timeout`` measures the case's own work."""
    from .checking import run  # noqa: F401
    from .support.anchor import lemmas

    lemmas("started")


def error_result(case: Case, message: str) -> Result:
    return {"case": case.name, "status": "ERROR", "error": " ".join(message.split())}


def run_case(case: Case, opts: Options, timeout: float | None = None) -> Result:
    """The JSON line of one case: what every engine's worker runs."""
    from .engine import validate

    if case.findings is None:
        return error_result(case, f"{case.name}: no findings file ({', '.join(FINDINGS_NAMES)})")
    if timeout is not None and threading.current_thread() is not threading.main_thread():
        return error_result(case, f"{case.name}: --case-timeout needs the case to run in its worker's main thread")
    if timeout is not None:
        _warm()
    try:
        with _deadline(timeout):
            report = validate(case.findings, case.bundle, options=opts)
    except CaseTimeout:
        return error_result(case, f"{case.name}: timed out after {timeout:g} s (--case-timeout)")
    except CiteproofError as exc:
        return error_result(case, str(exc))
    except Exception as exc:  # one broken case must not stop the batch
        return error_result(case, f"internal error: {type(exc).__name__}: {exc}")
    return {
        "case": case.name,
        "status": report.status.value,
        "verification_rate": report.verification_rate,
        "total_claims": report.total_claims,
        "verified_claims": report.verified_claims,
        "contradictions": report.contradictions,
        "uncited_claims": report.uncited_claims,
        "message": report.message,
    }


class Engine(Protocol):
    """Where cases run. ``window``: at most this many cases in flight (None: submit them all)."""

    window: int | None

    def submit(self, case: Case, opts: Options, timeout: float | None) -> Future[Result]: ...

    def lost(self, case: Case, exc: BaseException) -> str:
        """The one-line error of a case whose future failed (the worker died, the task was cancelled, ...)."""
        ...

    def close(self) -> None: ...


@contextmanager
def _environ(env: Mapping[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _set_environ(env: Mapping[str, str]) -> None:
    os.environ.update(env)


class InProcess:
    """One case at a time in this process (``--jobs 1``)."""

    window: int | None = 1

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)

    def submit(self, case: Case, opts: Options, timeout: float | None) -> Future[Result]:
        future: Future[Result] = Future()
        with _environ(self.env):
            future.set_result(run_case(case, opts, timeout))
        return future

    def lost(self, case: Case, exc: BaseException) -> str:
        return f"{case.name}: internal error: {type(exc).__name__}: {exc}"

    def close(self) -> None:
        return None


class LocalPool:
    """Worker processes on this machine."""

    window: int | None = None

    def __init__(self, workers: int, env: Mapping[str, str]) -> None:
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=_set_environ, initargs=(dict(env),))

    def submit(self, case: Case, opts: Options, timeout: float | None) -> Future[Result]:
        return self.pool.submit(run_case, case, opts, timeout)

    def lost(self, case: Case, exc: BaseException) -> str:
        return f"{case.name}: the worker process was lost ({type(exc).__name__}: {exc})"

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def make_engine(engine: str, jobs: int | None, todo: int, *, address: str | None = None, timeout: float | None = None,
                env: Mapping[str, str] | None = None) -> Engine:
    """The engine named ``engine`` for ``todo`` cases. ``--engine ray`` without Ray is a ConfigError naming the extra."""
    if engine == "ray":
        from .batch_ray import RayEngine

        return RayEngine(address, jobs, env or {})
    if engine != "local":
        raise CiteproofError(f"unknown engine '{engine}' (one of: {', '.join(ENGINES)})")
    if address is not None:
        raise CiteproofError("--address needs --engine ray")
    workers = max(1, jobs or os.cpu_count() or 1)
    if workers > MAX_LOCAL_JOBS:
        raise CiteproofError(f"--jobs {workers}: --engine local runs at most {MAX_LOCAL_JOBS} worker processes")
    in_main = threading.current_thread() is threading.main_thread()
    if (workers == 1 or todo <= 1) and (timeout is None or in_main):  # the alarm needs the main thread
        return InProcess(env or {})
    return LocalPool(min(workers, max(todo, 1)), env or {})


class _Ordered:
    """Collects results by position and hands them on in that order, each as soon as all before it are in."""

    def __init__(self, total: int, emit: Callable[[Result], None]) -> None:
        self.results: list[Result | None] = [None] * total
        self.next = 0
        self.emit = emit

    def has(self, n: int) -> bool:
        return self.results[n] is not None

    def put(self, n: int, result: Result) -> bool:
        """False when position ``n`` already has its result (nothing is counted twice)."""
        if self.has(n):
            return False
        self.results[n] = result
        while self.next < len(self.results):
            ready = self.results[self.next]
            if ready is None:
                break
            self.emit(ready)
            self.next += 1
        return True


def run_batch(cases: Path | Sequence[Case], jobs: int | None = None, on_done: Callable[[int, int], None] | None = None, *,
              engine: str | Engine = "local", address: str | None = None, case_timeout: float | None = None,
              cache_dir: Path | None = None, previous: Mapping[str, Result] | None = None,
              emit: Callable[[Result], None] | None = None, **options: Any) -> list[Result]:
    """Results of every case (a ``CASES_DIR`` or the list :func:`discover` made), in case-name order.

    ``on_done(done, total)`` counts the cases run (not those kept from ``previous``): called before the first and as
    each finishes. ``emit(result)`` receives the results in case order, each as soon as every case before it is done.
    ``previous``: results by case name from an earlier run (:func:`read_resume`); PASSED and BLOCKED ones are kept
    instead of running the case again. ``options`` are those of :func:`citeproof.validate` (``config`` names the
    options file), read once here."""
    found = discover(cases) if isinstance(cases, Path) else list(cases)
    opts = make_options(options.pop("config", None), **options)
    if case_timeout is not None and not hasattr(signal, "setitimer"):
        raise CiteproofError("--case-timeout needs alarm signals (SIGALRM), which this platform does not have")
    kept = kept_results(found, previous or {})
    todo = [(n, case) for n, case in enumerate(found) if n not in kept]
    env = {} if cache_dir is None else {"CITEPROOF_CACHE_DIR": os.path.abspath(cache_dir)}
    runner = engine if not isinstance(engine, str) else make_engine(engine, jobs, len(todo), address=address,
                                                                       timeout=case_timeout, env=env)
    ordered = _Ordered(len(found), emit or (lambda result: None))
    for n, result in kept.items():
        ordered.put(n, result)
    done = (lambda n, total: None) if on_done is None else on_done
    done(0, len(todo))
    try:
        _drive(runner, todo, opts, case_timeout, ordered, lambda finished: done(finished, len(todo)))
    finally:
        runner.close()
    return [r for r in ordered.results if r is not None]


def _drive(engine: Engine, todo: list[tuple[int, Case]], opts: Options, timeout: float | None, ordered: _Ordered,
           progress: Callable[[int], None]) -> None:
    """Submit the cases (at most ``engine.window`` in flight) and record each result as its future completes."""
    queue = deque(todo)
    finished: SimpleQueue[Future[Result]] = SimpleQueue()
    running: dict[Future[Result], tuple[int, Case]] = {}
    count = 0
    while queue or running:
        while queue and (engine.window is None or len(running) < engine.window):
            n, case = queue.popleft()
            future = engine.submit(case, opts, timeout)
            running[future] = (n, case)
            future.add_done_callback(finished.put)
        future = finished.get()
        n, case = running.pop(future)
        try:
            result = future.result()
        except Exception as exc:  # the worker, not the case: the case's own errors are results
            result = error_result(case, engine.lost(case, exc))
        if not ordered.has(n):  # a case is counted once
            count += 1
            progress(count)
            ordered.put(n, result)


def kept_results(cases: Sequence[Case], previous: Mapping[str, Result]) -> dict[int, Result]:
    """Position -> earlier result, for the cases whose earlier result is PASSED or BLOCKED."""
    return {n: previous[c.name] for n, c in enumerate(cases) if c.name in previous and previous[c.name]["status"] != "ERROR"}


@dataclass(frozen=True)
class Resumed:
    """An earlier run's results by case; ``incomplete`` is the number of an ignored unfinished last line, or 0."""

    results: dict[str, Result]
    incomplete: int = 0

    def note(self, path: Path, cases: Sequence[Case]) -> str:
        names = {c.name for c in cases}
        kept = len(kept_results(cases, self.results))
        again = sum(1 for name, r in self.results.items() if name in names and r["status"] == "ERROR")
        gone = sorted(set(self.results) - names)
        parts = [f"resume: {kept} of {len(cases)} cases kept from {path}"]
        if again:
            parts.append(f"{again} earlier ERROR{'s' if again != 1 else ''} run again")
        if self.incomplete:
            parts.append(f"incomplete line {self.incomplete} ignored")
        if gone:
            parts.append(f"{len(gone)} case{'s' if len(gone) != 1 else ''} no longer in the cases folder left out")
        return "; ".join(parts) + f"; {len(cases) - kept} to run"


def read_resume(path: Path) -> Resumed:
    """The results of an earlier run's output; a malformed line is a CiteproofError naming the file and the line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CiteproofError(f"cannot read the resume file ({exc.strerror or exc})", path) from None
    lines = data.split(b"\n")
    last = len(lines) if data and not data.endswith(b"\n") else 0  # a line the earlier run did not finish
    results: dict[str, Result] = {}
    first: dict[str, int] = {}
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            if number == last:
                return Resumed(results, number)
            raise CiteproofError(f"not a JSON line of citeproof batch ({exc.args[0].split(':')[0]})", f"{path}:{number}") from None
        problem = _line_problem(line)
        if problem is not None:
            raise CiteproofError(problem, f"{path}:{number}")
        name = line["case"]
        if name in first:
            raise CiteproofError(f"case '{name}' appears twice (first on line {first[name]})", f"{path}:{number}")
        first[name] = number
        results[name] = line
    return Resumed(results)


def _line_problem(line: Any) -> str | None:
    if not isinstance(line, dict):
        return f"not a JSON object but a {type(line).__name__}"
    if not isinstance(line.get("case"), str) or not line["case"]:
        return "no \"case\" name"
    if line.get("status") not in STATUSES:
        return f"\"status\" is not one of {', '.join(STATUSES)}"
    if line["status"] != "ERROR":
        for field, types in RESULT_FIELDS.items():
            value = line.get(field)
            if not isinstance(value, types) or isinstance(value, bool):
                return f"a {line['status']} line needs \"{field}\" ({'a number' if float in types else 'an integer'})"
    return None


def exit_code(results: list[Result]) -> int:
    statuses = {r["status"] for r in results}
    if "ERROR" in statuses:
        return 2
    return 1 if "BLOCKED" in statuses else 0


def summary_table(results: list[Result]) -> str:
    """A plain-text table: case, verdict, rate, verified/total, contradictions."""
    width = max([len(r["case"]) for r in results] + [4])
    lines = [f"{'case':<{width}}  verdict  rate   verified  contradictions"]
    for r in results:
        if r["status"] == "ERROR":
            lines.append(f"{r['case']:<{width}}  ERROR    {r['error']}")
            continue
        lines.append(
            f"{r['case']:<{width}}  {r['status']:<7}  {r['verification_rate']:.3f}  "
            f"{r['verified_claims']:>3}/{r['total_claims']:<4}  {r['contradictions']:>14}"
        )
    passed = sum(1 for r in results if r["status"] == "PASSED")
    lines.append(f"{passed} of {len(results)} cases passed")
    return "\n".join(lines)
