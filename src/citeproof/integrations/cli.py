"""The integration commands: ``citeproof hook``, ``citeproof init`` and ``citeproof mcp``.

``hook`` always exits 0 and answers in the Claude Code hook protocol on stdout (see
:mod:`.hook_protocol`); ``init`` and ``mcp`` follow the usual exit codes (2 for a usage or input error).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..commands import ConfigCommand, ConfigOption, config_or_discovered
from ..errors import CiteproofError
from .hook_input import FINDINGS_PATTERNS

if TYPE_CHECKING:
    from ..model import Report



@click.command("hook", cls=ConfigCommand)
@click.option("--evidence", "-e", type=click.Path(path_type=Path), envvar="CITEPROOF_EVIDENCE",
              help="Evidence bundle [env: CITEPROOF_EVIDENCE; else inv_context.json].")
@click.option("--context", type=click.Path(dir_okay=False, path_type=Path), envvar="CITEPROOF_CONTEXT",
              help="inv_context.json to record the verification in (and to read the bundle from) "
                   "[env: CITEPROOF_CONTEXT; config: context]. No other context file is written.")
@click.option("--config", cls=ConfigOption, type=click.Path(dir_okay=False, path_type=Path), envvar="CITEPROOF_CONFIG",
              help="Options file (YAML or TOML) [env: CITEPROOF_CONFIG; else discovered from the project directory upward].")
@click.option("--threshold", type=float, help="Minimum verification rate for PASSED [default: 0.9].")
@click.option("--jira-url", help="Look up tickets missing from the bundle in this live JIRA.")
@click.option("--max-attempts", type=click.IntRange(min=0), envvar="CITEPROOF_HOOK_MAX_ATTEMPTS",
              help="Blocks in a row before a stop is let through [default: 3; env: CITEPROOF_HOOK_MAX_ATTEMPTS].")
@click.option("--fail-open/--fail-closed", default=None, envvar="CITEPROOF_HOOK_FAIL_OPEN",
              help="On an internal error allow (open) or block (closed, the default) [env: CITEPROOF_HOOK_FAIL_OPEN].")
@click.option("--findings-pattern", "patterns", multiple=True,
              help=f"File names PostToolUse treats as findings (repeatable) [default: {', '.join(FINDINGS_PATTERNS)}].")
def hook_command(evidence: Path | None, context: Path | None, config: Path | None, threshold: float | None,
                 jira_url: str | None, max_attempts: int | None, fail_open: bool | None, patterns: tuple[str, ...]) -> int:
    """Claude Code hook (Stop, SubagentStop, PostToolUse): reads the payload on stdin, blocks unverified findings."""
    from .hook import HookSettings, run_hook

    settings = HookSettings(evidence=evidence, context=context, config=config, threshold=threshold, jira_url=jira_url,
                            max_attempts=max_attempts, fail_open=fail_open, patterns=patterns or FINDINGS_PATTERNS)
    raw = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    sys.stdout.write(run_hook(raw, settings).render())
    sys.stdout.flush()
    return 0


@click.command("init")
@click.argument("directory", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--evidence", "-e", help="Put --evidence PATH on the hook command.")
@click.option("--force", is_flag=True, help="Overwrite a SKILL.md that differs from the shipped one.")
def init_command(directory: Path, evidence: str | None, force: bool) -> int:
    """Set up a project for Claude Code: the validate skill and the citeproof hook in .claude/."""
    from .claude_init import init_project

    try:
        changes = init_project(directory, evidence=evidence, force=force)
    except CiteproofError as exc:
        raise click.ClickException(str(exc)) from None
    for change in changes:
        click.echo(str(change))
    return 0


@click.command("mcp", cls=ConfigCommand)
@click.option("--root", "roots", multiple=True, required=True, type=click.Path(exists=True, path_type=Path),
              help="Evidence the server may read (repeatable); nothing else is readable.")
@click.option("--config", cls=ConfigOption, type=click.Path(dir_okay=False, path_type=Path), help="Options file (YAML or TOML).")
def mcp_command(roots: tuple[Path, ...], config: Path | None) -> int:
    """Serve the MCP tools validate_findings, check_citation and list_evidence over stdio."""
    from ..config import make_options
    from .mcp_server import build_server

    config = config_or_discovered(config)
    try:
        make_options(config)  # a bad config is reported now, not on the first tool call
        server = build_server(roots, config)
    except CiteproofError as exc:
        raise click.ClickException(str(exc)) from None
    server.run()
    return 0


def record_context(context: Path, report: Report, evidence: Path) -> None:
    """``check --context FILE``: write ``report`` into the context's verification block."""
    from .inv_context import update_verification

    update_verification(context, report, evidence_root=evidence)


__all__ = ["hook_command", "init_command", "mcp_command", "record_context"]
