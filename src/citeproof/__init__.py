"""citeproof: check every claim of an agent's incident findings against the real evidence.

    >>> import citeproof
    >>> report = citeproof.validate(Path("findings.md"), "bundle/")
    >>> report.passed, report.verification_rate
    (False, 0.667)
    >>> report.to_dict()["claims"][0]["status"]
    'verified'

Everything is deterministic and offline; the same input gives the same output.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .config import Options, make_options
from .engine import check_claims, validate
from .errors import BundleError, CiteproofError, ConfigError, FindingsError
from .evidence import Bundle
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

__all__ = [
    "Bundle",
    "BundleError",
    "CitationRef",
    "CitationResult",
    "CiteproofError",
    "Claim",
    "ClaimResult",
    "ClaimStatus",
    "ConfigError",
    "ContradictionFinding",
    "FindingsError",
    "Options",
    "Report",
    "Verdict",
    "__version__",
    "check_claims",
    "make_options",
    "validate",
]
