"""Issue 16, "first use without surprises": each point tried the way a new user meets it.

Every test goes through the real entry point: the ``citeproof`` command as a process (on a
pseudo-terminal where the point is about terminals), the hook with its payload on stdin, and the
MCP server through the official ``mcp`` client over stdio.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import pty
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from .conftest import EXAMPLE, ROOT

CLI = [sys.executable, "-m", "citeproof"]
FINDINGS = EXAMPLE / "findings.md"
BUNDLE = EXAMPLE / "bundle"
GOOD = "## Findings\n- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n- The server runs XSOAR (env:product=XSOAR).\n"
PARTLY = (
    "- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n"
    "- The server runs XSOAR (env:product=XSOAR).\n"
    "- The vendor API limit is 100 requests per minute.\n"
)
ANSI = "\x1b["


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The user's environment without citeproof, colour or JIRA settings (the test cache stays)."""
    drop = ("CITEPROOF_", "JIRA_", "NO_COLOR", "FORCE_COLOR", "CLICOLOR")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(drop) or k in ("CITEPROOF_CACHE_DIR", "CITEPROOF_CACHE_KEY")}
    return {**clean, "CITEPROOF_STATE_DIR": str(tmp_path / "state"), "TERM": "xterm-256color"}


def run(args: list[str], env: dict[str, str], cwd: Path = ROOT, stdin: str | None = None) -> tuple[int, str, str]:
    proc = subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, env=env, cwd=cwd, check=False, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def on_tty(args: list[str], env: dict[str, str], stream: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    """Run with ``stream`` ("stdout", "stderr" or "both") on a pseudo-terminal; returns (code, terminal text, the other
    stream)."""
    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as other:
        kwargs: dict[str, Any] = {"stdout": slave, "stderr": other} if stream == "stdout" else \
            {"stdout": other, "stderr": slave} if stream == "stderr" else {"stdout": slave, "stderr": slave}
        proc = subprocess.Popen([*CLI, *args], env=env, cwd=cwd, stdin=subprocess.DEVNULL, **kwargs)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        code = proc.wait(timeout=300)
        other.seek(0)
        return code, b"".join(chunks).decode("utf-8", errors="replace"), other.read().decode("utf-8", errors="replace")


# --- 1. `-` is stdin ------------------------------------------------------------------------------


def test_1_dash_reads_the_findings_from_stdin(env: dict[str, str]) -> None:
    code, out, err = run(["check", "-", "-e", str(BUNDLE), "-f", "json"], env, stdin=FINDINGS.read_text(encoding="utf-8"))
    assert (code, err) == (1, "")
    from_stdin = json.loads(out)
    _, by_path, _ = run(["check", str(FINDINGS), "-e", str(BUNDLE), "-f", "json"], env)
    expected = json.loads(by_path)
    assert [c["status"] for c in from_stdin["claims"]] == [c["status"] for c in expected["claims"]]
    assert (from_stdin["total_claims"], from_stdin["verified_claims"]) == (15, 10)
    assert from_stdin["source"] is None  # no file name to point at


def test_1_dash_reads_claims_json_and_a_one_line_text(env: dict[str, str]) -> None:
    claims = json.dumps([{"id": "a", "claim": "The server runs XSOAR", "citations": ["env:product=XSOAR"]}])
    code, out, err = run(["check", "-", "-e", str(BUNDLE), "-f", "json"], env, stdin=claims)
    assert (code, err) == (0, "")
    assert [c["id"] for c in json.loads(out)["claims"]] == ["a"]
    code, out, err = run(["check", "-", "-e", str(BUNDLE)], env, stdin="findings.md")  # text, not a file name
    assert code == 1 and err == ""


# --- 2. NO_COLOR / FORCE_COLOR ---------------------------------------------------------------------


def test_2_no_color_on_a_terminal(env: dict[str, str]) -> None:
    args = ["check", str(FINDINGS), "-e", str(BUNDLE)]
    code, coloured, _ = on_tty(args, env, "stdout")
    assert code == 1 and ANSI in coloured  # a terminal gets colour by default
    code, plain, _ = on_tty(args, {**env, "NO_COLOR": "1"}, "stdout")
    assert code == 1 and ANSI not in plain and "BLOCKED" in plain
    code, forced, _ = on_tty([*args, "--color"], {**env, "NO_COLOR": "1"}, "stdout")
    assert ANSI in forced  # the command-line flag overrides the environment


def test_2_force_color_through_a_pipe(env: dict[str, str]) -> None:
    args = ["check", str(FINDINGS), "-e", str(BUNDLE)]
    assert ANSI not in run(args, env)[1]
    assert ANSI in run(args, {**env, "FORCE_COLOR": "1"})[1]
    assert ANSI not in run(args, {**env, "FORCE_COLOR": "1", "NO_COLOR": "1"})[1]
    assert ANSI not in run([*args, "--no-color"], {**env, "FORCE_COLOR": "1"})[1]
    assert ANSI not in run(args, {**env, "FORCE_COLOR": "0"})[1]


# --- 3. context files: only the one named, no lock left ---------------------------------------------


def hook(payload: dict[str, Any], env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = subprocess.run([*CLI, "hook", *args], input=json.dumps(payload), capture_output=True, text=True, env=env,
                          check=False, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def stop(project: Path, message: str = GOOD) -> dict[str, Any]:
    return {"session_id": "s-16", "transcript_path": str(project / "none.jsonl"), "cwd": str(project),
            "hook_event_name": "Stop", "stop_hook_active": False, "last_assistant_message": message}


def test_3_hook_leaves_a_tracked_context_alone_when_evidence_is_given(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    tracked = project / "inv_context.json"
    tracked.write_text('{"phase": 3, "evidence_bundle": "elsewhere"}\n', encoding="utf-8")
    before = tracked.read_bytes()
    code, out, _ = hook(stop(project), env, "--evidence", str(BUNDLE))
    assert (code, out) == (0, "")  # PASSED: allowed
    assert tracked.read_bytes() == before
    assert sorted(p.name for p in project.iterdir()) == ["inv_context.json"]


def test_3_hook_reads_an_unnamed_context_but_does_not_write_it(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    tracked = project / "inv_context.json"
    tracked.write_text(json.dumps({"evidence_bundle": str(BUNDLE)}), encoding="utf-8")
    before = tracked.read_bytes()
    code, out, _ = hook(stop(project, "## Findings\n- The server runs XSOAR 8.8.0 (env:version=8.8.0)."), env)
    assert code == 0 and json.loads(out)["decision"] == "block"  # the bundle came from the context file
    assert tracked.read_bytes() == before
    assert sorted(p.name for p in project.iterdir()) == ["inv_context.json"]


@pytest.mark.parametrize("how", ["flag", "env", "config"])
def test_3_a_named_context_is_updated_without_a_lock_file(tmp_path: Path, env: dict[str, str], how: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    context = project / "ctx.json"
    context.write_text('{"phase": 3}\n', encoding="utf-8")
    args = ["--evidence", str(BUNDLE)]
    if how == "flag":
        args += ["--context", "ctx.json"]
    elif how == "env":
        env = {**env, "CITEPROOF_CONTEXT": "ctx.json"}
    else:
        (project / "citeproof.yaml").write_text("context: ctx.json\n", encoding="utf-8")
        args += ["--config", str(project / "citeproof.yaml")]
    assert hook(stop(project), env, *args)[:2] == (0, "")
    data = json.loads(context.read_text(encoding="utf-8"))
    assert data["phase"] == 3 and data["verification"]["status"] == "PASSED"
    assert not [p.name for p in project.iterdir() if p.name.endswith(".lock") or p.name.endswith(".tmp")]


def test_3_check_context_leaves_no_lock(tmp_path: Path, env: dict[str, str]) -> None:
    context = tmp_path / "inv_context.json"
    context.write_text('{"phase": 3}', encoding="utf-8")
    code, _, err = run(["check", str(FINDINGS), "-e", str(BUNDLE), "--context", str(context)], env)
    assert (code, err) == (1, "")
    assert json.loads(context.read_text(encoding="utf-8"))["verification"]["status"] == "BLOCKED"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "state") == ["inv_context.json"]


def test_3_check_context_from_the_config_file(tmp_path: Path, env: dict[str, str]) -> None:
    (tmp_path / "ctx.json").write_text("{}", encoding="utf-8")
    (tmp_path / "citeproof.yaml").write_text("context: ctx.json\n", encoding="utf-8")
    code, _, err = run(["check", str(FINDINGS), "-e", str(BUNDLE)], env, cwd=tmp_path)
    assert (code, err) == (1, "")
    assert json.loads((tmp_path / "ctx.json").read_text(encoding="utf-8"))["verification"]["total_claims"] == 15


# --- 4. init: re-runs update our entries, keep the mode; the skill's tools agree ----------------------


def settings_of(project: Path) -> dict[str, Any]:
    return json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))


def our_commands(settings: dict[str, Any]) -> dict[str, list[str]]:
    return {event: [h["command"] for g in groups for h in g["hooks"] if "citeproof" in h["command"]]
            for event, groups in settings["hooks"].items()}


def test_4_init_rerun_with_new_options_updates_only_our_entries(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    other = {"type": "command", "command": "./notify.sh"}
    (project / ".claude" / "settings.json").write_text(json.dumps({"model": "opus", "hooks": {"Stop": [{"hooks": [other]}]}}))
    assert run(["init", str(project)], env)[0] == 0
    code, out, err = run(["init", str(project), "--evidence", "./other"], env)
    assert (code, err) == (0, "")
    assert f"updated: {project / '.claude' / 'settings.json'}" in out
    settings = settings_of(project)
    assert our_commands(settings) == {e: ["citeproof hook --evidence ./other"] for e in ("Stop", "SubagentStop", "PostToolUse")}
    assert settings["model"] == "opus" and settings["hooks"]["Stop"][0] == {"hooks": [other]}
    code, out, _ = run(["init", str(project), "--evidence", "./other"], env)
    assert code == 0 and f"unchanged: {project / '.claude' / 'settings.json'}" in out


def test_4_init_keeps_the_settings_file_mode(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    settings = project / ".claude" / "settings.json"
    settings.write_text("{}", encoding="utf-8")
    settings.chmod(0o644)
    assert run(["init", str(project)], env)[0] == 0
    assert stat.S_IMODE(settings.stat().st_mode) == 0o644
    settings.chmod(0o664)
    assert run(["init", str(project), "--evidence", "b"], env)[0] == 0
    assert stat.S_IMODE(settings.stat().st_mode) == 0o664
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    umask = os.umask(0o022)
    os.umask(umask)
    assert run(["init", str(fresh)], env)[0] == 0
    assert stat.S_IMODE((fresh / ".claude" / "settings.json").stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE((fresh / ".claude" / "skills" / "validate" / "SKILL.md").stat().st_mode) == 0o666 & ~umask


def test_4_skill_allows_every_command_it_and_the_reports_tell_the_agent_to_run(tmp_path: Path, env: dict[str, str]) -> None:
    assert run(["init", str(tmp_path)], env)[0] == 0
    text = (tmp_path / ".claude" / "skills" / "validate" / "SKILL.md").read_text(encoding="utf-8")
    head, body = text.split("\n---\n", 1)
    allowed = re.search(r"^allowed-tools: (.*)$", head, re.M)
    assert allowed is not None
    bash = set(re.findall(r"Bash\(([\w.-]+):\*\)", allowed.group(1)))
    spans = re.findall(r"`([^`\n]+)`", body) + [line for block in re.findall(r"```\n(.*?)```", body, re.S) for line in block.splitlines()]
    told = {s.split()[0] for s in spans if s.split() and re.fullmatch(r"[a-z][\w-]*", s.split()[0])
            and len(s.split()) > 1 and not s.startswith(("env", "config", "pattern", "time", "timestamp", "ticket", "issue", "entry"))}
    blocked = hook(stop(tmp_path, (EXAMPLE / "findings.md").read_text(encoding="utf-8")), env, "--evidence", str(BUNDLE))[1]
    reason = json.loads(blocked)["reason"]
    told |= {m.group(1) for m in re.finditer(r"(?:^|: |`)(grep|jq|wc|sed|awk|cat|head|tail|find|zcat|rg) ", reason, re.M)}
    assert {"citeproof", "jq", "grep"} <= told  # what the skill and the reports do tell the agent to run
    assert told <= bash, f"SKILL.md tells the agent to run {sorted(told - bash)}, which allowed-tools does not allow"


# --- 5. Markdown fits a PR comment ----------------------------------------------------------------


def many_failures(tmp_path: Path, n: int = 300) -> Path:
    findings = tmp_path / "many.md"
    findings.write_text("".join(f"- The vendor answered HTTP 5{i % 10}3 for request number {i} from the billing integration "
                                f"while it was polling the upstream inventory service during the nightly synchronisation "
                                f"window (demisto.log:{i + 1}).\n"
                                for i in range(n)), encoding="utf-8")
    return findings


def test_5_markdown_fits_a_github_comment(tmp_path: Path, env: dict[str, str]) -> None:
    findings = many_failures(tmp_path)
    code, out, err = run(["check", str(findings), "-e", str(BUNDLE), "-f", "markdown"], env)
    assert (code, err) == (1, "")
    assert len(out) <= 65_000
    assert out.startswith("### ⛔ citeproof: BLOCKED\n") and "| Verification rate |" in out
    assert "#### Failing claims (300)" in out
    shown = len(re.findall(r"^\| \*\*c\d+\*\*", out, re.M))
    assert 50 < shown < 300
    note = re.search(r"^\*\*(\d+) of the 300 failing claims .*not shown.*$", out, re.M)
    assert note is not None and int(note.group(1)) == 300 - shown
    assert "--max-chars 0" in note.group(0) and str(findings) in note.group(0)  # where the full report is
    code, full, _ = run(["check", str(findings), "-e", str(BUNDLE), "-f", "markdown", "--max-chars", "0"], env)
    assert len(full) > 65_536 and len(re.findall(r"^\| \*\*c\d+\*\*", full, re.M)) == 300
    code, small, _ = run(["check", str(findings), "-e", str(BUNDLE), "-f", "markdown", "--max-chars", "4000"], env)
    assert len(small) <= 4000 and "not shown" in small
    code, link, _ = run(["check", str(findings), "-e", str(BUNDLE), "-f", "markdown", "--full-report", "https://ci.example/run/7"], env)
    assert "https://ci.example/run/7" in link and len(link) <= 65_000
    (tmp_path / "citeproof.yaml").write_text("max_chars: 3000\n", encoding="utf-8")
    code, configured, _ = run(["check", str(findings), "-e", str(BUNDLE), "-f", "markdown"], env, cwd=tmp_path)
    assert code == 1 and len(configured) <= 3000 and "not shown" in configured


def test_5_a_short_report_is_not_cut(env: dict[str, str]) -> None:
    _, out, _ = run(["check", str(FINDINGS), "-e", str(BUNDLE), "-f", "markdown"], env)
    _, unlimited, _ = run(["check", str(FINDINGS), "-e", str(BUNDLE), "-f", "markdown", "--max-chars", "0"], env)
    assert "not shown" not in out and out == unlimited


# --- 6. broken JSON findings and misspelt paths are errors ---------------------------------------------


def test_6_broken_json_findings_exit_2_with_the_line(tmp_path: Path, env: dict[str, str]) -> None:
    bad = tmp_path / "claims.json"
    bad.write_text('[\n  {"claim": "The server runs XSOAR", "citations": ["env:product=XSOAR"]},\n  {"claim": oops}\n]\n')
    code, out, err = run(["check", str(bad), "-e", str(BUNDLE)], env)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(f"citeproof: error: {bad}: ") and "line 3" in err and "JSON" in err


def test_6_a_misspelt_findings_path_is_an_error(tmp_path: Path, env: dict[str, str]) -> None:
    script = (
        "import sys, citeproof\nfrom pathlib import Path\n"
        f"b = {str(BUNDLE)!r}\n"
        "for f in ('findngs.md', Path('findngs.md'), 'reports/findings.json'):\n"
        "    try:\n        citeproof.validate(f, b)\n        print('validated', f)\n"
        "    except citeproof.FindingsError as e:\n        print('error', e)\n"
        "print(citeproof.validate('The server runs XSOAR (env:product=XSOAR).', b).status.value)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    lines = proc.stdout.splitlines()
    assert lines[:3] == ["error findngs.md: findings file not found", "error findngs.md: findings file not found",
                         "error reports/findings.json: findings file not found"]
    assert lines[3] == "PASSED"  # findings text is still text


# --- 7. the README's names come from the package root -------------------------------------------------


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def test_7_readme_imports_work_from_the_package_root(env: dict[str, str]) -> None:
    proc = subprocess.run([sys.executable, "-c", "from citeproof import ClaimValidatorHook, validate, Report, Claim, claim_of, "
                           "check_sources, validate_node, make_router; print(ClaimValidatorHook(threshold=0.9).threshold)"],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "0.9\n", "")
    blocks = python_blocks(ROOT / "README.md") + python_blocks(ROOT / "examples" / "integrations.md")
    assert any("from citeproof import" in b for b in blocks)
    for block in blocks:
        tree = ast.parse(block)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("citeproof."):
                pytest.fail(f"the docs import from a submodule ({node.module}); the package root exports it")
        proc = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, env=env, cwd=ROOT, check=False)
        assert (proc.returncode, proc.stderr) == (0, ""), block


# --- 8. sources --threshold ----------------------------------------------------------------------


def test_8_sources_threshold_fails_a_ci_step(env: dict[str, str]) -> None:
    args = ["sources", "--claims", str(ROOT / "examples/pipeline/claims.json"), "--evidence", str(ROOT / "examples/pipeline/evidence.json")]
    code, out, err = run(args, env)
    assert (code, err) == (0, "") and json.loads(out)["validity_score"] == 0.89
    code, out, err = run([*args, "--threshold", "0.9"], env)
    assert (code, err) == (1, "")
    report = json.loads(out)
    assert (report["threshold"], report["passed"]) == (0.9, False)
    code, out, _ = run([*args, "--threshold", "0.89", "-f", "text"], env)
    assert code == 0 and "threshold 0.89" in out and out.startswith("PASSED")
    code, _, err = run([*args, "--threshold", "1.5"], env)
    assert code == 2 and err.count("\n") == 1


# --- 9 and 13. MCP tool texts, annotations and version; check_citation calls the engine ------------------


mcp = pytest.importorskip("mcp", reason="the MCP SDK is not installed (pip install 'citeproof[mcp]')")


def mcp_session(server: list[str], calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, list[Any], list[Any]]:
    params = mcp.StdioServerParameters(command=sys.executable, args=server, env={**os.environ})

    async def go() -> tuple[Any, list[Any], list[Any]]:
        async with mcp.Client(params) as client:
            tools = (await client.list_tools()).tools
            return client.server_info, tools, [await client.call_tool(n, a) for n, a in calls]

    return asyncio.run(asyncio.wait_for(go(), timeout=120))


def test_9_mcp_tools_describe_every_parameter_and_are_read_only() -> None:
    import citeproof

    info, tools, _ = mcp_session(["-m", "citeproof", "mcp", "--root", str(EXAMPLE)], [])
    assert (info.name, info.version) == ("citeproof", citeproof.__version__)
    assert {t.name for t in tools} == {"validate_findings", "check_citation", "list_evidence"}
    for tool in tools:
        props = tool.input_schema["properties"]
        assert props, tool.name
        for name, prop in props.items():
            assert len(prop.get("description", "")) > 20, f"{tool.name}.{name} has no description"
        assert tool.annotations is not None and tool.annotations.read_only_hint is True, tool.name
        assert tool.annotations.destructive_hint is False and tool.annotations.open_world_hint is False, tool.name


def test_13_check_citation_checks_the_claim_without_a_findings_document() -> None:
    script = ("import citeproof.engine as e, citeproof.extract as x\n"
              "def boom(*a, **k):\n    raise AssertionError('a findings document was parsed')\n"
              "e.read_claims = x.read_claims = boom\n"
              "from citeproof.cli import main\n"
              f"main(['mcp', '--root', {str(EXAMPLE)!r}])\n")
    _, _, [cited, unsupported, bad] = mcp_session(["-c", script], [
        ("check_citation", {"citation": "demisto.log:298", "evidence": "bundle",
                            "claim": "The vendor answered 'HTTP 429 Too Many Requests'"}),
        ("check_citation", {"citation": "env:version=8.8.0", "evidence": "bundle", "claim": "The server runs XSOAR 8.8.0"}),
        ("check_citation", {"citation": "nonsense", "evidence": "bundle"}),
    ])
    assert not cited.is_error, cited.content
    assert cited.structured_content["status"] == "verified"
    assert cited.structured_content["citations"][0]["citation_exists"] is True
    assert unsupported.structured_content["status"] == "contradicted"
    assert bad.structured_content["status"] == "invalid_citation"


def test_13_layers_import_downward_only() -> None:
    """Lower layers never import the integrations or the command line, and no module imports the package root."""
    package = ROOT / "src" / "citeproof"
    lower = ("citations", "evidence", "extract", "support", "contradictions", "model", "config", "errors", "decide", "text",
             "units", "zones", "sources")
    upper = ("citeproof.integrations", "citeproof.cli", "citeproof.reporters", "citeproof.engine", "citeproof.batch")
    problems = []
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                package_parts = parts[:-1]
                base = package_parts[: len(package_parts) - (node.level - 1)]
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            else:
                target = node.module or ""
            if target == "citeproof" and path != package / "__init__.py":
                for alias in node.names:
                    if not (package / alias.name).is_dir() and not (package / f"{alias.name}.py").is_file():
                        problems.append(f"{'/'.join(parts)} imports {alias.name} from the package root")
            if parts[1] in lower and target.startswith(upper):
                problems.append(f"{'/'.join(parts)} imports {target}")
    assert problems == []


# --- 10. SARIF URIs relative to %SRCROOT% ----------------------------------------------------------------


def locations(doc: dict[str, Any]) -> list[Any]:
    return [[loc["physicalLocation"] for loc in [*r["locations"], *r.get("relatedLocations", [])]] for r in doc["runs"][0]["results"]]


def test_10_sarif_with_absolute_paths_is_relative_to_srcroot(tmp_path: Path, env: dict[str, str]) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "docs" / "findings.md").write_text(FINDINGS.read_text(encoding="utf-8"), encoding="utf-8")
    bundle = repo / "evidence bundle"
    subprocess.run(["cp", "-r", str(BUNDLE), str(bundle)], check=True)
    code, out, err = run(["check", str(repo / "docs" / "findings.md"), "-e", str(bundle), "-f", "sarif"], env, cwd=repo / "docs")
    assert (code, err) == (1, "")
    run_ = json.loads(out)["runs"][0]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.as_uri() + "/"
    uris = [loc["physicalLocation"]["artifactLocation"] for r in run_["results"]
            for loc in [*r["locations"], *r.get("relatedLocations", [])]]
    assert uris and not [u for u in uris if "file:" in u["uri"] or u["uri"].startswith("/")]
    assert {"uri": "docs/findings.md", "uriBaseId": "%SRCROOT%"} in uris
    assert {"uri": "evidence%20bundle/capture.har", "uriBaseId": "%SRCROOT%"} in uris
    code, again, _ = run(["check", "findings.md", "-e", "../evidence bundle", "-f", "sarif"], env, cwd=repo / "docs")
    assert locations(json.loads(again)) == locations(json.loads(out))  # relative paths from a subdirectory: the same places


def test_10_without_a_repository_the_current_directory_is_the_root(tmp_path: Path, env: dict[str, str]) -> None:
    work = tmp_path / "work"
    work.mkdir()
    _, out, _ = run(["check", str(FINDINGS), "-e", str(BUNDLE), "-f", "sarif"], env, cwd=ROOT / "examples")
    run_ = json.loads(out)["runs"][0]
    root = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, cwd=ROOT).stdout.strip())
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.as_uri() + "/"
    _, out, _ = run(["check", str(FINDINGS), "-e", str(BUNDLE), "-f", "sarif"], env, cwd=work)
    run_ = json.loads(out)["runs"][0]
    if (Path(tempfile.gettempdir()) / ".git").exists():  # pragma: no cover - a repository above the temporary directory
        pytest.skip("the temporary directory lies in a git repository")
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == work.as_uri() + "/"
    first = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert first["uri"].startswith("file:///") and "uriBaseId" not in first  # outside the root: an absolute URI


# --- 11. progress on a terminal, nothing when piped ------------------------------------------------------


def big_bundle(tmp_path: Path) -> Path:
    bundle = tmp_path / "big"
    bundle.mkdir()
    line = "2026-01-15T10:30:45Z INFO request served in 12 ms by worker 7 of the pool\n"
    (bundle / "app.log").write_text(line * (40 * 1024 * 1024 // len(line)), encoding="utf-8")
    return bundle


def test_11_index_shows_bytes_indexed_on_a_terminal(tmp_path: Path, env: dict[str, str]) -> None:
    bundle = big_bundle(tmp_path)
    env = {**env, "CITEPROOF_CACHE_DIR": str(tmp_path / "cache")}
    code, shown, out = on_tty(["index", str(bundle)], env, "stderr")
    assert code == 0 and "app.log:" in out
    percents = {int(p) for p in re.findall(r"(\d+)%", shown)}
    assert {p for p in percents if 0 < p < 100}, shown  # real progress, not 0 then done
    assert "MB" in shown
    code, out, err = run(["index", str(bundle)], {**env, "CITEPROOF_CACHE_DIR": str(tmp_path / "cache2")})
    assert code == 0 and err == ""  # piped: nothing


def test_11_batch_shows_cases_done_on_a_terminal(tmp_path: Path, env: dict[str, str]) -> None:
    cases = tmp_path / "cases"
    for name in ("a", "b", "c"):
        (cases / name).mkdir(parents=True)
        (cases / name / "findings.md").write_text(GOOD, encoding="utf-8")
        subprocess.run(["cp", "-r", str(BUNDLE), str(cases / name / "bundle")], check=True)
    code, shown, out = on_tty(["batch", str(cases), "--jobs", "1"], env, "stderr")
    assert code == 0 and len(out.splitlines()) == 3
    assert all(f"{n} of 3 cases" in shown for n in (1, 2, 3)), shown
    assert "3 of 3 cases passed" in shown
    code, out, err = run(["batch", str(cases), "--jobs", "2"], env)
    assert code == 0 and "\r" not in err and err.rstrip().endswith("3 of 3 cases passed")


# --- 12. config discovery ---------------------------------------------------------------------------------


def test_12_pyproject_is_discovered_from_the_current_directory_upward(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    (project / "a" / "b").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.citeproof]\nthreshold = 0.5\n', encoding="utf-8")
    (project / "a" / "pyproject.toml").write_text('[project]\nname = "no-section"\n', encoding="utf-8")  # skipped: no section
    (project / "a" / "b" / "partly.md").write_text(PARTLY, encoding="utf-8")
    code, out, err = run(["check", "partly.md", "-e", str(BUNDLE), "-f", "json"], env, cwd=project / "a" / "b")
    assert (code, err) == (0, "") and json.loads(out)["threshold"] == 0.5
    code, out, _ = run(["check", "--help"], {**env, "COLUMNS": "400"}, cwd=project / "a" / "b")
    assert code == 0 and str(project / "pyproject.toml") in " ".join(out.split())
    code, out, _ = run(["check", "partly.md", "-e", str(BUNDLE), "-f", "json", "--threshold", "0.9"], env, cwd=project / "a" / "b")
    assert code == 1  # the command line overrides the file


def test_12_citeproof_yaml_is_closer_and_wins(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.citeproof]\nthreshold = 0.1\n", encoding="utf-8")
    (project / "sub" / "citeproof.yaml").write_text("threshold: 0.6\n", encoding="utf-8")
    (project / "sub" / "partly.md").write_text(PARTLY, encoding="utf-8")
    code, out, _ = run(["check", "partly.md", "-e", str(BUNDLE), "-f", "json"], env, cwd=project / "sub")
    assert code == 0 and json.loads(out)["threshold"] == 0.6
    code, out, _ = run(["check", "--help"], {**env, "COLUMNS": "400"}, cwd=project / "sub")
    assert str(project / "sub" / "citeproof.yaml") in " ".join(out.split())
    (project / "sub" / "citeproof.yaml").write_text("threshold: [1\n", encoding="utf-8")
    code, out, err = run(["check", "partly.md", "-e", str(BUNDLE)], env, cwd=project / "sub")
    assert code == 2 and err.count("\n") == 1 and str(project / "sub" / "citeproof.yaml") in err
    code, out, _ = run(["check", "--help"], {**env, "COLUMNS": "400"}, cwd=tmp_path)
    assert "none found" in " ".join(out.split())


def test_12_the_hook_discovers_the_config_from_the_project(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "citeproof.yaml").write_text("threshold: 0.5\n", encoding="utf-8")
    message = "## Findings\n" + PARTLY
    assert hook(stop(project, message), env, "--evidence", str(BUNDLE))[:2] == (0, "")  # 2 of 3 verified passes 0.5
    (project / "citeproof.yaml").unlink()
    assert json.loads(hook(stop(project, message), env, "--evidence", str(BUNDLE))[1])["decision"] == "block"
