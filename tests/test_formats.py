"""The seven citation formats (SPEC §4) and the claim statuses they lead to (SPEC §7).

Every format gets a passing case, a malformed case (``format_valid`` false -> ``invalid_citation``),
a not-found case (``missing_evidence``) and, where the format checks content, a mismatching case
(``unsupported``). Bundles are tiny and built per test with ``make_bundle``.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import ClaimResult, ClaimStatus, Report, Verdict

# A fixed "validation time" so that 2026 evidence is never "in the future" and results never drift.
NOW = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)

VERIFIED = ClaimStatus.VERIFIED
UNCITED = ClaimStatus.UNCITED
INVALID = ClaimStatus.INVALID_CITATION
MISSING = ClaimStatus.MISSING_EVIDENCE
UNSUPPORTED = ClaimStatus.UNSUPPORTED
CONTRADICTED = ClaimStatus.CONTRADICTED
# The cited evidence shows something else (e.g. a HAR entry that returned 200 for a claimed 429): SPEC §5 calls the
# claim unsupported, SPEC §6 rule 4 flags it as an evidence contradiction; either way it must not be verified.
REFUTED = (UNSUPPORTED, CONTRADICTED)


def check(findings: str, bundle: Path, **options: Any) -> Report:
    options.setdefault("now", NOW)
    return citeproof.validate(findings, bundle, **options)


def only(report: Report) -> ClaimResult:
    assert len(report.claims) == 1, [c.claim for c in report.claims]
    return report.claims[0]


def claim(findings: str, bundle: Path, **options: Any) -> ClaimResult:
    return only(check(findings, bundle, **options))


def code(result: ClaimResult, check: str) -> str:
    """The stable code of the named support check's verdict on the claim."""
    codes = {v.check: v.code for v in result.checks}
    assert check in codes, f"no verdict of support check {check!r} in {list(codes)}"
    return codes[check]


def sub(result: ClaimResult, name: str, index: int = 0) -> bool | None:
    """The outcome of the named sub-check of the claim's ``index``-th citation."""
    checks = {c.name: c.ok for c in result.citations[index].checks}
    assert name in checks, f"no sub-check {name!r} in {list(checks)}"
    return checks[name]


# =================================================================================================
# 1. file:line
# =================================================================================================
APP_LOG = (
    "2026-01-15T10:30:40Z INFO integration started\n"
    "2026-01-15T10:30:45Z ERROR Rate limit exceeded for tenant acme\n"
    "2026-01-15T10:30:46Z WARN retrying request after backoff\n"
    "2026-01-15T10:30:50Z INFO integration recovered\n"
)


@pytest.fixture
def logs(make_bundle):  # type: ignore[no-untyped-def]
    return make_bundle(
        {
            "app.log": APP_LOG,
            "sub/dir/app.log": "2026-01-15T09:00:00Z ERROR worker pool exhausted\n",
            "logs/worker.log": "2026-01-15T09:10:00Z ERROR queue consumer crashed\n",
            "crlf.log": b"alpha started\r\nbeta failed\r\ngamma stopped",
            "empty.log": "",
        }
    )


def test_file_line_single_line_verified(logs: Path) -> None:
    report = check("The vendor API answered 'Rate limit exceeded' (app.log:2).", logs)
    result = only(report)
    assert result.status is VERIFIED
    cit = result.citations[0]
    assert cit.citation == "app.log:2"
    assert cit.citation_format == "file:line"
    assert (cit.format_valid, cit.citation_exists, cit.evidence_supports) == (True, True, True)
    assert cit.excerpt == "2: 2026-01-15T10:30:45Z ERROR Rate limit exceeded for tenant acme"
    assert sub(result, "line_in_range") is True
    assert report.status is Verdict.PASSED
    assert report.verification_rate == 1.0


@pytest.mark.parametrize("ref", ["app.log:2-3", "app.log#L2-L3", "app.log:L2-L3"])
def test_file_line_range_variants_verified(logs: Path, ref: str) -> None:
    result = claim(f"The integration logged 'Rate limit exceeded' and then 'retrying request' ({ref}).", logs)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "file:line"
    assert cit.excerpt is not None
    assert cit.excerpt.splitlines()[0].startswith("2: ") and cit.excerpt.splitlines()[1].startswith("3: ")
    assert len(cit.excerpt.splitlines()) == 2


@pytest.mark.parametrize("ref", ["app.log:L2", "app.log#L2"])
def test_file_line_l_prefix_variants(logs: Path, ref: str) -> None:
    result = claim(f"The vendor API answered 'Rate limit exceeded' ({ref}).", logs)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].excerpt == "2: 2026-01-15T10:30:45Z ERROR Rate limit exceeded for tenant acme"


def test_file_line_relative_path_in_subdirectory(logs: Path) -> None:
    result = claim("The worker reported 'pool exhausted' (sub/dir/app.log:1).", logs)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "sub/dir/app.log:1"
    # the root app.log line 1 does not hold that text: the sub-directory file was read
    assert "pool exhausted" in (result.citations[0].excerpt or "")


def test_file_line_unique_basename_resolves(logs: Path) -> None:
    result = claim("The consumer logged 'queue consumer crashed' (worker.log:1).", logs)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "logs/worker.log:1"


def test_file_line_ambiguous_basename(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"a/x.log": "disk full on node a\n", "b/x.log": "disk full on node b\n"})
    result = claim("The node reported 'disk full' (x.log:1).", bundle)
    assert result.status is MISSING
    assert result.citations[0].format_valid is True
    assert result.citations[0].citation_exists is False
    assert "ambiguous" in result.reason
    assert "a/x.log" in result.reason and "b/x.log" in result.reason


def test_file_line_zero_is_invalid(logs: Path) -> None:
    result = claim("The vendor API answered 'Rate limit exceeded' (app.log:0).", logs)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False
    assert "start at 1" in result.reason


def test_file_line_range_ending_before_start_is_invalid(logs: Path) -> None:
    result = claim("The vendor API answered 'Rate limit exceeded' (app.log:3-2).", logs)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False
    assert "3-2" in result.reason


def test_file_line_past_end_of_file(logs: Path) -> None:
    result = claim("The vendor API answered 'Rate limit exceeded' (app.log:9).", logs)
    assert result.status is MISSING
    cit = result.citations[0]
    assert (cit.format_valid, cit.citation_exists) == (True, False)
    assert "line 9" in cit.reason and "4 lines" in cit.reason
    assert sub(result, "line_in_range") is False


def test_file_line_range_running_past_end(logs: Path) -> None:
    result = claim("The integration logged 'integration recovered' (app.log:3-7).", logs)
    assert result.status is MISSING
    assert "4 lines" in result.reason


def test_file_line_missing_file(logs: Path) -> None:
    result = claim("The vendor API answered 'Rate limit exceeded' (server.log:2).", logs)
    assert result.status is MISSING
    assert "not in the evidence bundle" in result.reason


def test_file_line_crlf_without_final_newline(logs: Path) -> None:
    last = claim("The gamma service logged 'gamma stopped' (crlf.log:3).", logs)
    assert last.status is VERIFIED, last.reason
    assert last.citations[0].excerpt == "3: gamma stopped"
    both = claim("The services logged 'alpha started' and 'beta failed' (crlf.log:1-2).", logs)
    assert both.status is VERIFIED, both.reason
    assert both.citations[0].excerpt == "1: alpha started\n2: beta failed"
    assert "\r" not in (both.citations[0].excerpt or "")
    past = claim("The gamma service logged 'gamma stopped' (crlf.log:4).", logs)
    assert past.status is MISSING
    assert "3 lines" in past.reason


def test_file_line_empty_file(logs: Path) -> None:
    result = claim("The service logged 'Rate limit exceeded' (empty.log:1).", logs)
    assert result.status is MISSING
    assert "0 lines" in result.reason


def test_file_line_utf8_bom_and_invalid_bytes(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"bom.log": b"\xef\xbb\xbfRate limit exceeded\n", "bad.log": b"ok \xff\xfe then Rate limit exceeded\n"})
    bom = claim("The vendor API answered 'Rate limit exceeded' (bom.log:1).", bundle)
    assert bom.status is VERIFIED, bom.reason
    assert bom.citations[0].excerpt == "1: Rate limit exceeded"
    bad = claim("The vendor API answered 'Rate limit exceeded' (bad.log:1).", bundle)
    assert bad.status is VERIFIED, bad.reason


def test_file_line_binary_file(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"core.dump": b"\x7fELF\x00\x01\x02 Rate limit exceeded\n"})
    result = claim("The process dumped 'Rate limit exceeded' (core.dump:1).", bundle)
    assert result.status is MISSING
    assert "binary" in result.reason


def test_file_line_rotated_log(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"server.log.1": "old line\nRate limit exceeded\n"})
    result = claim("The vendor API answered 'Rate limit exceeded' (server.log.1:2).", bundle)
    assert result.status is VERIFIED, result.reason


def test_file_line_utf16_log(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"u16.log": "first line\nRate limit exceeded\n".encode("utf-16")})
    result = claim("The vendor API answered 'Rate limit exceeded' (u16.log:2).", bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].excerpt == "2: Rate limit exceeded"
    past = claim("The vendor API answered 'Rate limit exceeded' (u16.log:3).", bundle)
    assert past.status is MISSING


def test_file_line_gzip_log(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"app.log.gz": gzip.compress(b"first line\nRate limit exceeded\n")})
    result = claim("The vendor API answered 'Rate limit exceeded' (app.log.gz:2).", bundle)
    assert result.status is VERIFIED, result.reason


def test_file_line_quote_on_another_line_gets_suggestion(logs: Path) -> None:
    result = claim("The vendor API answered 'Rate limit exceeded' (app.log:4).", logs)
    assert result.status is UNSUPPORTED
    cit = result.citations[0]
    assert (cit.format_valid, cit.citation_exists, cit.evidence_supports) == (True, True, False)
    assert "Rate limit exceeded" in result.reason
    assert cit.suggestion == "app.log:2"
    assert any("app.log:2" in r for r in result.recovery)


def test_file_line_status_not_on_cited_line_is_unsupported(logs: Path) -> None:
    result = claim("The vendor API returned HTTP 500 errors (app.log:2).", logs)
    assert result.status is UNSUPPORTED
    assert "500" in result.reason


def test_file_line_en_dash_range(logs: Path) -> None:
    result = claim("The integration logged 'Rate limit exceeded' and then 'retrying request' (app.log:2–3).", logs)
    assert result.status is VERIFIED, result.reason


@pytest.mark.parametrize(("ref", "word"), [("../outside.log:1", "'..'"), ("/tmp/outside.log:1", "absolute path")])
def test_file_line_outside_the_bundle_is_rejected(logs: Path, ref: str, word: str) -> None:
    (logs.parent / "outside.log").write_text("secret Rate limit exceeded\n", encoding="utf-8")
    result = claim(f"The vendor API answered 'Rate limit exceeded' ({ref}).", logs)
    assert result.status is MISSING
    assert word in result.reason and "outside the bundle" in result.reason
    assert result.citations[0].excerpt is None


def test_file_line_symlink_escaping_the_bundle(logs: Path) -> None:
    outside = logs.parent / "outside.log"
    outside.write_text("secret Rate limit exceeded\n", encoding="utf-8")
    (logs / "link.log").symlink_to(outside)
    report = check("The vendor API answered 'Rate limit exceeded' (link.log:1).", logs)
    result = only(report)
    assert result.status is MISSING
    assert "symlink" in result.reason and "outside the bundle" in result.reason
    assert any("link.log" in w and "symlink" in w for w in report.warnings)


@pytest.mark.parametrize(
    "text",
    [
        "Line 2 of app.log shows 'Rate limit exceeded'.",
        "The app.log line 2 shows 'Rate limit exceeded'.",
        "Lines 2–3 in app.log show 'Rate limit exceeded'.",
    ],
)
def test_file_line_prose_variants(logs: Path, text: str) -> None:
    result = claim(text, logs)
    assert [c.citation_format for c in result.citations] == ["file:line"]
    assert result.status is VERIFIED


# =================================================================================================
# 2. har:entry
# =================================================================================================
def har_entry(status: int, status_text: str, url: str, started: str, error: str | None = None) -> dict[str, Any]:
    response: dict[str, Any] = {
        "status": status,
        "statusText": status_text,
        "httpVersion": "HTTP/1.1",
        "headers": [{"name": "Content-Type", "value": "application/json"}],
        "content": {"size": 0, "mimeType": "application/json", "text": ""},
    }
    if error:
        response["_error"] = error
    return {
        "startedDateTime": started,
        "time": 12.5,
        "request": {"method": "GET", "url": url, "httpVersion": "HTTP/1.1", "headers": []},
        "response": response,
        "timings": {"send": 1, "wait": 10, "receive": 1.5},
    }


def har(*entries: dict[str, Any]) -> str:
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": list(entries)}})


CAPTURE = har(
    har_entry(429, "Too Many Requests", "https://api.vendor.example/v1/incidents", "2026-01-15T10:31:01.000Z"),
    har_entry(200, "OK", "https://api.vendor.example/v1/health", "2026-01-15T10:31:02.000Z"),
    har_entry(429, "Too Many Requests", "https://api.vendor.example/v1/incidents", "2026-01-15T10:31:03.000Z"),
    har_entry(429, "Too Many Requests", "https://api.vendor.example/v1/incidents", "2026-01-15T10:31:04.000Z"),
    har_entry(503, "Service Unavailable", "https://api.vendor.example/v1/incidents", "2026-01-15T10:31:05.000Z"),
)


@pytest.fixture
def hars(make_bundle):  # type: ignore[no-untyped-def]
    return make_bundle(
        {
            "capture.har": CAPTURE,
            "data.har": json.dumps({"version": 1, "items": []}),
            "broken.har": '{"log": {"entries": [ {"request": ',
        }
    )


def test_har_entry_one_based_by_default(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 Too Many Requests (capture.har:entry-1).", hars)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "har:entry"
    assert cit.excerpt is not None
    assert "GET https://api.vendor.example/v1/incidents -> 429 Too Many Requests @ 2026-01-15T10:31:01.000Z" in cit.excerpt
    assert sub(result, "has_status") is True


def test_har_entry_index_base_zero(hars: Path) -> None:
    first = claim("The vendor API returned HTTP 429 (capture.har:entry-0).", hars, har_index_base=0)
    assert first.status is VERIFIED, first.reason
    second = claim("The health check returned HTTP 200 (capture.har:entry-1).", hars, har_index_base=0)
    assert second.status is VERIFIED, second.reason
    # the same entry-0 with the default 1-based numbering is malformed
    default = claim("The vendor API returned HTTP 429 (capture.har:entry-0).", hars)
    assert default.status is INVALID
    assert default.citations[0].format_valid is False


def test_har_entry_list(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (capture.har:entries-1,3).", hars)
    assert result.status is VERIFIED, result.reason
    excerpt = result.citations[0].excerpt or ""
    assert len(excerpt.splitlines()) == 2
    assert "10:31:01" in excerpt and "10:31:03" in excerpt and "10:31:02" not in excerpt


def test_har_entry_range(hars: Path) -> None:
    ok = claim("The vendor API returned HTTP 429 (capture.har:entries-3-4).", hars)
    assert ok.status is VERIFIED, ok.reason
    assert len((ok.citations[0].excerpt or "").splitlines()) == 2
    # entries 1-3 include entry 2, a 200: the claim does not hold for every cited entry
    mixed = claim("The vendor API returned HTTP 429 (capture.har:entries-1-3).", hars)
    assert mixed.status in REFUTED
    assert "200" in mixed.reason
    assert len((mixed.citations[0].excerpt or "").splitlines()) == 3


def test_har_entry_range_backwards_is_invalid(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (capture.har:entries-4-2).", hars)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False


def test_har_entry_does_not_exist(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (capture.har:entry-6).", hars)
    assert result.status is MISSING
    assert "entry 6" in result.reason and "5 entries" in result.reason
    assert sub(result, "entries_exist") is False


def test_har_entry_status_mismatch_is_refuted(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (capture.har:entry-2).", hars)
    assert result.status in REFUTED
    assert result.validated is False
    assert "200" in result.reason
    cit = result.citations[0]
    assert (cit.format_valid, cit.citation_exists, cit.evidence_supports) == (True, True, False)


def test_har_entry_in_file_that_is_not_a_har(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (data.har:entry-1).", hars)
    assert result.status is MISSING
    assert "not a HAR" in result.reason
    assert sub(result, "is_har") is False


def test_har_entry_malformed_json(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (broken.har:entry-1).", hars)
    assert result.status is MISSING
    assert "not valid JSON" in result.reason


def test_har_entry_missing_file(hars: Path) -> None:
    result = claim("The vendor API returned HTTP 429 (other.har:entry-1).", hars)
    assert result.status is MISSING
    assert "other.har" in result.reason


@pytest.mark.parametrize("ref", ["capture.har:entry 1", "capture.har#entry-1", "capture.har:entries-1, 3"])
def test_har_entry_spelling_variants(hars: Path, ref: str) -> None:
    result = claim(f"The vendor API returned HTTP 429 ({ref}).", hars)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].citation_format == "har:entry"


def test_har_entry_failed_request_and_body(make_bundle) -> None:  # type: ignore[no-untyped-def]
    failed = har_entry(0, "", "https://expired.example/x.css", "2026-01-15T10:31:01.000Z", error="net::ERR_INSECURE_RESPONSE")
    body = har_entry(200, "OK", "https://api.vendor.example/v1/quota", "2026-01-15T10:31:02.000Z")
    body["response"]["content"]["text"] = '{"error": "quota exhausted"}'
    no_status = har_entry(200, "OK", "https://api.vendor.example/v1/x", "2026-01-15T10:31:03.000Z")
    del no_status["response"]["status"]
    bundle = make_bundle({"other.har": har(failed, body, no_status)})
    assert claim("The stylesheet failed with 'net::ERR_INSECURE_RESPONSE' (other.har:entry-1).", bundle).status is VERIFIED
    assert claim("The API body said 'quota exhausted' (other.har:entry-2).", bundle).status is VERIFIED
    assert claim("The API body said 'quota restored' (other.har:entry-2).", bundle).status is UNSUPPORTED
    result = claim("The API call completed (other.har:entry-3).", bundle)
    assert result.status is MISSING
    assert "no HTTP response status" in result.reason


def test_har_entry_count_refuted(hars: Path) -> None:
    result = claim("The vendor API returned 3 HTTP 429 errors (capture.har:entries-1,3).", hars)
    assert result.status in REFUTED
    two = claim("The vendor API returned 2 HTTP 429 errors (capture.har:entries-1,3).", hars)
    assert two.status is VERIFIED, two.reason


def test_har_entry_wrong_host_is_refuted(hars: Path) -> None:
    result = claim("The host backup.vendor.example returned HTTP 429 (capture.har:entry-1).", hars)
    assert result.status in REFUTED
    right = claim("The host api.vendor.example returned HTTP 429 (capture.har:entry-1).", hars)
    assert right.status is VERIFIED, right.reason


@pytest.mark.parametrize(
    "text",
    [
        "Entry 1 of capture.har returned HTTP 429.",
        "HAR entries 1, 3 returned HTTP 429.",
    ],
)
def test_har_entry_prose_variants(make_bundle, text: str) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"capture.har": CAPTURE, "app.log": APP_LOG}, name="one_har")
    result = claim(text, bundle)
    assert [c.citation_format for c in result.citations] == ["har:entry"]
    assert result.status is VERIFIED, result.reason


def test_har_entry_prose_without_file_is_ambiguous_with_several_hars(hars: Path) -> None:
    result = claim("HAR entries 1, 3 returned HTTP 429.", hars)
    assert result.status is MISSING
    assert "ambiguous" in result.reason


# =================================================================================================
# 3. timestamp
# =================================================================================================
def test_timestamp_found_in_iso_log(logs: Path) -> None:
    result = claim("The first rate-limit error was logged at timestamp:2026-01-15T10:30:45Z.", logs)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "timestamp"
    assert cit.citation == "timestamp:2026-01-15T10:30:45Z"
    assert cit.location == "app.log:2"
    assert sub(result, "in_evidence") is True


@pytest.mark.parametrize("tol", ["±5s", "+/-5s", "±5000ms"])
def test_timestamp_with_tolerance_found(logs: Path, tol: str) -> None:
    result = claim(f"The retries happened around 10:30:48 (timestamp:2026-01-15T10:30:48Z{tol}).", logs)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].citation == f"timestamp:2026-01-15T10:30:48Z{tol}"


@pytest.mark.parametrize("text", ["The retries happened at timestamp:2026-01-15T10:30:48Z±5s.",
                                  "The retries happened at timestamp:2026-01-15T10:30:48Z ±5s."])
def test_timestamp_with_tolerance_at_sentence_end(logs: Path, text: str) -> None:
    result = claim(text, logs)
    assert result.status is VERIFIED, result.reason


def test_timestamp_default_window_is_one_second(logs: Path) -> None:
    # nearest lines are 10:30:46 and 10:30:50: 2 s away, outside the default ±1 s
    result = claim("The retries happened at timestamp:2026-01-15T10:30:48Z.", logs)
    assert result.status is MISSING
    assert "±1s" in result.reason
    wider = claim("The retries happened at timestamp:2026-01-15T10:30:48Z.", logs, default_time_window_s=3)
    assert wider.status is VERIFIED, wider.reason


def test_timestamp_time_of_day(logs: Path) -> None:
    found = claim("The rate-limit error was logged at time:10:30:45.", logs)
    assert found.status is VERIFIED, found.reason
    assert found.citations[0].citation_format == "timestamp"
    absent = claim("The rate-limit error was logged at time:11:45:00.", logs)
    assert absent.status is MISSING


def test_timestamp_bare_instant_in_claim(logs: Path) -> None:
    result = claim("The integration recovered at 2026-01-15T10:30:50Z.", logs)
    assert [c.citation_format for c in result.citations] == ["timestamp"]
    assert result.status is VERIFIED, result.reason


@pytest.mark.parametrize(
    ("name", "line", "cited"),
    [
        ("apache_error.log", "[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok\n", "2005-12-04T04:47:44Z"),
        ("auth.log", "Jan 15 10:30:45 combo sshd[4211]: Failed password for root\n", "2026-01-15T10:30:45Z"),
        ("access.log", '10.0.0.1 - - [15/Jan/2026:10:30:45 +0200] "GET /api HTTP/1.1" 429 12\n', "2026-01-15T08:30:45Z"),
        ("hdfs.log", "260115 103045 148 INFO dfs.DataNode: Receiving block blk_1\n", "2026-01-15T10:30:45Z"),
        ("hadoop.log", "2026-01-15 10:30:45,978 INFO [main] org.apache.hadoop.Service: started\n", "2026-01-15T10:30:45Z"),
        ("offset.log", "2026-01-15T12:30:45.250+02:00 ERROR upstream reset\n", "2026-01-15T10:30:45Z"),
    ],
)
def test_timestamp_log_formats(make_bundle, name: str, line: str, cited: str) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({name: "filler line without a time\n" + line + "another filler line\n"})
    result = claim(f"The event was logged at timestamp:{cited}.", bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == f"{name}:2"


def test_timestamp_clf_offset_compared_as_instant(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"access.log": '10.0.0.1 - - [15/Jan/2026:10:30:45 +0200] "GET /api HTTP/1.1" 429 12\n'})
    # 10:30:45 +0200 is 08:30:45Z; reading the wall-clock time as UTC is two hours off
    wrong = claim("The event was logged at timestamp:2026-01-15T10:30:45Z.", bundle)
    assert wrong.status is MISSING
    same = claim("The event was logged at timestamp:2026-01-15T10:30:45+02:00.", bundle)
    assert same.status is VERIFIED, same.reason


def test_timestamp_epoch_seconds_in_json_lines(make_bundle) -> None:  # type: ignore[no-untyped-def]
    lines = [
        {"ts": 1768473040, "level": "info", "msg": "poll started"},
        {"ts": 1768473045, "level": "error", "msg": "rate limit exceeded"},  # 2026-01-15T10:30:45Z
        {"ts": 1768473060, "level": "info", "msg": "poll finished"},
    ]
    bundle = make_bundle({"events.jsonl": "".join(json.dumps(x) + "\n" for x in lines)})
    result = claim("The rate-limit event was logged at timestamp:2026-01-15T10:30:45Z.", bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "events.jsonl:2"
    absent = claim("The rate-limit event was logged at timestamp:2026-01-15T10:30:52Z.", bundle)
    assert absent.status is MISSING


def test_timestamp_epoch_millis_in_json_lines(make_bundle) -> None:  # type: ignore[no-untyped-def]
    lines = [
        {"ts": 1768473040000, "msg": "poll started"},
        {"ts": 1768473045123, "msg": "rate limit exceeded"},
        {"ts": 1768473060000, "msg": "poll finished"},
    ]
    bundle = make_bundle({"events.jsonl": "".join(json.dumps(x) + "\n" for x in lines)})
    result = claim("The rate-limit event was logged at timestamp:2026-01-15T10:30:45Z.", bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "events.jsonl:2"


def test_timestamp_in_har_started_date_time(make_bundle) -> None:  # type: ignore[no-untyped-def]
    capture = har(har_entry(429, "Too Many Requests", "https://api.vendor.example/v1/x", "2026-01-15T12:30:45.500+02:00"))
    bundle = make_bundle({"capture.har": capture})
    result = claim("The throttled request started at timestamp:2026-01-15T10:30:45Z.", bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "capture.har entry 1"
    absent = claim("The throttled request started at timestamp:2026-01-15T12:30:45Z.", bundle)
    assert absent.status is MISSING


@pytest.mark.parametrize(
    "value", ["2026-01-15T12:30:45+02:00", "2026-01-15T05:30:45-05:00", "2026-01-15T10:30:45.500Z", "2026-01-15T10:30:45,500Z"]
)
def test_timestamp_offsets_and_fractions_in_citation(logs: Path, value: str) -> None:
    result = claim(f"The first rate-limit error was logged at timestamp:{value}.", logs)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "app.log:2"


def test_timestamp_apache_ctime_year_is_respected(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"error_log": "[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok\n"})
    assert claim("The worker started at timestamp:2005-12-04T04:47:44Z.", bundle).status is VERIFIED
    assert claim("The worker started at timestamp:2006-12-04T04:47:44Z.", bundle).status is MISSING


def test_timestamp_naive_log_times_use_assume_tz(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"hadoop.log": "2026-01-15 10:30:45,978 INFO [main] org.apache.hadoop.Service: started\n"})
    text_utc, text_local = ("The service started at timestamp:2026-01-15T10:30:45Z.",
                            "The service started at timestamp:2026-01-15T08:30:45Z.")
    assert claim(text_utc, bundle).status is VERIFIED
    assert claim(text_local, bundle).status is MISSING
    assert claim(text_local, bundle, assume_tz="+02:00").status is VERIFIED
    assert claim(text_utc, bundle, assume_tz="+02:00").status is MISSING


def test_timestamp_time_of_day_in_har(hars: Path) -> None:
    result = claim("The third throttled call started at time:10:31:03.", hars)
    assert result.status is VERIFIED, result.reason
    # entries start one second apart: with the default ±1 s window the first hit is entry 2 or 3
    assert result.citations[0].location in ("capture.har entry 2", "capture.har entry 3")
    assert claim("The third throttled call started at time:10:35:00.", hars).status is MISSING


def test_timestamp_before_1990_is_invalid(logs: Path) -> None:
    result = claim("The outage began at timestamp:1985-06-01T00:00:00Z.", logs)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False
    assert "1990" in result.reason


def test_timestamp_in_the_future_is_invalid(logs: Path) -> None:
    text = "The outage began at timestamp:2026-12-25T00:00:00Z."
    future = claim(text, logs, now=dt.datetime(2026, 11, 30, tzinfo=dt.UTC))
    assert future.status is INVALID
    assert "future" in future.reason
    # the same instant, validated later, is well-formed (and simply not in this bundle)
    later = claim(text, logs, now=dt.datetime(2027, 1, 1, tzinfo=dt.UTC))
    assert later.status is MISSING


@pytest.mark.parametrize("value", ["2026-13-45T99:00:00Z", "2026-02-30T10:00:00Z", "yesterday"])
def test_timestamp_malformed_is_invalid(logs: Path, value: str) -> None:
    result = claim(f"The outage began at timestamp:{value}.", logs)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False
    assert result.citations[0].citation_format == "timestamp"


def test_timestamp_malformed_time_of_day_is_invalid(logs: Path) -> None:
    result = claim("The outage began at time:25:61:00.", logs)
    assert result.status is INVALID


# =================================================================================================
# 4. pattern
# =================================================================================================
PATTERNS = json.dumps(
    {
        "version": "2026-01",
        "patterns": [
            {
                "id": "P-127",
                "name": "Vendor API rate limiting",
                "description": "The vendor API answers HTTP 429 Too Many Requests when polled too often",
                "keywords": ["rate limit", "throttling", "429"],
                "confidence": "high",
            },
            {"id": "P-200", "name": "Disk full", "description": "No space left on device", "confidence": "medium"},
            {"id": "P-300", "name": "Certificate expiry", "description": "The TLS certificate expired"},
        ],
    }
)


@pytest.fixture
def patterns(make_bundle):  # type: ignore[no-untyped-def]
    # the log shows P-127's symptoms verbatim ("rate limit", "throttling", "429")
    log = "2026-01-15T10:30:45Z WARN vendor throttling: rate limit reached (HTTP 429)\n"
    return make_bundle({"cappy-cache_latest.json": PATTERNS, "vendor.log": log})


@pytest.mark.parametrize("ref", ["pattern:P-127", "pattern_database:P-127"])
def test_pattern_found_and_matches(patterns: Path, ref: str) -> None:
    report = check(f"The failures match the known rate limiting behaviour ({ref}).", patterns)
    result = only(report)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "pattern"
    assert "P-127" in (cit.excerpt or "")
    assert code(result, "patterns") == "pattern.matches"
    assert not [w for w in report.warnings if "confidence" in w]


def test_pattern_missing(patterns: Path) -> None:
    result = claim("The failures match the known rate limiting behaviour (pattern:P-999).", patterns)
    assert result.status is MISSING
    assert "P-999" in result.reason


def test_pattern_malformed_id(patterns: Path) -> None:
    result = claim("The failures match the known rate limiting behaviour (pattern:127).", patterns)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False
    assert "127" in result.reason


def test_pattern_sharing_no_terms_is_unsupported(patterns: Path) -> None:
    result = claim("The database replica filled its volume (pattern:P-127).", patterns)
    assert result.status is UNSUPPORTED
    assert code(result, "patterns") == "pattern.unrelated"


def test_pattern_without_confidence_warns(patterns: Path) -> None:
    report = check("The TLS certificate expired on the proxy (pattern:P-300).", patterns)
    assert only(report).status is VERIFIED
    assert any("P-300" in w and "confidence" in w for w in report.warnings), report.warnings


def test_pattern_symptom_found_case_insensitively(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"cappy-cache_latest.json": PATTERNS, "app.log": APP_LOG})
    result = claim("The failures match the known rate limiting behaviour (pattern:P-127).", bundle)
    assert result.status is VERIFIED, result.reason


def test_pattern_whose_symptoms_are_not_in_the_evidence(make_bundle) -> None:  # type: ignore[no-untyped-def]
    # Issue 3: a pattern supports a claim only when its symptoms occur in the bundle's evidence,
    # not merely in the claim's wording.
    bundle = make_bundle({"cappy-cache_latest.json": PATTERNS})
    result = claim("The failures match the known rate limiting behaviour (pattern:P-127).", bundle)
    assert result.status is UNSUPPORTED, result.reason
    assert "symptoms" in result.reason and "occur in the bundle" in result.reason


def test_pattern_without_database(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"app.log": APP_LOG})
    result = claim("The failures match the known rate limiting behaviour (pattern:P-127).", bundle)
    assert result.status is MISSING
    assert "pattern database" in result.reason


@pytest.mark.parametrize(
    "text",
    ["The failures are P-127 (rate limiting).", "The throttling matches Pattern P-127 from database."],
)
def test_pattern_prose_variants(patterns: Path, text: str) -> None:
    result = claim(text, patterns)
    assert [c.citation_format for c in result.citations] == ["pattern"]
    assert result.status is VERIFIED


# =================================================================================================
# 5. jira
# =================================================================================================
XSUP_1 = json.dumps(
    {
        "id": "10001",
        "key": "XSUP-1",
        "fields": {
            "summary": "Vendor API rate limiting breaks incident fetching",
            "description": "The vendor answers 429 when the integration polls too often.",
            "comment": {"comments": [{"body": "Customer confirms throttling during business hours."}]},
            "status": {"name": "Open"},
        },
    }
)
SEARCH = json.dumps(
    {
        "startAt": 0,
        "maxResults": 50,
        "total": 2,
        "issues": [
            {"key": "CAC-12345", "fields": {"summary": "Disk quota exceeded on the worker node", "description": None}},
            {"key": "CAC-12346", "fields": {"summary": "Slow dashboard rendering", "description": None}},
        ],
    }
)


@pytest.fixture
def tickets(make_bundle):  # type: ignore[no-untyped-def]
    return make_bundle({"jira/XSUP-1.json": XSUP_1, "jira/search.json": SEARCH})


@pytest.mark.parametrize("ref", ["JIRA:XSUP-1", "ticket:XSUP-1", "issue:XSUP-1", "jira:XSUP-1"])
def test_jira_found_and_relates(tickets: Path, ref: str) -> None:
    result = claim(f"The vendor rate limiting is a known problem ({ref}).", tickets)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "jira"
    assert cit.excerpt == "XSUP-1: Vendor API rate limiting breaks incident fetching"
    assert code(result, "tickets") == "ticket.related"


def test_jira_relates_through_comment(tickets: Path) -> None:
    result = claim("The customer saw throttling (JIRA:XSUP-1).", tickets)
    assert result.status is VERIFIED, result.reason


def test_jira_key_in_search_result_export(tickets: Path) -> None:
    result = claim("The disk quota problem on the worker is already tracked (issue:CAC-12345).", tickets)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "jira/search.json#CAC-12345"


def test_jira_missing_key(tickets: Path) -> None:
    result = claim("The vendor rate limiting is a known problem (JIRA:XSUP-2).", tickets)
    assert result.status is MISSING
    assert "XSUP-2" in result.reason


def test_jira_invalid_key(tickets: Path) -> None:
    result = claim("The vendor rate limiting is a known problem (JIRA:utf-8x).", tickets)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False
    assert "utf-8x" in result.reason


def test_jira_unrelated_ticket_is_unsupported(tickets: Path) -> None:
    result = claim("The certificate on the proxy expired yesterday (JIRA:XSUP-1).", tickets)
    assert result.status is UNSUPPORTED
    assert code(result, "tickets") == "ticket.unrelated"


def test_jira_lookalikes_are_not_tickets(tickets: Path) -> None:
    result = claim("The client negotiated HTTP-2 and sent UTF-8 payloads.", tickets)
    assert result.citations == []
    assert result.status is UNCITED


def test_jira_key_with_underscore_is_invalid(tickets: Path) -> None:
    result = claim("The vendor rate limiting is a known problem (JIRA:X_SUP-1).", tickets)
    assert result.status is INVALID


def test_jira_bare_key_of_known_project(tickets: Path) -> None:
    result = claim("XSUP-1 tracks the vendor rate limiting.", tickets)
    assert [c.citation_format for c in result.citations] == ["jira"]
    assert result.status is VERIFIED


def test_jira_bare_key_of_unknown_project_is_not_a_citation(tickets: Path) -> None:
    result = claim("ABC-12 tracks the vendor rate limiting.", tickets)
    assert result.citations == []
    assert result.status is UNCITED


def test_jira_bare_key_of_configured_project(tickets: Path) -> None:
    result = claim("SF-03896040 tracks the vendor rate limiting.", tickets, jira_projects=["SF"])
    assert [c.citation_format for c in result.citations] == ["jira"]
    assert result.status is MISSING


# =================================================================================================
# 6. config
# =================================================================================================
INTEGRATION_YAML = """\
integration:
  name: vendor-api
  timeout_ms: 30000
  polling_rate: 150
servers:
  - host: api.vendor.example
    port: 8443
  - host: backup.vendor.example
    port: 8444
"""


@pytest.fixture
def configs(make_bundle):  # type: ignore[no-untyped-def]
    return make_bundle(
        {
            "integration.yaml": INTEGRATION_YAML,
            "settings.json": json.dumps({"limits": {"burst": 5}, "labels": {"team.name": "sre"}}),
            "app.toml": '[cache]\nttl_s = 60\nbackend = "redis"\n',
            "legacy.ini": "[smtp]\nhost = mail.example.com\nport = 25\n",
            "broken.yaml": "a: [1, 2\nb: c: d\n",
        }
    )


def test_config_key_found(configs: Path) -> None:
    result = claim("The integration timeout is configured (config:integration.timeout_ms).", configs)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "config"
    assert cit.excerpt == "integration.yaml#integration.timeout_ms = 30000"
    assert code(result, "values") == "value.not_stated"


def test_config_key_in_named_file(configs: Path) -> None:
    result = claim("The integration timeout is configured (config:integration.yaml#integration.timeout_ms).", configs)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "integration.yaml#integration.timeout_ms"


def test_config_first_segment_names_the_file(configs: Path) -> None:
    result = claim("The integration polling rate is 150 requests/minute (config:integration.polling_rate).", configs)
    assert result.status is VERIFIED, result.reason
    assert code(result, "values") == "value.match"


def test_config_list_index(configs: Path) -> None:
    first = claim("The primary server host is api.vendor.example (config:servers[0].host).", configs)
    assert first.status is VERIFIED, first.reason
    assert first.citations[0].excerpt == "integration.yaml#servers[0].host = api.vendor.example"
    second = claim("The backup server port is 8444 (config:servers[1].port).", configs)
    assert second.status is VERIFIED, second.reason
    out = claim("The third server host is configured (config:servers[2].host).", configs)
    assert out.status is MISSING


def test_config_missing_key(configs: Path) -> None:
    result = claim("The integration retry count is configured (config:integration.retries).", configs)
    assert result.status is MISSING
    assert "retries" in result.reason
    assert sub(result, "key_exists") is False


def test_config_missing_named_file(configs: Path) -> None:
    result = claim("The integration timeout is configured (config:vendor.yaml#integration.timeout_ms).", configs)
    assert result.status is MISSING
    assert "vendor.yaml" in result.reason


def test_config_stated_value_with_units_matches(configs: Path) -> None:
    result = claim("The integration timeout is 30 seconds (config:integration.timeout_ms).", configs)
    assert result.status is VERIFIED, result.reason
    assert code(result, "values") == "value.match"


def test_config_stated_value_mismatch_is_contradicted(configs: Path) -> None:
    result = claim("The integration timeout is 10 seconds (config:integration.timeout_ms).", configs)
    assert result.status is CONTRADICTED
    assert "10" in result.reason and "30000" in result.reason
    assert code(result, "values") == "value.mismatch"


def test_config_explicit_value(configs: Path) -> None:
    ok = claim("The burst limit is 5 (config:limits.burst=5).", configs)
    assert ok.status is VERIFIED, ok.reason
    assert code(ok, "values") == "value.match"
    bad = claim("The burst limit is 7 (config:limits.burst=7).", configs)
    assert bad.status is CONTRADICTED
    assert "7" in bad.reason


@pytest.mark.parametrize("stated", ["30000 ms", "30s", "0.5 minutes"])
def test_config_stated_value_units_normalised(configs: Path, stated: str) -> None:
    result = claim(f"The integration timeout is {stated} (config:integration.timeout_ms).", configs)
    assert result.status is VERIFIED, result.reason


def test_config_explicit_value_with_unit(configs: Path) -> None:
    result = claim("The integration timeout is 30 seconds (config:integration.timeout_ms=30s).", configs)
    assert result.status is VERIFIED, result.reason


def test_config_json_quoted_dotted_key(configs: Path) -> None:
    result = claim('The owning team label is sre (config:settings.json#labels."team.name").', configs)
    assert result.status is VERIFIED, result.reason
    assert "= sre" in (result.citations[0].excerpt or "")


def test_config_toml(configs: Path) -> None:
    ok = claim("The cache TTL is 60 seconds (config:app.toml#cache.ttl_s).", configs)
    assert ok.status is VERIFIED, ok.reason
    bad = claim("The cache TTL is 2 minutes (config:app.toml#cache.ttl_s).", configs)
    assert bad.status is CONTRADICTED
    minute = claim("The cache TTL is 1 minute (config:app.toml#cache.ttl_s).", configs)
    assert minute.status is VERIFIED, minute.reason


def test_config_ini(configs: Path) -> None:
    ok = claim("The SMTP relay port is 25 (config:legacy.ini#smtp.port).", configs)
    assert ok.status is VERIFIED, ok.reason
    bad = claim("The SMTP relay port is 587 (config:legacy.ini#smtp.port).", configs)
    assert bad.status is CONTRADICTED


def test_config_unparseable_file(configs: Path) -> None:
    result = claim("The setting is configured (config:broken.yaml#a).", configs)
    assert result.status is MISSING
    assert "not valid YAML" in result.reason


def test_config_empty_key_path_is_invalid(configs: Path) -> None:
    result = claim("The setting is configured (config:integration.yaml#).", configs)
    assert result.status is INVALID
    assert result.citations[0].format_valid is False


@pytest.fixture
def envinfo(make_bundle):  # type: ignore[no-untyped-def]
    return make_bundle(
        {
            "env.log": "product: XSOAR\nversion: 8.9.0-2464525\nhostname: xsoar-prod-01\n",
            "about.json": json.dumps({"build_number": "2464525", "edition": "enterprise"}),
        },
        name="envinfo",
    )


def test_config_env_log_prefix(envinfo: Path) -> None:
    ok = claim("The platform version is 8.9.0-2464525 (env_log:version).", envinfo)
    assert ok.status is VERIFIED, ok.reason
    assert ok.citations[0].citation_format == "config"
    assert ok.citations[0].location == "env.log#version"
    bad = claim("The platform version is 8.8.0 (env_log:version).", envinfo)
    assert bad.status is CONTRADICTED
    missing = claim("The platform kernel is known (env_log:kernel).", envinfo)
    assert missing.status is MISSING


def test_config_about_info_prefix(envinfo: Path) -> None:
    ok = claim("The build number is 2464525 (about_info:build_number).", envinfo)
    assert ok.status is VERIFIED, ok.reason
    assert ok.citations[0].location == "about.json#build_number"
    bad = claim("The build number is 1234567 (about_info:build_number).", envinfo)
    assert bad.status is CONTRADICTED


# =================================================================================================
# 7. env
# =================================================================================================
ENV_LOG = "product: XSOAR\nversion: 8.9.0-2464525\nhostname: xsoar-prod-01\n"


def context(confirmed: bool | None, **env: str) -> str:
    environment: dict[str, Any] = dict(env)
    if confirmed is not None:
        environment["confirmed"] = confirmed
    return json.dumps({"environment": environment, "verification": {"status": "pending"}})


@pytest.fixture
def env_bundle(make_bundle):  # type: ignore[no-untyped-def]
    return make_bundle({"env.log": ENV_LOG, "inv_context.json": context(True, region="eu-west-1")}, name="env")


def test_env_exact_version(env_bundle: Path) -> None:
    report = check("The server version is 8.9.0-2464525 (env:version=8.9.0-2464525).", env_bundle)
    result = only(report)
    assert result.status is VERIFIED, result.reason
    cit = result.citations[0]
    assert cit.citation_format == "env"
    assert cit.excerpt == "env.log#version = 8.9.0-2464525"
    assert sub(result, "confirmed") is True
    assert not [w for w in report.warnings if "confirm" in w]


def test_env_version_prefix_on_component_boundary(env_bundle: Path) -> None:
    result = claim("The server version is 8.9 (env:version=8.9).", env_bundle)
    assert result.status is VERIFIED, result.reason


@pytest.mark.parametrize("stated", ["8.9.0-24", "8.8.0", "8.9.1", "9"])
def test_env_version_mismatch(env_bundle: Path, stated: str) -> None:
    result = claim(f"The server version is {stated} (env:version={stated}).", env_bundle)
    assert result.status is CONTRADICTED
    assert stated in result.reason
    assert code(result, "values") == "value.mismatch"


def test_env_value_is_case_insensitive(env_bundle: Path) -> None:
    result = claim("The product is xsoar (env:product=xsoar).", env_bundle)
    assert result.status is VERIFIED, result.reason
    bad = claim("The product is xsiam (env:product=xsiam).", env_bundle)
    assert bad.status is CONTRADICTED


def test_env_key_without_value(env_bundle: Path) -> None:
    result = claim("The hostname is xsoar-prod-01 (env:hostname).", env_bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].excerpt == "env.log#hostname = xsoar-prod-01"


def test_env_key_without_value_wrong_hostname_in_words(env_bundle: Path) -> None:
    result = claim("The hostname is xsoar-dev-02 (env:hostname).", env_bundle)
    assert result.status is UNSUPPORTED


def test_env_version_in_words_without_value(env_bundle: Path) -> None:
    ok = claim("The server version is 8.9.0-2464525 (env:version).", env_bundle)
    assert ok.status is VERIFIED, ok.reason
    bad = claim("The server version is 8.8.0 (env:version).", env_bundle)
    assert bad.status is CONTRADICTED


def test_env_key_from_inv_context(env_bundle: Path) -> None:
    result = claim("The tenant region is eu-west-1 (env:region=eu-west-1).", env_bundle)
    assert result.status is VERIFIED, result.reason
    assert result.citations[0].location == "inv_context.json#region"


def test_env_missing_key(env_bundle: Path) -> None:
    result = claim("The kernel is 5.15 (env:kernel=5.15).", env_bundle)
    assert result.status is MISSING
    assert "kernel" in result.reason


@pytest.mark.parametrize(("confirmed", "word"), [(False, "not confirmed"), (None, "no confirmation")])
def test_env_unconfirmed_environment_warns(make_bundle, confirmed: bool | None, word: str) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"env.log": ENV_LOG, "inv_context.json": context(confirmed, region="eu-west-1")})
    report = check("The product is XSOAR (env:product=XSOAR).", bundle)
    result = only(report)
    assert result.status is VERIFIED, result.reason
    assert sub(result, "confirmed") is None
    assert any(word in w for w in report.warnings), report.warnings


def test_env_without_environment_files(make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"app.log": APP_LOG})
    result = claim("The product is XSOAR (env:product=XSOAR).", bundle)
    assert result.status is MISSING
    assert "no environment metadata" in result.reason


# =================================================================================================
# Claims and their citations (SPEC §7)
# =================================================================================================
def test_claim_without_citation_is_uncited(logs: Path) -> None:
    report = check("The vendor throttled every request from the integration.", logs)
    result = only(report)
    assert result.status is UNCITED
    assert report.uncited_claims == 1
    assert report.uncited_claims_details == [result.claim]
    assert report.status is Verdict.BLOCKED
    assert report.verification_rate == 0.0


def test_claim_with_one_failing_citation_fails(logs: Path) -> None:
    missing = claim("The vendor API answered 'Rate limit exceeded' (app.log:2; app.log:99).", logs)
    assert missing.status is MISSING
    assert [c.citation_exists for c in missing.citations] == [True, False]
    invalid = claim("The vendor API answered 'Rate limit exceeded' (app.log:2; app.log:0).", logs)
    assert invalid.status is INVALID


def test_claim_with_mixed_formats_fails_on_the_refuted_one(logs: Path, make_bundle) -> None:  # type: ignore[no-untyped-def]
    bundle = make_bundle({"app.log": APP_LOG, "capture.har": CAPTURE}, name="mixed")
    ok = claim("The vendor API returned HTTP 429 and logged 'Rate limit exceeded' (app.log:2, capture.har:entry-1).", bundle)
    assert ok.status is VERIFIED, ok.reason
    bad = claim("The vendor API returned HTTP 429 and logged 'Rate limit exceeded' (app.log:2, capture.har:entry-2).", bundle)
    assert bad.status in REFUTED
    assert [c.citation_exists for c in bad.citations] == [True, True]


def test_report_rate_over_several_claims(logs: Path) -> None:
    findings = "\n".join(
        [
            "- The vendor API answered 'Rate limit exceeded' (app.log:2).",
            "- The integration logged 'integration recovered' (app.log:4).",
            "- The vendor API answered 'Rate limit exceeded' (app.log:9).",
        ]
    )
    report = check(findings, logs)
    assert [c.status for c in report.claims] == [VERIFIED, VERIFIED, MISSING]
    assert (report.total_claims, report.verified_claims) == (3, 2)
    assert report.verification_rate == pytest.approx(0.667, abs=1e-3)
    assert report.status is Verdict.BLOCKED
    assert check(findings, logs, threshold=0.6).status is Verdict.PASSED


def test_zero_claims_is_blocked(logs: Path) -> None:
    report = check("# Findings\n\nNext I will search the logs for the rate limit.\n", logs)
    assert report.claims == []
    assert report.status is Verdict.BLOCKED
    assert "no factual claims" in report.message


def test_unverified_observations_are_capped(logs: Path) -> None:
    verified = "- The vendor API answered 'Rate limit exceeded' (app.log:2).\n"
    one = check(verified + "- Note: Unverified assumption - the vendor lowered its quota.\n", logs)
    assert one.status is Verdict.PASSED
    assert [c.status for c in one.unverified_observations] == [ClaimStatus.UNVERIFIED_OBSERVATION]
    assert one.total_claims == 1
    many = verified + "".join(f"- Assumption: the vendor changed setting {i}.\n" for i in range(4))
    assert check(many, logs).status is Verdict.BLOCKED
    assert check(many, logs, max_unverified=4).status is Verdict.PASSED
