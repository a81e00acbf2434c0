"""citeproof: check every claim of an agent's incident findings against the real evidence.

    >>> import citeproof
    >>> report = citeproof.validate(Path("findings.md"), "bundle/")
    >>> report.passed, report.verification_rate
    (False, 0.667)
    >>> report.to_dict()["claims"][0]["status"]
    'verified'

Everything is deterministic and offline; the same input gives the same output.

What the README and the integration guide use is importable from here: :func:`validate` (findings
text, a findings file, or a list of :class:`Claim` values, e.g. from :func:`claim_of`), :class:`Report`, the exceptions,
:class:`ClaimValidatorHook`, the pipeline-mode :func:`check_sources` (and the module
:mod:`citeproof.sources`), and the LangGraph-style :func:`validate_node` and :func:`make_router`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:  # the names below are imported on first use: ``import citeproof`` stays fast for the CLI and the hook
    from . import sources
    from .config import Options, make_options
    from .engine import check_claims, validate
    from .errors import BundleError, CiteproofError, ConfigError, FindingsError
    from .evidence import Bundle
    from .extract import claim_of
    from .integrations.langgraph_node import ValidationState, make_router, validate_node
    from .integrations.validator_hook import ClaimValidatorHook
    from .model import (
        CitationRef,
        CitationResult,
        Claim,
        ClaimResult,
        ClaimStatus,
        ContradictionFinding,
        Report,
        Verdict,
    )
    from .sources import SourcesReport, check_sources

_WHERE = {
    "sources": ".sources",
    "Options": ".config", "make_options": ".config",
    "check_claims": ".engine", "validate": ".engine",
    "BundleError": ".errors", "CiteproofError": ".errors", "ConfigError": ".errors", "FindingsError": ".errors",
    "Bundle": ".evidence",
    "claim_of": ".extract",
    "ValidationState": ".integrations.langgraph_node", "make_router": ".integrations.langgraph_node",
    "validate_node": ".integrations.langgraph_node",
    "ClaimValidatorHook": ".integrations.validator_hook",
    "CitationRef": ".model", "CitationResult": ".model", "Claim": ".model", "ClaimResult": ".model",
    "ClaimStatus": ".model", "ContradictionFinding": ".model", "Report": ".model", "Verdict": ".model",
    "SourcesReport": ".sources", "check_sources": ".sources",
}


def __getattr__(name: str) -> Any:
    """The public names, each imported from its module when first asked for (PEP 562)."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'citeproof' has no attribute {name!r}")
    module = import_module(where, __name__)
    value = module if name == "sources" else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


__all__ = [
    "Bundle",
    "BundleError",
    "CitationRef",
    "CitationResult",
    "CiteproofError",
    "Claim",
    "ClaimResult",
    "ClaimStatus",
    "ClaimValidatorHook",
    "ConfigError",
    "ContradictionFinding",
    "FindingsError",
    "Options",
    "Report",
    "SourcesReport",
    "ValidationState",
    "Verdict",
    "__version__",
    "check_claims",
    "check_sources",
    "claim_of",
    "make_options",
    "make_router",
    "sources",
    "validate",
    "validate_node",
]
