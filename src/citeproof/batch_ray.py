"""``citeproof batch --engine ray``: each case is one Ray task running :func:`citeproof.batch.run_case`.

Ray is an extra (``pip install 'citeproof[ray]'``) and only this module imports it, when the engine is made;
``import citeproof`` and the command line never do. The user documentation is in :mod:`citeproof.batch`.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

from ._version import __version__
from .batch import RAY_EXTRA, Case, Result, error_result, run_case
from .config import Options
from .errors import CiteproofError, ConfigError

Task = Callable[[Case, Options, "float | None", str], Result]


def case_task(case: Case, opts: Options, timeout: float | None, version: str) -> Result:
    """What a Ray worker runs for one case: the case's JSON line, as the local engine makes it."""
    if version != __version__:
        return error_result(case, f"{case.name}: the Ray worker runs citeproof {__version__} and this command {version}: "
                                  "install the same version on every node")
    return run_case(case, opts, timeout)


class RayEngine:
    """Cases as Ray tasks (one CPU each, ``max_retries=1``) on the cluster at ``address`` (None: ``$RAY_ADDRESS``, else a
    local Ray instance started for the run and stopped by :meth:`close`).

    ``window`` (``--jobs``) caps the cases in flight; ``env`` goes to the workers as ``runtime_env`` ``env_vars``;
    ``task`` is the function the workers run (``case_task``; tests give one that kills its worker). A Ray that is
    already initialised in this process (by a program calling :func:`citeproof.batch.run_batch`) is used as it is."""

    def __init__(self, address: str | None, jobs: int | None, env: Mapping[str, str], task: Task = case_task) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError(RAY_EXTRA) from None
        self.ray = ray
        self.window = jobs
        self.started = False
        if not ray.is_initialized():
            # unset: $RAY_ADDRESS (Ray reads it), else a Ray of our own; never a cluster `ray start` once left here
            target = address or (None if os.environ.get("RAY_ADDRESS") else "local")
            try:
                with warnings.catch_warnings():  # Ray Client warns before it raises: the error below says it in one line
                    warnings.simplefilter("ignore")
                    ray.init(address=target, logging_level=logging.ERROR, log_to_driver=False)
            except Exception as exc:  # no cluster at the address, a version mismatch, ...
                where = f" at {address}" if address else ""
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise CiteproofError(f"cannot start or reach the Ray cluster{where}: {first}") from None
            self.started = True
        remote = ray.remote(max_retries=1, num_cpus=1)(task)
        self.remote = remote.options(runtime_env={"env_vars": dict(env)}) if env else remote
        self._opts: tuple[Options, Any] | None = None
        self._running: dict[Future[Result], Any] = {}

    def submit(self, case: Case, opts: Options, timeout: float | None) -> Future[Result]:
        if self._opts is None or self._opts[0] is not opts:
            self._opts = (opts, self.ray.put(opts))  # sent to the object store once, not with every task
        ref = self.remote.remote(case, self._opts[1], timeout, __version__)
        future: Future[Result] = ref.future()
        self._running[future] = ref
        future.add_done_callback(lambda done: self._running.pop(done, None))
        return future

    def lost(self, case: Case, exc: BaseException) -> str:
        errors = self.ray.exceptions
        name = type(exc).__name__
        if isinstance(exc, errors.RayTaskError):  # the task raised before run_case could answer (e.g. an import error)
            cause = getattr(exc, "cause", None) or exc
            text = str(cause).strip().splitlines()
            return f"{case.name}: the Ray task failed ({type(cause).__name__}: {text[0] if text else ''})"
        if isinstance(exc, errors.TaskCancelledError):
            return f"{case.name}: the Ray task was cancelled"
        if isinstance(exc, errors.RuntimeEnvSetupError):
            return f"{case.name}: Ray could not set up the workers' runtime_env ({name})"
        if isinstance(exc, errors.RayError):
            return f"{case.name}: the Ray worker running it was lost ({name}); a lost worker is retried once"
        return f"{case.name}: {name}: {exc}"

    def close(self) -> None:
        for ref in list(self._running.values()):  # interrupted: do not leave the cluster working for nobody
            self.ray.cancel(ref)
        self._running.clear()
        if self.started:
            self.ray.shutdown()


__all__ = ["RayEngine", "case_task"]
