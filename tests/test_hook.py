"""`citeproof hook`: real Claude Code payloads and transcripts fed to the hook process.

Every answer must follow the hook protocol: exit 0 always; block = one JSON object with
decision "block" and a reason under 10,000 characters; allow = no output (or only a systemMessage).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeproof
from citeproof import cli as main_cli
from citeproof.integrations import hook as hook_module
from citeproof.integrations.hook import HookSettings, is_findings, run_hook
from citeproof.integrations.hook_input import last_assistant_text, parse_payload
from citeproof.integrations.hook_protocol import MAX_REASON_CHARS
from citeproof.integrations.validator_hook import ClaimValidatorHook

from .conftest import EXAMPLE

BUNDLE = EXAMPLE / "bundle"
GOOD = "## Findings\n- The vendor answered 'HTTP 429 Too Many Requests' (demisto.log:298).\n- The server runs XSOAR (env:product=XSOAR).\n"
BAD_VERSION = "- The server runs XSOAR version 8.8.0 (env:version=8.8.0)."
# Until `hook` is registered on the main command group, run the click command itself.
HOOK = ([sys.executable, "-m", "citeproof.cli", "hook"] if "hook" in main_cli.cli.commands
        else [sys.executable, "-c", "from citeproof.integrations.cli import hook_command; hook_command()"])


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("CITEPROOF_", "JIRA_")) or k == "CITEPROOF_CACHE_DIR"}
    return {**clean, "CITEPROOF_STATE_DIR": str(tmp_path / "state")}


def hook(payload: dict[str, Any] | str, env: dict[str, str], *args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    proc = subprocess.run([*HOOK, *args], input=raw, capture_output=True, text=True, env=env, cwd=cwd, check=False, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def blocked(out: str) -> str:
    answer = json.loads(out)
    assert answer["decision"] == "block" and set(answer) <= {"decision", "reason", "systemMessage"}
    assert len(answer["reason"]) < 10_000
    return str(answer["reason"])


def payload(event: str, tmp_path: Path, **fields: Any) -> dict[str, Any]:
    base = {"session_id": "9f1c2e4a-5b6d-4c3e-8f7a-1b2c3d4e5f60", "transcript_path": str(tmp_path / "none.jsonl"),
            "cwd": str(tmp_path), "permission_mode": "default", "hook_event_name": event}
    if event in ("Stop", "SubagentStop"):
        base["stop_hook_active"] = False
    return {**base, **fields}


# -- transcripts as Claude Code writes them --------------------------------------------------------
def entry(kind: str, content: Any, msg_id: str | None = None, sidechain: bool = False, n: int = 0) -> dict[str, Any]:
    message: dict[str, Any] = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": msg_id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": content,
                   "stop_reason": None, "usage": {"input_tokens": 10, "output_tokens": 5}}
    return {"parentUuid": f"u{n - 1}" if n else None, "isSidechain": sidechain, "userType": "external", "cwd": "/work/case",
            "sessionId": "9f1c2e4a", "version": "2.0.14", "gitBranch": "main", "type": kind, "message": message,
            "uuid": f"u{n}", "timestamp": f"2026-01-15T11:{n:02d}:00.000Z"}


def transcript(path: Path, main_final: list[str], sidechain_final: str | None = None) -> Path:
    lines: list[Any] = [
        {"type": "summary", "summary": "Rate limit investigation", "leafUuid": "u0"},
        entry("user", "Investigate the AcmeThreatIntel outage; evidence in ./bundle", n=1),
        entry("assistant", [{"type": "thinking", "thinking": "Look at demisto.log first.", "signature": "sig"}], "msg_01A", n=2),
        entry("assistant", [{"type": "text", "text": "I will read the log."}], "msg_01A", n=3),
        entry("assistant", [{"type": "tool_use", "id": "toolu_01", "name": "Read", "input": {"file_path": "bundle/demisto.log"}}],
              "msg_01A", n=4),
        entry("user", [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "10:30:12 WARN ..."}], n=5),
    ]
    for i, text in enumerate(main_final):
        lines.append(entry("assistant", [{"type": "text", "text": text}], "msg_01B", n=6 + i))
    if sidechain_final is not None:
        lines.append(entry("assistant", [{"type": "text", "text": sidechain_final}], "msg_01S", sidechain=True, n=20))
    lines.append({"type": "file-history-snapshot", "messageId": "u21", "snapshot": {}})
    path.write_text("\n".join(json.dumps(x) for x in lines) + '\n{"type": "assistant", "message": {"id": "msg_trunc', encoding="utf-8")
    return path


# -- each event, through the process -----------------------------------------------------------
def test_stop_blocks_failed_findings_with_actionable_reason(tmp_path: Path, env: dict[str, str]) -> None:
    findings = (EXAMPLE / "findings.md").read_text(encoding="utf-8")
    code, out, err = hook(payload("Stop", tmp_path, last_assistant_message=findings), env, "--evidence", str(BUNDLE))
    assert (code, err) == (0, "")
    reason = blocked(out)
    assert reason.startswith("citeproof BLOCKED the findings (last_assistant_message")
    assert "c7 [missing_evidence]" in reason and "demisto.log:349" in reason  # suggested citation
    assert "c5 [contradicted]" in reason and "entry-19" in reason  # off-by-one recovery
    assert "c1 [" not in reason  # verified claims are not listed
    assert "Contradictions:" in reason and "Unverified assumption" in reason
    assert "block 1 of at most 3" in reason


def test_stop_allows_passing_findings_silently(tmp_path: Path, env: dict[str, str]) -> None:
    env["CITEPROOF_EVIDENCE"] = str(BUNDLE)
    assert hook(payload("Stop", tmp_path, last_assistant_message=GOOD), env) == (0, "", "")


def test_stop_reads_the_transcript_joining_blocks_and_skipping_sidechains(tmp_path: Path, env: dict[str, str]) -> None:
    path = transcript(tmp_path / "session.jsonl", ["## Findings\n" + GOOD.split("\n", 2)[1], BAD_VERSION], sidechain_final=GOOD)
    code, out, err = hook(payload("Stop", tmp_path, transcript_path=str(path)), env, "--evidence", str(BUNDLE))
    assert (code, err) == (0, "")
    reason = blocked(out)
    assert f"({path}, evidence:" in reason
    assert "1 of 2 claims failed" in reason and "c2 [" in reason and "8.8.0" in reason


def test_subagent_stop_reads_the_agent_transcript(tmp_path: Path, env: dict[str, str]) -> None:
    agent = tmp_path / "agent-a1b2.jsonl"
    agent.write_text("\n".join(json.dumps(entry("assistant", [{"type": "text", "text": t}], "msg_S1", sidechain=True, n=i))
                               for i, t in enumerate(["## Findings", BAD_VERSION])) + "\n", encoding="utf-8")
    event = payload("SubagentStop", tmp_path, agent_id="a1b2", agent_type="investigator", agent_transcript_path=str(agent))
    code, out, _ = hook(event, env, "--evidence", str(BUNDLE))
    assert code == 0 and "c1 [contradicted]" in blocked(out)


def test_subagent_stop_without_agent_transcript_uses_sidechain_lines(tmp_path: Path, env: dict[str, str]) -> None:
    path = transcript(tmp_path / "session.jsonl", [BAD_VERSION], sidechain_final=GOOD)
    code, out, err = hook(payload("SubagentStop", tmp_path, transcript_path=str(path)), env, "--evidence", str(BUNDLE))
    assert (code, out, err) == (0, "", "")  # the subagent's (sidechain) message is the passing one


def test_post_tool_use_on_a_findings_file(tmp_path: Path, env: dict[str, str]) -> None:
    target = tmp_path / "findings.md"
    target.write_text(BAD_VERSION + "\n", encoding="utf-8")
    event = payload("PostToolUse", tmp_path, tool_name="Write", tool_input={"file_path": "findings.md", "content": BAD_VERSION},
                    tool_response={"filePath": str(target), "success": True}, tool_use_id="toolu_09")
    code, out, err = hook(event, env, "--evidence", str(BUNDLE))
    assert (code, err) == (0, "")
    reason = blocked(out)
    assert "Re-check before finishing: citeproof check" in reason and str(target) in reason


@pytest.mark.parametrize(("tool", "name"), [("Write", "src/app.py"), ("Read", "findings.md"), ("Bash", "")])
def test_post_tool_use_on_other_files_passes(tmp_path: Path, env: dict[str, str], tool: str, name: str) -> None:
    (tmp_path / "findings.md").write_text(BAD_VERSION, encoding="utf-8")
    event = payload("PostToolUse", tmp_path, tool_name=tool, tool_input={"file_path": name, "command": "ls"})
    assert hook(event, env) == (0, "", "")  # no evidence configured, and none needed


def test_text_without_findings_passes_through(tmp_path: Path, env: dict[str, str]) -> None:
    event = payload("Stop", tmp_path, last_assistant_message="Done: I renamed the helper and the tests pass.")
    assert hook(event, env) == (0, "", "")


def test_loop_guard_lets_the_stop_through_after_the_cap(tmp_path: Path, env: dict[str, str]) -> None:
    args = ("--evidence", str(BUNDLE), "--max-attempts", "2")
    first = payload("Stop", tmp_path, last_assistant_message=BAD_VERSION + "\n")
    again = {**first, "stop_hook_active": True}
    assert "block 1 of at most 2" in blocked(hook(first, env, *args)[1])
    assert "block 2 of at most 2" in blocked(hook(again, env, *args)[1])
    code, out, _ = hook(again, env, *args)
    answer = json.loads(out)
    assert code == 0 and "decision" not in answer
    assert "already blocked 2 time(s) in a row (hook_max_attempts=2)" in answer["systemMessage"]
    assert "block 1 of at most 2" in blocked(hook(first, env, *args)[1])  # a new stop chain starts afresh


def test_fails_closed_and_says_why(tmp_path: Path, env: dict[str, str]) -> None:
    event = payload("Stop", tmp_path, last_assistant_message=GOOD)
    code, out, _ = hook(event, env, "--evidence", str(tmp_path / "nope"))
    reason = blocked(out)
    assert code == 0 and "fail closed" in reason and "evidence bundle not found" in reason
    code, out, _ = hook(event, env)  # nothing configured at all
    assert code == 0 and "no evidence bundle to check the findings against" in blocked(out)
    code, out, _ = hook("{not json", env)
    assert code == 0 and "hook payload is not JSON" in blocked(out)


def test_fail_open_allows_but_reports(tmp_path: Path, env: dict[str, str]) -> None:
    env["CITEPROOF_HOOK_FAIL_OPEN"] = "1"
    code, out, _ = hook(payload("Stop", tmp_path, last_assistant_message=GOOD), env, "--evidence", str(tmp_path / "nope"))
    answer = json.loads(out)
    assert code == 0 and "decision" not in answer and "evidence bundle not found" in answer["systemMessage"]


def test_internal_error_blocks_with_the_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("index exploded")

    monkeypatch.setattr(hook_module, "validate", broken)
    raw = json.dumps(payload("Stop", tmp_path, last_assistant_message=GOOD))
    answer = run_hook(raw, HookSettings(evidence=BUNDLE, state_dir=tmp_path))
    assert answer.block and "internal error RuntimeError: index exploded" in answer.reason
    assert not run_hook(raw, HookSettings(evidence=BUNDLE, state_dir=tmp_path, fail_open=True)).block


def test_evidence_from_inv_context_and_verification_recorded_when_named(tmp_path: Path, env: dict[str, str]) -> None:
    context = tmp_path / "inv_context.json"
    original = {"investigation_id": "INV-1", "evidence_bundle": os.path.relpath(BUNDLE, tmp_path),
                "confirmed_facts": ["x"], "verification": {"status": "pending", "reviewer": "jdoe"}}
    context.write_text(json.dumps(original, indent=2), encoding="utf-8")
    code, out, _ = hook(payload("Stop", tmp_path, last_assistant_message=BAD_VERSION + "\n"), env, "--context", "inv_context.json")
    assert code == 0 and "c1 [contradicted]" in blocked(out)
    data = json.loads(context.read_text(encoding="utf-8"))
    assert {k: v for k, v in data.items() if k != "verification"} == {k: v for k, v in original.items() if k != "verification"}
    assert data["verification"]["status"] == "BLOCKED" and data["verification"]["reviewer"] == "jdoe"


def test_context_inside_the_bundle_is_read_not_written(tmp_path: Path, make_bundle: Any) -> None:
    bundle = make_bundle({"env.log": "product: XSOAR\n", "inv_context.json": '{"environment": {"product": "XSOAR"}}'})
    before = (bundle / "inv_context.json").read_bytes()
    raw = json.dumps(payload("Stop", bundle, last_assistant_message="The product is XSOAR (env:product=XSOAR)."))
    assert run_hook(raw, HookSettings(state_dir=tmp_path)).render() == ""  # bundle = the context's folder
    assert (bundle / "inv_context.json").read_bytes() == before


def test_long_reasons_stay_under_the_limit(tmp_path: Path) -> None:
    text = "\n".join(f"- Claim {i} says the vendor returned HTTP 5{i % 10}3 'error {i}' (demisto.log:{9000 + i})." for i in range(400))
    answer = run_hook(json.dumps(payload("Stop", tmp_path, last_assistant_message=text)), HookSettings(evidence=BUNDLE, state_dir=tmp_path))
    assert answer.block and len(answer.render()) < 10_000 and len(answer.reason) < MAX_REASON_CHARS + 200
    assert "more failed claims not listed here" in answer.reason and "Ways forward" in answer.reason


def test_one_line_message_naming_a_file_is_text_not_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "findings.md").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    raw = json.dumps(payload("Stop", tmp_path, last_assistant_message="## Findings in findings.md"))
    answer = run_hook(raw, HookSettings(evidence=BUNDLE, state_dir=tmp_path))
    assert answer.block  # the message itself has no verified claim; the file was not read in its place


# -- parsing details ---------------------------------------------------------------------------
def test_payload_fields_are_parsed_defensively(tmp_path: Path) -> None:
    event = parse_payload(json.dumps({"hook_event_name": "Stop", "stop_hook_active": "yes", "cwd": str(tmp_path),
                                      "transcript_path": "t.jsonl", "last_assistant_message": 5, "tool_input": []}))
    assert event.is_stop and event.stop_hook_active is False and event.last_assistant_message is None
    assert event.transcript_path == tmp_path / "t.jsonl" and event.tool_input == {}


def test_last_assistant_text_picks_the_last_message_with_text(tmp_path: Path) -> None:
    path = transcript(tmp_path / "t.jsonl", ["part one", "part two"], sidechain_final="side")
    assert last_assistant_text(path) == "part one\n\npart two"
    assert last_assistant_text(path, sidechain=True) == "side"
    with path.open("a", encoding="utf-8") as fh:  # a later tool-only message does not hide the text
        fh.write("\n" + json.dumps(entry("assistant", [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}], "msg_01C")) + "\n")
    assert last_assistant_text(path) == "part one\n\npart two"


@pytest.mark.parametrize(("text", "expected"), [
    ("All done, the build is green.", False),
    ("## Root cause\nThe vendor throttled us.", True),
    ("The log shows it (demisto.log:298).", True),
    ("**Findings**: nothing cited yet", True),
])
def test_what_counts_as_findings(text: str, expected: bool) -> None:
    assert is_findings(text) is expected


# -- ClaimValidatorHook.trigger ----------------------------------------------------------------
def test_trigger_verdicts() -> None:
    gate = ClaimValidatorHook(threshold=0.9)
    ok = gate.trigger(["a"] * 10, 10, 0, 1.0, [])
    assert ok == {"passed": True, "confidence_delta": 0.1, "recommendations": []}
    low = gate.trigger(["a"] * 4, 3, 1, 0.75, ["demisto.log:4521", {"claim": "limit is 100/min", "reason": "no citation",
                                                                    "recovery": ["grep -rn '100' bundle/"]}])
    assert low["passed"] is False and low["confidence_delta"] == -0.15
    assert low["recommendations"] == [
        "Fix at least 1 of the 1 failed claims to reach the 90% threshold (now 75.0%)",
        "demisto.log:4521: correct this citation or cite evidence that shows the claim",
        "limit is 100/min (no citation): grep -rn '100' bundle/",
    ]
    none = gate.trigger([], 0, 0, 0.0, [])
    assert none["passed"] is False and none["confidence_delta"] == -0.9 and "No factual claims" in none["recommendations"][0]
    with pytest.raises(citeproof.ConfigError):
        gate.trigger([], 1, 0, 1.5, [])


def test_trigger_from_a_report_agrees_with_the_gate() -> None:
    report = citeproof.validate(EXAMPLE / "findings.md", BUNDLE)
    verdict = ClaimValidatorHook().from_report(report)
    assert verdict["passed"] is report.passed is False
    assert verdict["confidence_delta"] == round(0.667 - 0.9, 3)
    assert verdict["recommendations"][0] == "Fix at least 4 of the 5 failed claims to reach the 90% threshold (now 66.7%)"
    assert any(r.startswith("c7 (missing_evidence") for r in verdict["recommendations"])


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_confidence_delta_is_monotone_in_the_rate(a: float, b: float, threshold: float) -> None:
    gate = ClaimValidatorHook(threshold)
    low, high = sorted((a, b))
    assert gate.trigger(["x"], 1, 1, low, [])["confidence_delta"] <= gate.trigger(["x"], 1, 1, high, [])["confidence_delta"]
