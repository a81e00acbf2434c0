"""`citeproof mcp`: the server exercised through the official MCP client over stdio."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from citeproof import cli as main_cli

from .conftest import EXAMPLE

mcp = pytest.importorskip("mcp", reason="the MCP SDK is not installed (pip install 'citeproof[mcp]')")

# Until `mcp` is registered on the main command group, run the click command itself.
SERVER = (["-m", "citeproof.cli", "mcp"] if "mcp" in main_cli.cli.commands
          else ["-c", "from citeproof.integrations.cli import mcp_command; mcp_command()"])


def session(roots: list[Path], calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[Any]]:
    """Start the server as a process, list its tools, make ``calls``; returns (tools, results)."""
    args = [*SERVER, *(a for root in roots for a in ("--root", str(root)))]
    params = mcp.StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))

    async def run() -> tuple[list[Any], list[Any]]:
        async with mcp.Client(params) as client:
            tools = (await client.list_tools()).tools
            return tools, [await client.call_tool(name, arguments) for name, arguments in calls]

    return asyncio.run(asyncio.wait_for(run(), timeout=120))


def error_text(result: Any) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_tools_and_validation_over_stdio() -> None:
    findings = (EXAMPLE / "findings.md").read_text(encoding="utf-8")
    tools, [by_text, by_path, relaxed] = session([EXAMPLE], [
        ("validate_findings", {"findings": findings, "evidence": "bundle"}),
        ("validate_findings", {"findings": "", "findings_path": "findings.md", "evidence": str(EXAMPLE / "bundle")}),
        ("validate_findings", {"findings": findings, "evidence": "bundle", "threshold": 0.5}),
    ])
    assert {t.name for t in tools} == {"validate_findings", "check_citation", "list_evidence"}
    assert all(t.output_schema and t.description for t in tools)
    for result in (by_text, by_path):
        report = result.structured_content
        assert not result.is_error and report["status"] == "BLOCKED"
        assert (report["total_claims"], report["verified_claims"], report["verification_rate"]) == (15, 10, 0.667)
        assert {c["id"]: c["status"] for c in report["claims"]}["c7"] == "missing_evidence"
    assert by_path.structured_content["source"].endswith("findings.md")
    assert relaxed.structured_content["threshold"] == 0.5


def test_check_citation_and_list_evidence() -> None:
    _, [missing, wrong_entry, nonsense, listing] = session([EXAMPLE / "bundle"], [
        ("check_citation", {"citation": "demisto.log:4521", "evidence": ".",
                            "claim": "A second 'Rate limit exceeded' error was logged"}),
        ("check_citation", {"citation": "capture.har:entry-20", "evidence": ".", "claim": "The request was rejected with HTTP 429."}),
        ("check_citation", {"citation": "see the logs", "evidence": "."}),
        ("list_evidence", {"evidence": "."}),
    ])
    result = missing.structured_content
    assert result["status"] == "missing_evidence" and result["citations"][0]["suggestion"] == "demisto.log:349"
    assert result["citations"][0]["format_valid"] and not result["citations"][0]["citation_exists"]
    assert wrong_entry.structured_content["status"] in ("contradicted", "unsupported")
    assert wrong_entry.structured_content["citations"][0]["citation_exists"]
    assert nonsense.structured_content["status"] == "invalid_citation"
    files = {f["path"]: f["kind"] for f in listing.structured_content["files"]}
    assert files["capture.har"] == "har" and files["jira/XSUP-48213.json"] == "jira" and files["inv_context.json"] == "context"
    assert listing.structured_content["truncated"] is False


def test_only_allow_listed_roots_are_readable(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "case").mkdir(parents=True)
    (root / "case" / "app.log").write_text("2026-01-15 10:30:12 ERROR boom\n", encoding="utf-8")
    (root / "escape").symlink_to(EXAMPLE / "bundle", target_is_directory=True)
    (tmp_path / "secret.md").write_text("- The secret is 42 (app.log:1).\n", encoding="utf-8")
    (root / "case" / "findings.md").write_text("- boom (app.log:1).\n", encoding="utf-8")
    _, results = session([root], [
        ("list_evidence", {"evidence": str(EXAMPLE / "bundle")}),
        ("list_evidence", {"evidence": "../"}),
        ("list_evidence", {"evidence": "escape"}),
        ("validate_findings", {"findings": "", "findings_path": str(tmp_path / "secret.md"), "evidence": "case"}),
        ("check_citation", {"citation": "app.log:1", "evidence": "/etc"}),
        ("list_evidence", {"evidence": "nowhere"}),
        ("validate_findings", {"findings": "case/findings.md", "evidence": "case"}),
        ("list_evidence", {"evidence": "case"}),
    ])
    *refused, missing, one_line, allowed = results
    for result in refused:
        assert "lies outside the allowed roots" in error_text(result)
    assert "'nowhere' not found under the allowed roots" in error_text(missing)
    # a one-line text is the findings, never a file name to open
    assert [c["claim"] for c in one_line.structured_content["claims"]] == ["case/findings.md"]
    assert [f["path"] for f in allowed.structured_content["files"]] == ["app.log", "findings.md"]


def test_server_needs_a_root() -> None:
    proc = subprocess.run([sys.executable, *SERVER], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "--root" in proc.stderr


def test_a_fifo_as_findings_path_is_an_error_not_a_hang(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "case").mkdir(parents=True)
    (root / "case" / "app.log").write_text("2026-01-15 10:30:12 ERROR boom\n", encoding="utf-8")
    os.mkfifo(root / "case" / "findings.md")
    _, [result, after] = session([root], [
        ("validate_findings", {"findings": "", "findings_path": "case/findings.md", "evidence": "case"}),
        ("list_evidence", {"evidence": "case"}),
    ])
    assert "FIFO, not a regular file" in error_text(result)
    assert [f["path"] for f in after.structured_content["files"]] == ["app.log"]  # the server still answers
