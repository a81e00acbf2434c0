"""The CLI fuzzed end to end (hypothesis, fixed budget): hostile findings, bundles, configs and options never give
exit 3 (an internal error) and never a traceback; every refusal is exit 2 with one line on stderr.

Each example writes a findings file (Markdown made of the pieces agents and attackers write, or claims JSON),
a small bundle (a log, a HAR capture, a config, an env.log, a pattern database, a JIRA export; each either
well formed or arbitrary bytes), and maybe a config file, then runs ``citeproof check`` in-process.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeproof.cli import main

# CI runs the fixed, derandomized budget; CITEPROOF_FUZZ_EXAMPLES=N runs N fresh random examples (a longer hunt)
_HUNT = int(os.environ.get("CITEPROOF_FUZZ_EXAMPLES") or 0)
BUDGET = settings(max_examples=_HUNT or 400, deadline=None, derandomize=not _HUNT, database=None,
                  suppress_health_check=list(HealthCheck))
_ROOT = tempfile.mkdtemp(prefix="citeproof-cli-fuzz-")

# pieces of findings: citations in every format (right, wrong and malformed), facts, Markdown structure, junk
PIECES = [
    "app.log:1", "app.log:3-2", "app.log:0", "app.log:999999999999", "app.log:L2", "line 2 of app.log", "lines 1–3",
    "capture.har:entry-1", "capture.har:entry-0", "HAR entries 1, 2 and 99", "entry-2 to entry-1", "capture.har:entries-1-3",
    "timestamp:2026-01-15T10:30:45Z", "timestamp:2026-13-45T99:99:99Z", "timestamp:1970-01-01T00:00:00Z±5s",
    "config:app.yaml#db.pool.max", "config:db.pool.max=5", "config:../etc/passwd#x", "env:version", "env:version=5.4.1",
    "JIRA:OPS-1", "OPS-99999", "pattern:P-1", "pattern:", "[1]", "[^1]", "¹", "Sources:", "References:", "Source: app.log:2",
    "HTTP 429", "503s", "5xx", "all", "every", "none", "never", "no", "not", "only", "first", "3 of the 4 requests",
    "30 s", "5000 ms", "1.5 GiB", "2 GB", "10:30:45", "2:04 PM PT", "+08:00", "10:00-11:00 UTC", "v5.4.1", "10.0.0.1:8080",
    "`code`", "'quoted'", '"double"', "**bold**", "| a | b |", "|---|---|", "- ", "1. ", "# Heading", "> quote", "```",
    "Note: Unverified assumption -", "Hypothesis:", "Next I will", "?", "(", ")", "[", "]", ".", ",", ";", ":", "\n", "\n\n",
    "\t", " ", "\x00", "\x1b[31m", "\u202e", "ʼ", "é", "𝐀", "\ufeff", "../", "/etc/passwd", "%s%n", "{", "}", "\\",
]
FINDINGS = st.one_of(  # a seeded draw over all the pieces (hypothesis's own lists favour the first few)
    st.tuples(st.randoms(use_true_random=False), st.integers(0, 160), st.text(max_size=12)).map(
        lambda t: " ".join([*(t[0].choice(PIECES) for _ in range(t[1])), t[2]])),
    st.text(max_size=400),
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=15,
)
LOG_LINES = st.sampled_from([
    "2026-01-15 10:30:45 ERROR HTTP 429 Too Many Requests from vendor api",
    '203.0.113.7 - - [15/Jan/2026:10:30:46 +0000] "GET /a HTTP/1.1" 503 12 "-" "curl/8"',
    "Jan 15 10:30:47 host sshd[12]: Failed password for root from 198.51.100.2 port 22 ssh2",
    '{"ts":"2026-01-15T10:30:48Z","level":"error","msg":"pool exhausted","active":50}',
    "[2026/01/15 10:30:49.100 +08:00] [WARN] [raft.rs:1] [\"x\"]",
]) | st.text(max_size=80)


def _har(entries: list[tuple[int, str]]) -> str:
    return json.dumps({"log": {"version": "1.2", "entries": [
        {"startedDateTime": f"2026-01-15T10:30:{45 + i % 10}.000Z", "time": 12.5,
         "request": {"method": "GET", "url": f"https://api.example.com/{path}", "headers": []},
         "response": {"status": status, "statusText": "", "headers": [], "content": {"text": path}}}
        for i, (status, path) in enumerate(entries)]}})


BUNDLE = st.fixed_dictionaries({
    "app.log": st.lists(LOG_LINES, max_size=12).map(lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass"))
    | st.binary(max_size=300),
    "capture.har": st.lists(st.tuples(st.integers(100, 599), st.text(max_size=10)), max_size=5).map(lambda e: _har(e).encode())
    | st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()),
    "app.yaml": st.sampled_from([b"db:\n  pool:\n    max: 5\n", b"a: [1, {b: 2}]\n", b"&a [*a]\n", b"key: \"unterminated\n"])
    | st.binary(max_size=120),
    "env.log": st.lists(st.tuples(st.text(max_size=10), st.text(max_size=12)), max_size=5).map(
        lambda kv: "\n".join(f"{k}: {v}" for k, v in kv).encode("utf-8", "surrogatepass")),
    "patterns.json": JSON.map(lambda v: json.dumps({"patterns": [v]}).encode()) | st.binary(max_size=80),
    "jira.json": JSON.map(lambda v: json.dumps({"issues": [{"key": "OPS-1", "fields": v}]}).encode()),
})
OPTIONS = st.lists(st.sampled_from([
    ("--format", "json"), ("--format", "markdown"), ("--format", "html"), ("--format", "sarif"), ("--threshold", "0.5"),
    ("--threshold", "7"), ("--assume-tz", "+99:99"), ("--assume-tz", "Mars/Olympus"), ("--assume-tz", "+02:00"),
    ("--har-index-base", "0"), ("--max-unverified", "-1"), ("--format", "text"), ("--assume-tz", "UTC"),
]), max_size=2, unique_by=lambda o: o[0])


@BUDGET
@given(findings=FINDINGS, as_json=st.booleans(), bundle=BUNDLE,
       config=st.one_of(*[st.none()] * 6, st.binary(max_size=200), JSON.map(lambda v: json.dumps(v).encode())), options=OPTIONS)
def test_the_cli_never_fails_internally(findings: str, as_json: bool, bundle: dict[str, bytes], config: bytes | None,
                                        options: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    work = Path(tempfile.mkdtemp(dir=_ROOT))
    evidence = work / "bundle"
    evidence.mkdir()
    for name, data in bundle.items():
        (evidence / name).write_bytes(data)
    path = work / ("findings.json" if as_json else "findings.md")
    text = json.dumps({"claims": [{"id": f"C{i}", "text": part} for i, part in enumerate(findings.split("\n"))]}) if as_json \
        else findings
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    args = ["check", str(path), "--evidence", str(evidence), "--no-cache"]
    if config is not None:
        (work / "citeproof.yaml").write_bytes(config)
        args += ["--config", str(work / "citeproof.yaml")]
    for flag, value in options:
        args += [flag, value]
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (code, err[-400:])
    assert "Traceback" not in out + err
    if code == 2:
        assert err.strip() and len(err.strip().splitlines()) == 1, err
    else:
        assert out.strip(), "a report is written"
