"""Live JIRA over REST, against a real HTTP server on 127.0.0.1 serving recorded JIRA responses.

The recorded v2 and v3 issues come from the public corpus (../shared/corpus/jira, skipped when absent);
one v3 issue with ADF comments is our own. The token must never appear in any output.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof.cli import main
from citeproof.evidence.jira_live import JiraClient, JiraError, adf_text

TOKEN = "tok-S3CRET-9f8e7d6c5b4a"
NOT_FOUND = {"errorMessages": ["Issue does not exist or you do not have permission to see it."], "errors": {}}
OWN_V3 = {
    "key": "OPS-7",
    "fields": {
        "summary": "Vendor feed throttled",
        "status": {"name": "In Progress"},
        "created": "2026-01-15T10:40:00.000+0000",
        "description": {"type": "doc", "version": 1, "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": "AcmeThreatIntel answers "},
                                              {"type": "text", "text": "HTTP 429", "marks": [{"type": "code"}]}]},
            {"type": "bulletList", "content": [{"type": "listItem", "content": [
                {"type": "paragraph", "content": [{"type": "text", "text": "quota is 100 requests per minute"}]}]}]},
        ]},
        "comment": {"comments": [{"id": "1", "body": {"type": "doc", "version": 1, "content": [
            {"type": "paragraph", "content": [{"type": "mention", "attrs": {"id": "x", "text": "@jdoe"}},
                                              {"type": "text", "text": " raised polling_rate to 150"}]}]}}]},
    },
}


@dataclass
class Route:
    status: int
    body: Any
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    drip_s: float = 0.0  # send the body one byte at a time, this long apart


class FakeJira:
    """Serves ``routes[path]`` (a list of answers, the last one repeated) and records every request."""

    def __init__(self) -> None:
        self.routes: dict[str, list[Route]] = {}
        self.seen: list[tuple[str, str | None]] = []
        jira = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                jira.seen.append((self.path, self.headers.get("Authorization")))
                steps = jira.routes.get(self.path) or [Route(404, NOT_FOUND)]
                step = steps.pop(0) if len(steps) > 1 else steps[0]
                time.sleep(step.delay_s)
                body = json.dumps(step.body).encode() if not isinstance(step.body, bytes) else step.body
                try:
                    self.send_response(step.status)
                    for name, value in {"Content-Type": "application/json;charset=UTF-8", **step.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    if step.drip_s:
                        for i in range(len(body)):
                            self.wfile.write(body[i:i + 1])
                            self.wfile.flush()
                            time.sleep(step.drip_s)
                    else:
                        self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def issue(self, key: str, *answers: Route, version: int = 2) -> None:
        self.routes[f"/rest/api/{version}/issue/{key}"] = list(answers)


@pytest.fixture
def jira() -> Iterator[FakeJira]:
    fake = FakeJira()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


@pytest.fixture
def bundle(make_bundle: Any) -> Path:
    return make_bundle({"app.log": "2026-01-15 10:30:12 WARN vendor answered HTTP 429\n"})  # no JIRA exports


@pytest.fixture(autouse=True)
def _token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("JIRA_EMAIL", "JIRA_API_TOKEN", "JIRA_PERSONAL_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("JIRA_PERSONAL_TOKEN", TOKEN)


def recorded(corpus: Path, rel: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((corpus / "jira" / rel).read_text(encoding="utf-8"))
    return data


def check(findings: str, bundle: Path, url: str, **options: Any) -> citeproof.Report:
    return citeproof.validate(findings + "\n", bundle, jira_url=url, use_cache=False, **{"jira_retries": 2, **options})


def test_v2_issue_with_bearer_token(jira: FakeJira, bundle: Path, corpus: Path) -> None:
    jira.issue("SAMPLEPROJECT-1", Route(200, recorded(corpus, "jira-ruby/10002.json")))
    report = check("The Sample Issue task tracks it (JIRA:SAMPLEPROJECT-1).\nIt is the Sample Issue again (JIRA:SAMPLEPROJECT-1).",
                   bundle, jira.url)
    [first, second] = report.claims
    assert first.status.value == "verified", first.reason
    assert first.citations[0].location == f"{jira.url}/browse/SAMPLEPROJECT-1"
    assert first.citations[0].excerpt == "SAMPLEPROJECT-1: Sample Issue"
    assert second.status.value == "verified"
    assert jira.seen == [("/rest/api/2/issue/SAMPLEPROJECT-1", f"Bearer {TOKEN}")]  # fetched once per run
    check("The Sample Issue task (JIRA:SAMPLEPROJECT-1).", bundle, jira.url)
    assert len(jira.seen) == 2  # the cache lives for one run only


def test_v3_cloud_basic_auth_and_adf(jira: FakeJira, bundle: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIRA_EMAIL", "agent@example.com")
    monkeypatch.setenv("JIRA_API_TOKEN", TOKEN)
    jira.issue("TEST-1", Route(200, recorded(corpus, "jira-cli/issue.json")), version=3)
    jira.issue("OPS-7", Route(200, OWN_V3), version=3)
    report = check("The bug has a test description (JIRA:TEST-1).\nThe vendor quota is 100 requests per minute (JIRA:OPS-7).\n"
                   "jdoe raised polling_rate to 150 (JIRA:OPS-7).", bundle, jira.url, jira_api_version=3)
    assert [c.status.value for c in report.claims] == ["verified", "verified", "verified"], [c.reason for c in report.claims]
    basic = "Basic " + base64.b64encode(f"agent@example.com:{TOKEN}".encode()).decode()
    assert {auth for _, auth in jira.seen} == {basic}


def test_adf_flattening() -> None:
    description = OWN_V3["fields"]["description"]
    assert adf_text(description) == "AcmeThreatIntel answers HTTP 429\nquota is 100 requests per minute"
    assert adf_text("plain v2 text") == "plain v2 text"
    assert adf_text({"type": "doc", "content": [{"type": "paragraph", "content": [
        {"type": "text", "text": "a"}, {"type": "hardBreak"}, {"type": "emoji", "attrs": {"shortName": ":fire:"}}]}]}) == "a\n:fire:"


def test_not_found_is_missing_evidence(jira: FakeJira, bundle: Path) -> None:
    report = check("The outage is tracked in a ticket (JIRA:OPS-404).", bundle, jira.url)
    [claim] = report.claims
    assert claim.status.value == "missing_evidence"
    assert f"nor in the live JIRA ({jira.url}/browse/OPS-404 not found)" in claim.reason


def test_5xx_is_retried(jira: FakeJira, bundle: Path) -> None:
    jira.issue("OPS-7", Route(503, {"message": "busy"}), Route(502, b"<html>bad gateway</html>"), Route(200, OWN_V3))
    client = JiraClient(jira.url, backoff_s=0.01)
    assert client.issue("OPS-7") is not None and len(jira.seen) == 3
    jira.issue("OPS-8", Route(500, {"message": "down"}))
    with pytest.raises(JiraError, match=r"JIRA answered HTTP 500 for .*/rest/api/2/issue/OPS-8 after 3 tries"):
        JiraClient(jira.url, backoff_s=0.01).issue("OPS-8")


def test_timeout_is_retried_then_reported(jira: FakeJira, bundle: Path) -> None:
    jira.issue("OPS-9", Route(200, OWN_V3, delay_s=1.5))
    started = time.monotonic()
    report = check("The outage is tracked (JIRA:OPS-9).", bundle, jira.url, jira_timeout_s=0.2, jira_retries=1)
    assert time.monotonic() - started < 5
    [claim] = report.claims
    assert claim.status.value == "missing_evidence" and "after 2 tries: timed out" in claim.reason
    assert len(jira.seen) == 2


def test_auth_failure_is_reported_without_the_token(jira: FakeJira, bundle: Path) -> None:
    jira.issue("OPS-7", Route(401, {"errorMessages": ["You are not authenticated."]}))
    [claim] = check("The outage is tracked (JIRA:OPS-7).", bundle, jira.url).claims
    assert "JIRA refused" in claim.reason and "HTTP 401" in claim.reason and TOKEN not in claim.reason
    assert len(jira.seen) == 1  # not retried


def test_authorization_is_not_forwarded_on_redirect(jira: FakeJira) -> None:
    jira.issue("OPS-7", Route(302, {}, headers={"Location": f"{jira.url}/moved/OPS-7"}))
    jira.routes["/moved/OPS-7"] = [Route(200, OWN_V3)]
    assert JiraClient(jira.url).issue("OPS-7") is not None
    assert jira.seen == [("/rest/api/2/issue/OPS-7", f"Bearer {TOKEN}"), ("/moved/OPS-7", None)]


def test_token_never_printed(jira: FakeJira, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jira.issue("OPS-7", Route(200, OWN_V3))
    jira.issue("OPS-8", Route(403, NOT_FOUND))
    findings = tmp_path / "findings.md"
    findings.write_text("- The quota is 100 requests per minute (JIRA:OPS-7).\n- Another ticket (JIRA:OPS-8).\n", encoding="utf-8")
    config = tmp_path / "eg.yaml"
    config.write_text(f"jira_url: {jira.url}\nuse_cache: false\n", encoding="utf-8")
    outputs = []
    for fmt in ("text", "json", "markdown", "sarif", "html"):
        code = main(["check", str(findings), "--evidence", str(bundle), "--config", str(config), "-f", fmt])
        out, err = capsys.readouterr()
        assert code == 1
        outputs.append(out + err)
    assert "JIRA refused" in outputs[1] and "HTTP 403" in outputs[1]
    config.write_text(f"jira_url: http://agent:{TOKEN}@127.0.0.1:9/\n", encoding="utf-8")  # credentials in the URL
    assert main(["check", str(findings), "--evidence", str(bundle), "--config", str(config)]) == 2
    out, err = capsys.readouterr()
    outputs.append(out + err)
    assert "must not hold credentials" in err
    with pytest.raises(JiraError) as caught:
        JiraClient(f"http://agent:{TOKEN}@127.0.0.1:9")
    outputs += [str(caught.value), repr(JiraClient(jira.url))]
    assert all(TOKEN not in text for text in outputs)


def test_only_http_urls() -> None:
    with pytest.raises(JiraError, match="must be http"):
        JiraClient("file:///etc/passwd")
    with pytest.raises(citeproof.ConfigError, match="jira_url"):
        citeproof.make_options(jira_url="ftp://jira.example.com")


def _check_has(option: str) -> bool:
    from citeproof.cli import check as check_command

    return any(p.name == option for p in check_command.params)


@pytest.mark.skipif(not _check_has("jira_url"), reason="`check --jira-url` is not registered in cli.py yet")
def test_check_jira_url_option(jira: FakeJira, bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jira.issue("OPS-7", Route(200, OWN_V3))
    findings = tmp_path / "findings.md"
    findings.write_text("- The vendor quota is 100 requests per minute (JIRA:OPS-7).\n", encoding="utf-8")
    assert main(["check", str(findings), "--evidence", str(bundle), "--jira-url", jira.url, "-f", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["claims"][0]["citations"][0]["location"] == f"{jira.url}/browse/OPS-7"
    assert TOKEN not in out
    assert main(["check", str(findings), "--evidence", str(bundle), "--jira-url", jira.url, "-f", "json"]) == 0
    capsys.readouterr()
    assert len(jira.seen) == 2  # no verdict kept between runs while live JIRA is on


def test_a_dripping_server_is_cut_off_at_the_request_deadline(jira: FakeJira, bundle: Path) -> None:
    """One byte every 0.2 s keeps every socket read alive; the deadline is for the whole answer."""
    jira.issue("OPS-9", Route(200, OWN_V3, drip_s=0.2))
    started = time.monotonic()
    report = check("The outage is tracked (JIRA:OPS-9).", bundle, jira.url, jira_timeout_s=1.0, jira_retries=0)
    assert time.monotonic() - started < 5
    [claim] = report.claims
    assert claim.status.value == "missing_evidence" and "timed out" in claim.reason


def test_all_lookups_share_one_run_deadline(jira: FakeJira, bundle: Path) -> None:
    for n in range(1, 5):
        jira.issue(f"OPS-{n}", Route(200, OWN_V3, delay_s=3.0))
    findings = "\n".join(f"- Incident {n} is tracked (JIRA:OPS-{n})." for n in range(1, 5))
    started = time.monotonic()
    report = check(findings, bundle, jira.url, jira_timeout_s=1.0, jira_retries=1, jira_run_timeout_s=2.5)
    assert time.monotonic() - started < 4.5
    assert all(c.status.value == "missing_evidence" for c in report.claims)
    assert any("took longer than 2.5 s in all" in c.reason for c in report.claims)


@pytest.mark.parametrize("fields", [[1], "abc", 5])
def test_an_answer_whose_fields_are_not_an_object_is_not_an_issue(jira: FakeJira, bundle: Path, fields: Any) -> None:
    jira.issue("OPS-9", Route(200, {"key": "OPS-9", "fields": fields}))
    [claim] = check("The outage is tracked (JIRA:OPS-9).", bundle, jira.url, jira_retries=0).claims
    assert claim.status.value == "missing_evidence" and "'fields' is not an object" in claim.reason
