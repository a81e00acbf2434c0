"""Regressions from the code review: each case once gave a wrong verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import FindingsError
from citeproof.cli import main

from .conftest import EXAMPLE

BUNDLE = EXAMPLE / "bundle"


def status(text: str, bundle: Path = BUNDLE, **options: Any) -> list[str]:
    return [c.status.value for c in citeproof.validate(text, bundle, **options).claims]


def test_numbers_that_name_the_cited_item_are_not_facts() -> None:
    assert status("- Entry 33 returned HTTP 200 (capture.har:entry-33).\n"
                  "- Line 349 shows the rate limit error (demisto.log:349).\n"
                  "- Request 14 was throttled with HTTP 429 (capture.har:entry-14).\n") == ["verified"] * 3


def test_ports_are_part_of_the_identifier() -> None:
    # demisto.log:399 evicts a connection to 203.0.113.45:443
    assert status("- The pool evicted an idle connection to 203.0.113.45:8443 (demisto.log:399).\n") == ["unsupported"]
    assert status("- The pool evicted an idle connection to 203.0.113.45:443 (demisto.log:399).\n") == ["verified"]


def test_zone_names_and_twelve_hour_clocks() -> None:
    assert status("- The integration logged 'Rate limit exceeded' at 11:30:45 CET (demisto.log:349).\n") == ["verified"]
    assert status("- The integration logged 'Rate limit exceeded' at 10:30:45 PM (demisto.log:349).\n") == ["unsupported"]
    assert status("- The integration logged 'Rate limit exceeded' at 10:30:45 AM (demisto.log:349).\n") == ["verified"]


def test_versions_of_two_things_are_not_a_factual_contradiction() -> None:
    report = citeproof.validate("- The XSOAR version is 8.9.0-2464525 (env:version).\n"
                                   "- The integration version is 1.4.2 according to the vendor.\n", BUNDLE)
    assert [f.rule for f in report.contradiction_findings] == []


def test_a_sending_rate_next_to_a_limit_is_not_the_limit() -> None:
    report = citeproof.validate(
        "- The vendor answered HTTP 429 Too Many Requests (capture.har:entry-11).\n"
        "- Polling resumed at 90 requests per minute after the backoff.\n"
        "- The integration was sending 150 requests per minute, above the vendor limit of 100 requests per minute.\n",
        BUNDLE,
    )
    assert [f.rule for f in report.contradiction_findings] == []


def test_a_table_row_number_is_not_part_of_the_claim() -> None:
    table = ("| # | Finding | Evidence |\n|---|---|---|\n"
             "| 3 | The vendor quota is 100 requests per minute | `config:vendor_api.rate_limit_per_minute` |\n")
    report = citeproof.validate(table, BUNDLE)
    assert [c.status.value for c in report.claims] == ["verified"] and not report.claims[0].claim.startswith("3")


def test_a_timestamp_alone_does_not_verify_an_unrelated_claim() -> None:
    assert status("- The TLS certificate expired at timestamp:2026-01-15T10:30:45Z.\n") == ["unsupported"]
    assert status("- The rate limit was exceeded at timestamp:2026-01-15T10:30:45Z.\n") == ["verified"]


def test_sizes_read_from_the_key(make_bundle: Any) -> None:
    bundle = make_bundle({"env.log": "product: XSOAR\njvm_heap_max: 8g\nmemory_gb: 64\ncpu_cores: 16\n"})
    assert status("- The JVM heap maximum is 64 GB (env:jvm_heap_max).\n", bundle) == ["contradicted"]
    assert status("- The JVM heap maximum is 8 GB (env:jvm_heap_max).\n", bundle) == ["verified"]
    assert status("- The JVM heap maximum is 8192 MB (env:jvm_heap_max).\n", bundle) == ["verified"]


def test_universal_claims_hold_for_every_cited_line(make_bundle: Any) -> None:
    bundle = make_bundle({"access.log": (
        '1.1.1.1 - - [17/May/2015:10:05:03 +0000] "GET /misc/Title.php.txt HTTP/1.1" 500 10 "-" "x"\n'
        '1.1.1.2 - - [17/May/2015:10:05:04 +0000] "GET /misc/Title.php.txt HTTP/1.1" 500 10 "-" "x"\n'
        '1.1.1.3 - - [17/May/2015:10:05:05 +0000] "OPTIONS /projects/xdotool/ HTTP/1.1" 500 10 "-" "x"\n')})
    assert status("- All three 500s were for /misc/Title.php.txt (access.log:1, access.log:2, access.log:3).\n", bundle) == [
        "unsupported"]
    assert status("- Both 500s were for /misc/Title.php.txt (access.log:1, access.log:2).\n", bundle) == ["verified"]


def test_time_of_day_citations_are_utc(make_bundle: Any) -> None:
    har = {"log": {"entries": [{"startedDateTime": "2015-02-21T19:15:37.909-08:00", "time": 5,
                                "request": {"method": "GET", "url": "http://cnn.com/"},
                                "response": {"status": "301", "statusText": "Moved Permanently"}}]}}
    bundle = make_bundle({"cnn.har": json.dumps(har)})
    assert status("- cnn.com redirected with HTTP 301 at time:03:15:37 (cnn.har:entry-1).\n", bundle) == ["verified"]
    assert status("- cnn.com redirected at time:19:15:37.\n", bundle) == ["missing_evidence"]
    assert status("- cnn.com redirected at time:19:15:37.\n", bundle, assume_tz="-08:00") == ["verified"]


def test_structured_findings_shape_errors() -> None:
    with pytest.raises(FindingsError, match="must be a list"):
        citeproof.validate('{"validated_claims": [{"claim": "x (demisto.log:1)"}], "non_validated_claims": "oops"}', BUNDLE)
    with pytest.raises(FindingsError, match="used twice"):
        citeproof.validate('[{"id": "a", "claim": "x"}, {"id": "a", "claim": "y"}]', BUNDLE)
    with pytest.raises(FindingsError, match="do not parse"):
        citeproof.validate("[" * 10_000, BUNDLE)


def test_binary_findings_are_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blob = tmp_path / "bin.md"
    blob.write_bytes(bytes(range(256)) * 40)
    assert main(["check", str(blob), "--evidence", str(BUNDLE)]) == 2
    assert "not text" in capsys.readouterr().err


def test_space_before_the_line_marker() -> None:
    assert status("- The integration logged 'Rate limit exceeded' (demisto.log L349).\n") == ["verified"]


def test_one_line_findings_longer_than_a_file_name_are_text(tmp_path: Path) -> None:
    """A one-line JSON findings document over 255 bytes was taken for a path and crashed with 'File name too long'."""
    (tmp_path / "app.log").write_text("2026-03-02T14:02:11Z ERROR upstream returned 503\n", encoding="utf-8")
    claims = [{"claim": f"The upstream returned HTTP 503 at 14:02:11 ({'x' * 10} run {n}) (app.log:1).", "citations": ["app.log:1"]}
              for n in range(6)]
    text = json.dumps({"claims": claims})
    assert "\n" not in text and 255 < len(text) < 4096
    report = citeproof.validate(text, tmp_path, use_cache=False)
    assert report.total_claims == 6
