"""Readings added for the session-8 batches (issue 12), each with a right and a wrong claim, run end to end:
status grammars of log lines (HAProxy, key=value), numbers that are no HTTP status, stack-trace frames
that are no events, bare config durations, JIRA fields as attributes, empty fields against a positive
claim, numbers in words against a field, zones declared for a table, and sentences that only label."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from citeproof.extract import read_claims
from citeproof.support.facts import extract, is_status
from citeproof.zones import document_zone

from .conftest import CORPUS
from .test_support_readings import _bundle, _statuses

HAPROXY = ('Oct  3 10:46:42 lb01 haproxy[48812]: 203.0.113.45:49156 [03/Oct/2026:10:46:42.090] fe_https~ be_api/api03 '
           '0/0/1/-1/30002 504 198 - - sH-- 74/72/9/3/0 0/0 "GET /api/v1/products?page=11 HTTP/1.1"\n'
           'Oct  3 10:46:48 lb01 haproxy[48812]: 203.0.113.45:49043 [03/Oct/2026:10:46:48.942] fe_https~ be_api/api01 '
           '0/0/0/25/25 200 213 - - ---- 85/83/12/6/0 0/0 "GET /api/v1/orders/92636/status HTTP/1.1"\n')


def test_haproxy_status_field_refutes_an_absence_of_5xx(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path, {"haproxy.log": HAPROXY})
    assert _statuses("- No 5xx after 10:42 (haproxy.log:1-2).\n- No 5xx after 10:42 (haproxy.log:2).\n", bundle) == [
        "contradicted", "verified"]


def test_a_status_field_of_a_structured_line_is_read(tmp_path: Path) -> None:
    lines = '{"level":"info","msg":"request done","path":"/v1/pay","status":503}\n'
    bundle = _bundle(tmp_path, {"app.log": lines})
    assert _statuses("- /v1/pay returned HTTP 503 (app.log:1).\n- /v1/pay returned HTTP 502 (app.log:1).\n", bundle) == [
        "verified", "contradicted"]


@pytest.mark.parametrize(("text", "statuses"), [
    ("the video came back 206 Partial Content, 323,985 bytes of video/mp4", (206,)),  # a thousands group is no status
    ("260 responses were 200 OK and 42 were 302 redirects", (302, 200)),  # 260 is no HTTP status at all
    ("HTTP 260 was returned", (260,)),  # said to be a status: read as one, whatever the number
    ("13 503s and 2 429 responses", (503, 429)),
])
def test_only_registered_numbers_are_statuses_unless_said_to_be(text: str, statuses: tuple[int, ...]) -> None:
    assert extract(text, True).statuses == statuses
    assert is_status(503) and is_status(499) and not is_status(260) and not is_status(323)


def test_counts_of_each_status_are_not_a_universal_claim(tmp_path: Path) -> None:
    entries = [{"startedDateTime": f"2026-03-02T14:02:{i:02d}.000Z", "time": 10,
                "request": {"method": "GET", "url": f"https://example.test/{i}", "headers": []},
                "response": {"status": 302 if i < 2 else 200, "statusText": "", "headers": [], "content": {}}}
               for i in range(5)]
    bundle = _bundle(tmp_path, {"capture.har": json.dumps({"log": {"version": "1.2", "entries": entries}})})
    text = ("- Across all 5 entries, 3 responses were 200 OK and 2 were 302 redirects (capture.har:entries-1-5).\n"
            "- Across all 5 entries, 4 responses were 200 OK and 1 was a 302 redirect (capture.har:entries-1-5).\n")
    assert _statuses(text, bundle) == ["verified", "contradicted"]


def test_stack_trace_frames_are_not_events(tmp_path: Path) -> None:
    journal = ("Oct 06 10:46:58 render-01 app[48211]: Traceback (most recent call last):\n"
               'Oct 06 10:46:58 render-01 app[48211]:   File "/opt/app/consumer.py", line 94, in run\n'
               "Oct 06 10:46:58 render-01 app[48211]:     channel.start_consuming()\n"
               "Oct 06 10:46:58 render-01 app[48211]: KeyError: 'tax_region'\n"
               "Oct 06 10:46:59 render-01 systemd[1]: app.service: Main process exited, code=exited, status=1/FAILURE\n")
    bundle = _bundle(tmp_path, {"render.journal": journal})
    # the frame's "start_consuming()" is code: no "started" event stands against the crash (once it did)
    assert _statuses("- The render worker crashed on a KeyError (render.journal:1-5).\n"
                     "- The render worker exited cleanly (render.journal:1-5).\n", bundle) == ["verified", "unsupported"]


def test_a_bare_config_number_is_read_in_milliseconds_or_seconds(tmp_path: Path) -> None:
    config = "spring:\n  datasource:\n    hikari:\n      connection-timeout: 30000\n"
    bundle = _bundle(tmp_path, {"application.yaml": config})
    text = ("- The pool waits 30 seconds for a connection (config:application.yaml#spring.datasource.hikari.connection-timeout).\n"
            "- The pool waits 20 seconds for a connection (config:application.yaml#spring.datasource.hikari.connection-timeout).\n")
    assert _statuses(text, bundle) == ["verified", "unsupported"]  # a bare number has no unit to contradict it with


def _jira(tmp_path: Path, name: str, source: str) -> Path:
    if not (CORPUS / source).is_file():
        pytest.skip(f"public evidence corpus not found at {CORPUS} (set CITEPROOF_CORPUS)")
    (tmp_path / "jira").mkdir(exist_ok=True)
    shutil.copy(CORPUS / source, tmp_path / "jira" / name)
    return tmp_path


def test_jira_fields_are_attributes_of_the_ticket(tmp_path: Path) -> None:
    bundle = _jira(tmp_path, "TEST-1.json", "jira/jira-cli/issue.json")  # watches.watchCount is 1, created 14:05:20+0100
    text = ("- TEST-1 has one watcher (JIRA:TEST-1).\n"
            "- TEST-1 has two watchers (JIRA:TEST-1).\n"
            "- TEST-1 was created at 13:05 UTC (JIRA:TEST-1).\n"
            "- TEST-1 was created at 14:05 UTC (JIRA:TEST-1).\n")
    assert _statuses(text, bundle) == ["verified", "contradicted", "verified", "unsupported"]


def test_an_empty_field_denies_a_claim_that_there_is_one(tmp_path: Path) -> None:
    bundle = _jira(tmp_path, "SAMPLEPROJECT-1.json", "jira/jira-ruby/10002.json")  # fixVersions: []
    text = ("- No fix version was set on SAMPLEPROJECT-1 (JIRA:SAMPLEPROJECT-1).\n"
            "- SAMPLEPROJECT-1 already has a fix version set (JIRA:SAMPLEPROJECT-1).\n")
    assert _statuses(text, bundle) == ["verified", "unsupported"]


def test_a_table_zone_declared_in_a_sentence_applies_to_the_document() -> None:
    assert document_zone("Timeline.\n\nTimes in the table are CEST (UTC+2); the evidence itself is in UTC.") == "+02:00"
    assert document_zone("Response times are ABOVE the target.") is None


@pytest.mark.parametrize(("document", "claims"), [
    ("**What changed.** The ConfigMap was edited at 09:13:50 (a.log:1).\n", ["The ConfigMap was edited at 09:13:50 (a.log:1)."]),
    ("**sre-agent** · 10:52\n- the pod restarted at 10:31 (a.log:1)\n", ["the pod restarted at 10:31 (a.log:1)"]),
    ("Times are UTC unless marked CEST.\n\nThe pod restarted at 10:31 (a.log:1).\n", ["The pod restarted at 10:31 (a.log:1)."]),
    ("This write-up covers 01:45–02:45 UTC on pg-orders-1.\n\nCheers\n", []),
    ("I have not looked at the other CI systems.\n\nNext I would pull the release diff.\n", []),
    ("**Redis crashed at 10:31** and restarted at 10:32.\n", ["**Redis crashed at 10:31** and restarted at 10:32."]),
    ("I checked db-1 and it had 3 replicas.\n", ["I checked db-1 and it had 3 replicas."]),
])
def test_labels_meta_sentences_and_claims(document: str, claims: list[str]) -> None:
    assert [c.text for c in read_claims(document)] == claims
