"""The validation engine: one function every entry point calls.

:func:`validate` reads the findings, opens the bundle, checks every claim's citations with the
format registry, runs the support check over the union of each claim's cited evidence, and hands the
statuses to :mod:`citeproof.decide`. :func:`check_claims` is the same per-claim step as a generator.

A run whose inputs are exactly those of an earlier run (the same findings text, the same bundle files,
options, day and build of citeproof: see :mod:`citeproof.claim_cache`) returns that run's report from the
on-disk cache without loading the checking code (:mod:`citeproof.checking`); ``--no-cache`` or
``use_cache=False`` turns this off.

A claim's status, in order of precedence:

``unverified_observation``  disclosed as an assumption/hypothesis (kept out of the rate)
``uncited``                 no citation at all
``invalid_citation``        a citation is malformed or in no known format
``missing_evidence``        a citation points at nothing in the bundle
``unsupported``             the cited evidence does not show what the claim says
``verified``                otherwise
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Options, make_options
from .errors import FindingsError
from .evidence import Bundle
from .evidence.archive import Limits
from .findings_io import load_findings
from .model import Claim, ClaimResult, Report

if TYPE_CHECKING:
    from .citations import CitationFormat, Scope
    from .support.checks import Check


def validate(
    findings: str | Path | Sequence[Claim],
    evidence: str | Path | Bundle,
    *,
    config: str | Path | None = None,
    registry: Mapping[str, CitationFormat] | None = None,
    checks: Mapping[str, Check] | None = None,
    progress: bool = False,
    **options: Any,
) -> Report:
    """Validate ``findings`` against the ``evidence`` bundle.

    ``findings`` is a :class:`~pathlib.Path` to a findings file, the findings text itself, or a list of
    :class:`~citeproof.model.Claim` values (checked as they are; see :func:`citeproof.extract.claim_of`).
    A one-line ``str`` without spaces that looks like a file name (``findings.md``, ``out/claims.json``)
    is read as that file, and is a :class:`FindingsError` when there is no such file; a file whose name
    ends in ``.json`` must hold valid JSON. ``evidence`` is a bundle directory, a single evidence file,
    or an open :class:`Bundle`. Keyword options are those of :class:`citeproof.config.Options`;
    ``config`` names an options file. ``registry`` (citation formats) and ``checks`` (support checks)
    are the explicit registries to use (default: the shipped ones). ``progress`` draws a progress bar
    on stderr while large files are indexed.
    """
    opts = options.pop("options", None) or make_options(config, **options)
    given = None if isinstance(findings, str | Path) else list(findings)
    text, source = ("", "findings") if given is not None else _findings_text(findings)  # type: ignore[arg-type]
    if isinstance(evidence, Bundle):
        return _checked(text, source, evidence, opts, registry, checks, progress, given)
    limits = Limits(opts.archive_max_bytes, opts.archive_max_members, opts.archive_max_ratio)
    with Bundle(evidence, use_cache=opts.use_cache, limits=limits, allow_hardlinks=opts.allow_hardlinks) as bundle:
        return _checked(text, source, bundle, opts, registry, checks, progress, given)


def _checked(text: str, source: str, bundle: Bundle, opts: Options, registry: Mapping[str, CitationFormat] | None,
             checks: Mapping[str, Check] | None, progress: bool, given: list[Claim] | None) -> Report:
    """The report of a run: from the report cache when these very inputs were checked before, else checked now."""
    cache = None
    if registry is None and checks is None and given is None and not opts.jira_url:  # live JIRA: per run only
        from .claim_cache import ReportCache

        cache = ReportCache(bundle, opts, text, source)
        report = cache.get()
        if report is not None:
            return report
    from .checking import Registries, run

    regs = Registries.of(registry, checks)
    report = run(text, source, bundle, opts, regs, progress, given, cache.run_key if cache is not None else None)
    if cache is not None:
        cache.put(report)
    return report


def check_claims(
    claims: list[Claim], bundle: Bundle, opts: Options, registry: Mapping[str, CitationFormat] | None = None,
    checks: Mapping[str, Check] | None = None,
) -> Iterator[tuple[ClaimResult, list[str]]]:
    """Per-claim results (with the warnings raised while checking), in reading order, before contradiction rules."""
    from .checking import Registries, check_each

    return check_each(claims, bundle, opts, Registries.of(registry, checks))


def scope_of(bundle: Bundle, opts: Options) -> Scope:
    """What citation parsing needs to know of the bundle: the JIRA projects whose bare keys are tickets."""
    from .checking import scope_of as scope

    return scope(bundle, opts)


_FILE_NAME = re.compile(r"\S+\.[A-Za-z][A-Za-z0-9]{0,9}")


def _findings_text(findings: str | Path) -> tuple[str, str]:
    if isinstance(findings, Path):
        return load_findings(findings), str(findings)
    if "\n" not in findings and len(findings) < 4096:
        if _is_file(findings):
            return load_findings(findings), findings
        if _FILE_NAME.fullmatch(findings.strip()):  # "findngs.md": a misspelt path, not one-word findings
            raise FindingsError("findings file not found", findings.strip())
    return findings, "findings"


def _is_file(text: str) -> bool:
    """Whether one line of text names an existing file (a long one-line JSON document names none)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name longer than the file system allows, or a NUL byte
        return False


__all__ = ["check_claims", "scope_of", "validate"]
