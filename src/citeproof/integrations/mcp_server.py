"""``citeproof mcp``: an MCP server (stdio) an agent can call to check its own findings.

Needs the extra: ``pip install 'citeproof[mcp]'`` (the official ``mcp`` SDK; 2.x ``MCPServer``,
or 1.x ``FastMCP``, checked with 1.30). Only evidence under an allow-listed root can be read::

    citeproof mcp --root ./evidence [--root /srv/bundles ...] [--config citeproof.yaml]
    claude mcp add citeproof -- citeproof mcp --root ./evidence

Tools (each returns structured JSON described by its output schema):

``validate_findings(findings, evidence, findings_path=None, threshold=None)``
    Validate findings text (Markdown or claims JSON), or the findings file ``findings_path``, against
    the ``evidence`` bundle: the full report (:class:`~citeproof.model.Report`).
``check_citation(citation, evidence, claim="")``
    Check one citation, e.g. ``demisto.log:4521``; with ``claim`` also whether the evidence supports
    it. Returns the claim's result (:class:`~citeproof.model.ClaimResult`); ``citations[0]`` has
    ``format_valid``, ``citation_exists``, the excerpt and a suggested citation.
``list_evidence(evidence)``
    The bundle's files with their kind (log, har, config, env, patterns, jira, context, ...) and size.

Every tool is marked read-only (``readOnlyHint``; not destructive, idempotent, closed world: it reads
only the allow-listed evidence), every parameter has a description, and the server reports its
name and version (``citeproof`` and the package version) when a client connects: LLM callers choose
and fill in tools from these texts. ``check_citation`` checks the one claim it is given directly
(:func:`citeproof.extract.claim_of` and :func:`citeproof.validate` with that claim).

Paths are taken relative to the first root that holds them; an absolute path must lie under a root.
Symlinks are resolved first, so a link out of a root is refused. Errors (a path outside the roots, a
missing bundle, malformed findings) come back as tool errors with a one-line reason.
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field

from .._version import __version__
from ..config import make_options
from ..engine import scope_of, validate
from ..errors import CiteproofError, ConfigError
from ..evidence import Bundle
from ..extract import claim_of
from ..model import ClaimResult, Report
from .common import as_findings_text, inside

T = TypeVar("T")
MAX_LISTED = 5_000
INSTRUCTIONS = ("Check incident findings against an evidence bundle before concluding: every factual claim needs a "
                "citation (file:line, har:entry, timestamp, pattern, jira, config, env) that the evidence supports.")
_EVIDENCE = ("The evidence bundle: a directory or archive under an allowed --root, relative to a root (e.g. 'bundle') "
             "or absolute.")
Findings = Annotated[str, Field(description="The findings to check, as Markdown/plain text (one claim a sentence or bullet, "
                                            "each with its citation) or as claims JSON; may be empty when findings_path is given.")]
FindingsPath = Annotated[str | None, Field(description="A findings file under an allowed root to read instead of `findings` "
                                                        "(e.g. 'findings.md'); omit to check the text in `findings`.")]
Threshold = Annotated[float | None, Field(ge=0.0, le=1.0, description="Minimum share of verified claims for PASSED, 0 to 1 "
                                                                       "(default 0.9, or the server's config file).")]
Citation = Annotated[str, Field(description="One citation to check, in one of the seven formats, e.g. 'demisto.log:4521', "
                                            "'capture.har:entry-145', 'env:version=8.9.0', 'config:integration.timeout_ms', "
                                            "'pattern:P-127', 'JIRA:SF-03896040', 'timestamp:2026-01-15T10:30:45Z'.")]
ClaimText = Annotated[str, Field(description="The statement the citation should support, e.g. \"The vendor answered HTTP 429\"; "
                                             "empty to check only that the citation resolves.")]
Evidence = Annotated[str, Field(description=_EVIDENCE)]


class EvidenceFileInfo(BaseModel):
    path: str
    kind: str
    size: int


class EvidenceListing(BaseModel):
    root: str
    files: list[EvidenceFileInfo]
    truncated: bool = False
    rejected: dict[str, str] = {}


class AccessError(CiteproofError):
    """A path the MCP server may not read."""

    code = "EG012"


class Roots:
    """The allow-list: existing directories (or files), resolved."""

    def __init__(self, roots: Sequence[str | Path]) -> None:
        if not roots:
            raise ConfigError("give at least one --root: the evidence the server may read")
        self.paths: list[Path] = []
        for root in roots:
            real = Path(os.path.realpath(Path(root).expanduser()))
            if not real.exists():
                raise ConfigError("--root does not exist", root)
            self.paths.append(real)

    def resolve(self, value: str) -> Path:
        """The real path ``value`` names, if it lies under a root; else :class:`AccessError`."""
        if not value or "\0" in value:
            raise AccessError("no path given")
        given = Path(value).expanduser()
        candidates = [given] if given.is_absolute() else [root / given for root in self.paths]
        for candidate in candidates:
            real = Path(os.path.realpath(candidate))
            if real.exists() and any(inside(real, root) for root in self.paths):
                return real
        shown = ", ".join(str(r) for r in self.paths)
        if any(Path(os.path.realpath(c)).exists() for c in candidates):
            raise AccessError(f"'{value}' lies outside the allowed roots ({shown})")
        raise AccessError(f"'{value}' not found under the allowed roots ({shown})")


def build_server(roots: Sequence[str | Path], config: str | Path | None = None) -> Any:
    """The MCP server object (``MCPServer`` or ``FastMCP``); call ``.run()`` to serve stdio."""
    server_cls, tool_error, annotations = _sdk()
    allowed = Roots(roots)
    extra = {"version": __version__} if "version" in inspect.signature(server_cls).parameters else {}
    server = server_cls("citeproof", instructions=INSTRUCTIONS, **extra)

    def guarded(call: Callable[[], T]) -> T:
        try:
            return call()
        except CiteproofError as exc:
            raise tool_error(str(exc)) from None

    def validate_findings(findings: Findings, evidence: Evidence, findings_path: FindingsPath = None,
                          threshold: Threshold = None) -> Report:
        """Validate incident findings (Markdown/text or claims JSON) against an evidence bundle: PASSED or BLOCKED,
        with each claim's status, reason and recovery options. Pass the text in `findings`, or a file in `findings_path`."""
        def run() -> Report:
            source: str | Path = allowed.resolve(findings_path) if findings_path else as_findings_text(findings)
            return validate(source, allowed.resolve(evidence), config=config, threshold=threshold)
        return guarded(run)

    def check_citation(citation: Citation, evidence: Evidence, claim: ClaimText = "") -> ClaimResult:
        """Check one citation (e.g. demisto.log:4521, capture.har:entry-145, env:version=8.9.0) against the bundle;
        give `claim` to check that the cited evidence supports it too."""
        def run() -> ClaimResult:
            opts = make_options(config)
            with Bundle(allowed.resolve(evidence), use_cache=opts.use_cache) as bundle:
                one = claim_of(claim.strip() or citation, [citation], scope_of(bundle, opts))
                report = validate([one], bundle, options=opts)
            return (report.claims or report.unverified_observations)[0]
        return guarded(run)

    def list_evidence(evidence: Evidence) -> EvidenceListing:
        """List the files of an evidence bundle with their kind (log, har, config, env, patterns, jira, context) and size."""
        def run() -> EvidenceListing:
            with Bundle(allowed.resolve(evidence), use_cache=False) as bundle:
                files = [EvidenceFileInfo(path=f.rel, kind=f.kind.value, size=f.size)
                         for f in sorted(bundle.files.values(), key=lambda f: f.rel)]
                return EvidenceListing(root=str(bundle.root), files=files[:MAX_LISTED],
                                       truncated=len(files) > MAX_LISTED, rejected=dict(bundle.rejected))
        return guarded(run)

    read_only = annotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
    titles = {"validate_findings": "Validate findings", "check_citation": "Check one citation", "list_evidence": "List evidence"}
    for tool in (validate_findings, check_citation, list_evidence):
        server.tool(title=titles[tool.__name__], annotations=read_only)(tool)
    return server


def _sdk() -> tuple[Any, type[Exception], Any]:
    """The server class, the tool-error exception and ``ToolAnnotations`` of the installed ``mcp`` SDK (2.x or 1.x)."""
    try:
        annotations = importlib.import_module("mcp.types").ToolAnnotations
        server_cls = getattr(importlib.import_module("mcp.server"), "MCPServer", None)
        if server_cls is not None:
            return server_cls, importlib.import_module("mcp.server.mcpserver.exceptions").ToolError, annotations
        fast = importlib.import_module("mcp.server.fastmcp")
        return fast.FastMCP, importlib.import_module("mcp.server.fastmcp.exceptions").ToolError, annotations
    except ImportError:
        raise ConfigError("citeproof mcp needs the MCP SDK: pip install 'citeproof[mcp]'") from None


__all__ = ["AccessError", "EvidenceFileInfo", "EvidenceListing", "Roots", "build_server"]
