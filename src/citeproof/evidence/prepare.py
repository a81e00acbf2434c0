"""Index, ahead of the checks and on both cores, every file a run will read.

The line index of each cited log (and, when timestamps are cited, its timestamp blocks) and the
entry index of each HAR capture are built concurrently — numpy releases the interpreter lock, so a
2 GB log and a 300 MB capture are indexed side by side. With ``progress`` a transient progress bar
is drawn on stderr (used by the command line when stderr is a terminal and the files are large).
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


def prepare(bundle: Bundle, files: Iterable[EvidenceFile], times: bool, tz: dt.tzinfo, progress: bool = False) -> None:
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
    if progress and total >= PROGRESS_MIN_BYTES:
        _with_progress(jobs, workers, total)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(job) for _, job in jobs]:
            future.result()


def _with_progress(jobs: list[tuple[EvidenceFile, Callable[[], object]]], workers: int, total: int) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("indexing evidence"), BarColumn(), DownloadColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar, ThreadPoolExecutor(max_workers=workers) as pool:
        task = bar.add_task("index", total=total)
        futures = [(f, pool.submit(job)) for f, job in jobs]
        for file, future in futures:
            future.result()
            bar.advance(task, file.size)
