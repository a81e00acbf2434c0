"""The ``citeproof`` command line: a thin shell over :func:`citeproof.validate`.

    citeproof check FINDINGS --evidence PATH [--format text|json|markdown|sarif|html] [--output FILE]
                       [--threshold 0.9] [--config FILE] [--har-index-base 1] [--assume-tz UTC] [--no-cache]
                       [--max-chars 65000] [--full-report WHERE] [--color/--no-color]
    citeproof sources --claims CLAIMS.json --evidence EVIDENCE.json [--rules FILE] [--format json|text] [--threshold T]
    citeproof batch CASES_DIR [--jobs N] [--engine local|ray] [--address auto|ray://head:10001]
                    [--case-timeout SECONDS] [--resume FILE] [--cache-dir DIR]
    citeproof index PATH
    citeproof hook [--evidence PATH]          # Claude Code hook: always exits 0, answers in JSON
    citeproof init [DIR]                      # the validate skill + hook configuration in DIR/.claude
    citeproof mcp --root PATH [--root PATH]   # MCP server over stdio (pip install 'citeproof[mcp]')

FINDINGS ``-`` reads the findings from stdin (``cat findings.md | citeproof check - -e bundle``).
Without ``--config``, options come from the nearest ``citeproof.yaml`` / ``citeproof.toml`` /
``pyproject.toml`` with ``[tool.citeproof]`` from the current directory upward (``--help`` names it;
see :mod:`citeproof.config`). Colour and progress follow the terminal conventions of
:mod:`citeproof.terminal` (``NO_COLOR``, ``FORCE_COLOR``; progress only on a terminal).

Exit codes: 0 PASSED, 1 BLOCKED, 2 usage or input error (one line on stderr, naming the file),
3 internal error (a bug: one line on stderr; ``--debug`` shows the traceback). ``batch`` exits 0 when
every case passed, 1 when any was blocked, 2 when any could not be run.
"""

from __future__ import annotations

import signal
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ._version import __version__
from .commands import ConfigCommand, ConfigOption, LazyGroup, config_or_discovered
from .errors import CiteproofError
from .reporters import REPORTER_NAMES
from .terminal import Meter, is_terminal, wants_color

EXIT_PASSED, EXIT_BLOCKED, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


# each of these is imported only when it runs: ``citeproof check`` never loads the MCP server, ``hook`` not ``sources``
_LAZY = {
    "sources": ".sources.cli:sources_command",
    "hook": ".integrations.cli:hook_command",
    "init": ".integrations.cli:init_command",
    "mcp": ".integrations.cli:mcp_command",
}


@click.group(cls=LazyGroup, lazy=_LAZY, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="citeproof")
def cli() -> None:
    """Check an AI agent's incident findings against the real evidence: PASSED or BLOCKED."""


@cli.command(cls=ConfigCommand)
@click.argument("findings", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--evidence", "-e", required=True, type=click.Path(path_type=Path),
              help="Evidence bundle: a directory or a single file.")
@click.option("--format", "-f", "fmt", type=click.Choice(sorted(REPORTER_NAMES)), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here instead of stdout.")
@click.option("--threshold", type=float, help="Minimum verification rate for PASSED [default: 0.9].")
@click.option("--config", cls=ConfigOption, type=click.Path(dir_okay=False, path_type=Path), help="Options file (YAML or TOML).")
@click.option("--har-index-base", type=click.IntRange(0, 1), help="1 (default): entry-1 is the first HAR entry; 0: entry-0 is.")
@click.option("--assume-tz", help="Zone of log timestamps that carry none, e.g. UTC or +02:00 [default: UTC].")
@click.option("--max-unverified", type=int, help="Unverified observations allowed before BLOCKED [default: 3].")
@click.option("--color/--no-color", default=None,
              help="Colour the text report [default: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it].")
@click.option("--no-cache", "no_cache", is_flag=True, help="Do not read or write the on-disk index cache.")
@click.option("--context", type=click.Path(dir_okay=False, path_type=Path),
              help="inv_context.json whose verification block records the result (atomically, other fields kept) "
                   "[config: context].")
@click.option("--max-chars", type=click.IntRange(min=0),
              help="Markdown: cut the report to this many characters (a GitHub comment holds 65,536); 0: no limit "
                   "[default: 65000; config: max_chars].")
@click.option("--full-report", metavar="WHERE", help="Markdown: where the full report is (e.g. a CI artifact URL), "
              "named when the report is cut.")
@click.option("--jira-url", help="Look up tickets missing from the bundle in this live JIRA "
              "(token from JIRA_API_TOKEN / JIRA_PERSONAL_TOKEN, never printed).")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
def check(findings: Path, evidence: Path, fmt: str, output: Path | None, config: Path | None,
          color: bool | None, debug: bool, no_cache: bool, context: Path | None, full_report: str | None,
          **options: Any) -> int:
    """Validate FINDINGS (Markdown/text or claims JSON; - for stdin) against the evidence bundle."""
    from .config import make_options
    from .engine import validate
    from .extract import read_stdin_findings
    from .integrations.common import as_findings_text
    from .reporters import REPORTERS
    from .reporters.base import ReportSettings

    opts = make_options(config_or_discovered(config), use_cache=False if no_cache else None, **options)
    source: str | Path = as_findings_text(read_stdin_findings(sys.stdin.buffer)) if str(findings) == "-" else findings
    report = validate(source, evidence, options=opts, progress=is_terminal(sys.stderr))
    use_color = wants_color(color, is_terminal(sys.stdout)) if output is None else bool(color)  # a file: only with --color
    settings = ReportSettings(color=use_color, max_chars=opts.max_chars, full_report=full_report)
    reporter = REPORTERS[fmt].configured(settings)
    if output is None:
        reporter.write(report, sys.stdout)
    else:
        try:
            with open(output, "w", encoding="utf-8") as fh:
                reporter.write(report, fh)
        except OSError as exc:
            raise CiteproofError(f"cannot write report ({exc.strerror or exc})", output) from None
    named = context if context is not None else (Path(opts.context) if opts.context else None)
    if named is not None:
        from .integrations.cli import record_context

        record_context(named, report, evidence)
    return EXIT_PASSED if report.passed else EXIT_BLOCKED


@cli.command(cls=ConfigCommand)
@click.argument("cases_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--jobs", "-j", type=click.IntRange(min=1),
              help="local: worker processes (at most 64) [default: number of cores]; ray: at most this many cases in flight "
                   "[default: all submitted, the cluster schedules them].")
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local: processes on this machine; ray: one Ray task per case (pip install 'citeproof[ray]').")
@click.option("--address", metavar="ADDRESS", help="ray: the cluster, auto (started by `ray start` here) or ray://head:10001 "
              "[default: $RAY_ADDRESS, else a local Ray for this run].")
@click.option("--case-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Stop a case that runs longer than this and report it as ERROR [default: no limit].")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE",
              help="Output of an earlier run (JSON lines): keep its PASSED and BLOCKED cases, run the rest; "
                   "the output is the whole batch again.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Index cache directory of every worker (CITEPROOF_CACHE_DIR; ray: the same path on every node) "
                   "[default: each worker's own $CITEPROOF_CACHE_DIR, else ~/.cache/citeproof].")
@click.option("--threshold", type=float, help="Minimum verification rate for PASSED [default: 0.9].")
@click.option("--config", cls=ConfigOption, type=click.Path(dir_okay=False, path_type=Path), help="Options file (YAML or TOML).")
@click.option("--no-cache", "no_cache", is_flag=True, help="Do not read or write the on-disk index cache.")
def batch(cases_dir: Path, jobs: int | None, engine: str, address: str | None, case_timeout: float | None,
          resume: Path | None, cache_dir: Path | None, threshold: float | None, config: Path | None, no_cache: bool) -> int:
    """Validate every case folder in CASES_DIR: one JSON line per case (sorted by case), a summary table on stderr.

    See the docstring of citeproof/batch.py for the case layout, the Ray engine, caches and --resume."""
    import orjson

    from .batch import discover, exit_code, read_resume, run_batch, summary_table

    cases = discover(cases_dir)
    previous = None
    if resume is not None:
        _refuse_output_into(resume)
        resumed = read_resume(resume)
        previous = resumed.results
        print(resumed.note(resume, cases), file=sys.stderr)
    meter: Meter | None = None

    def done(n: int, total: int) -> None:
        nonlocal meter
        if meter is None:
            meter = Meter(sys.stderr, "batch", total, "cases")
        meter.advance(n - meter.done)

    shared = is_terminal(sys.stdout)  # stdout and the progress line on one screen: the line steps aside for the result

    def emit(result: dict[str, Any]) -> None:
        if meter is not None and shared:
            meter.close()
        sys.stdout.write(orjson.dumps(result).decode() + "\n")
        sys.stdout.flush()  # a line per finished case: an interrupted run leaves what --resume needs
        if meter is not None and shared:
            meter.advance(0)  # drawn again below the line

    options = {"threshold": threshold, "config": config_or_discovered(config), "use_cache": False if no_cache else None}
    try:
        results = run_batch(cases, jobs, done if is_terminal(sys.stderr) else None, engine=engine, address=address,
                            case_timeout=case_timeout, cache_dir=cache_dir, previous=previous, emit=emit,
                            **{k: v for k, v in options.items() if v is not None})
    finally:
        if meter is not None:
            meter.close()
    print(summary_table(results), file=sys.stderr)
    return exit_code(results)


def _refuse_output_into(resume: Path) -> None:
    """``--resume out.jsonl >> out.jsonl`` would mix the two runs (and ``>`` has already emptied it): refuse."""
    import os

    try:
        out = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # a stream without a file (captured, closed)
        return
    here = resume.stat()
    if (out.st_dev, out.st_ino) == (here.st_dev, here.st_ino):
        raise CiteproofError("the output goes into the resume file itself: write it to another file", resume)


@cli.command(cls=ConfigCommand)
@click.argument("evidence", type=click.Path(exists=True, path_type=Path))
@click.option("--assume-tz", help="Zone of log timestamps that carry none [default: UTC].")
def index(evidence: Path, assume_tz: str | None) -> int:
    """Build the on-disk indexes of a bundle ahead of time (line offsets, HAR entries, timestamps)."""
    import time

    from .config import make_options
    from .evidence import Bundle, FileKind
    from .evidence.prepare import prepare

    opts = make_options(config_or_discovered(None), assume_tz=assume_tz)
    with Bundle(evidence) as bundle:
        if bundle.index_cache.root is None:
            raise CiteproofError("the cache directory lies inside the bundle; refusing to write there", evidence)
        files = bundle.of_kind(FileKind.LOG, FileKind.HAR)
        start = time.perf_counter()
        prepare(bundle, files, True, opts.tzinfo, progress=is_terminal(sys.stderr), min_bytes=0)
        for file in sorted(files, key=lambda f: f.rel):
            if file.kind is FileKind.HAR:
                from .evidence.har import load_har

                doc = load_har(bundle, file)
                what = doc.error or f"{len(doc)} entries"
            else:
                what = f"{bundle.lines(file).line_count} lines"
            print(f"{file.rel}: {what} ({file.size / 1e6:.1f} MB)")
        print(f"indexed {len(files)} files in {time.perf_counter() - start:.2f} s into {bundle.index_cache.root}")
    return EXIT_PASSED


def _terminated(*_: object) -> None:
    """SIGTERM: unwind (removing unpacked archives); if a worker thread is stuck in a read, leave after 5 s anyway."""
    import os
    import threading

    timer = threading.Timer(5.0, os._exit, args=(128 + signal.SIGTERM,))
    timer.daemon = True
    timer.start()
    sys.exit(128 + signal.SIGTERM)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: returns the exit code (the console script passes it to ``sys.exit``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    if argv is None:  # a terminated run unwinds normally, so unpacked archives are removed
        signal.signal(signal.SIGTERM, _terminated)
    try:
        result = cli.main(args=args, prog_name="citeproof", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.UsageError as exc:
        _error(exc.format_message().splitlines()[0] if exc.format_message() else str(exc))
        return EXIT_INPUT
    except click.ClickException as exc:
        _error(exc.format_message())
        return EXIT_INPUT
    except click.Abort:
        _error("aborted")
        return EXIT_INPUT
    except CiteproofError as exc:
        _error(str(exc))
        return EXIT_INPUT
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except Exception as exc:  # a bug: say so in one line, never a bare traceback
        if debug:
            traceback.print_exc()
        _error(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug for the traceback)")
        return EXIT_INTERNAL
    return int(result) if isinstance(result, int) else EXIT_PASSED


def _error(message: str) -> None:
    print(f"citeproof: error: {' '.join(message.split())}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
