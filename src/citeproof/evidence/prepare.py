"""Index, ahead of the checks and on both cores, every file a run will read.

The line index of each cited log (and, when timestamps are cited, its timestamp blocks) and the
entry index of each HAR capture are built concurrently — numpy releases the interpreter lock, so a
2 GB log and a 300 MB capture are indexed side by side. With ``progress`` a transient progress line
counts the bytes indexed on stderr (:class:`citeproof.terminal.Meter`; the command line asks for it
when stderr is a terminal: ``check`` for at least :data:`PROGRESS_MIN_BYTES`, ``index`` always). Each
4 MB block of a line or HAR index counts as it is read; a file whose index comes from the cache
counts at once.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from .access import UnreadableEvidence
from .bundle import Bundle, EvidenceFile, FileKind

PROGRESS_MIN_BYTES = 64 * 1024 * 1024


def prepare(bundle: Bundle, files: Iterable[EvidenceFile], times: bool, tz: dt.tzinfo, progress: bool = False,
            min_bytes: int = PROGRESS_MIN_BYTES) -> None:
    """Build (or load from the cache) the indexes of ``files``; ``times`` adds timestamp indexes."""
    from .har import load_har
    from .timestamps import sample_times, time_blocks

    jobs: list[tuple[EvidenceFile, Callable[[], object]]] = []
    for file in sorted(set(files), key=lambda f: (-f.size, f.rel)):
        if file.kind is FileKind.HAR:
            jobs.append((file, lambda f=file: load_har(bundle, f)))  # type: ignore[misc]
        elif file.kind is FileKind.LOG and file.size:
            def index_log(f: EvidenceFile = file) -> object:
                try:
                    with bundle.pinned(f):
                        lf = bundle.lines(f)
                        count = lf.line_count
                        if times:
                            time_blocks(lf, tz, sample_times(lf, tz))
                except UnreadableEvidence:
                    return 0  # the citations into it say why; the run warns
                return count
            jobs.append((file, index_log))
    if not jobs:
        return
    workers = max(1, min(2, os.cpu_count() or 1, len(jobs)))
    total = sum(f.size for f, _ in jobs)
    if progress and total >= min_bytes:
        _with_progress(bundle, jobs, workers, total)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(job) for _, job in jobs]:
            future.result()


def _with_progress(bundle: Bundle, jobs: list[tuple[EvidenceFile, Callable[[], object]]], workers: int, total: int) -> None:
    from ..terminal import Meter

    meter = Meter(sys.stderr, "indexing evidence", total)

    def metered(file: EvidenceFile, job: Callable[[], object]) -> object:
        counted = 0

        def count(n: int) -> None:
            nonlocal counted
            step = min(n, file.size - counted)
            counted += step
            meter.advance(step)

        try:
            with bundle.lines(file).metered(count):
                return job()
        except UnreadableEvidence:
            return job()  # the job itself records why
        finally:
            meter.advance(file.size - counted)

    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for future in [pool.submit(metered, f, job) for f, job in jobs]:
                future.result()
    finally:
        meter.close()
