"""Hostile bundles and hostile findings: clear reasons, never a crash, a hang, or a write outside."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import BundleError, ClaimStatus
from citeproof.cli import main
from citeproof.evidence import archive as archive_module

from .conftest import EXAMPLE

EXPECTED = {"c1": "verified", "c5": "contradicted", "c7": "missing_evidence", "c12": "uncited", "c15": "contradicted"}


def statuses(report: citeproof.Report) -> dict[str, str]:
    return {c.id: c.status.value for c in report.claims}


def _zip(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o120777 << 16)
            zf.writestr(info, target)
    return path


# -- archives as bundles -----------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".zip", ".tar", ".tar.gz", ".tgz"])
def test_archive_bundles_give_the_same_verdicts(tmp_path: Path, suffix: str) -> None:
    archive = tmp_path / f"bundle{suffix}"
    if suffix == ".zip":
        shutil.make_archive(str(tmp_path / "bundle"), "zip", EXAMPLE / "bundle")
    else:
        mode = "w" if suffix == ".tar" else "w:gz"
        with tarfile.open(archive, mode) as tf:
            tf.add(EXAMPLE / "bundle", arcname=".")
    report = citeproof.validate(EXAMPLE / "findings.md", archive)
    got = statuses(report)
    assert {k: got[k] for k in EXPECTED} == EXPECTED
    assert report.evidence_root == archive.as_posix()
    assert any(f"{archive.as_posix()}!/demisto.log" in r for r in report.recovery_options)


def test_archive_members_that_escape_are_not_unpacked(tmp_path: Path) -> None:
    outside = tmp_path / "evil.log"
    archive = _zip(tmp_path / "b.zip", {"app.log": b"2026-01-15 10:30:45 ERROR HTTP 429\n", "../evil.log": b"x\n",
                                         "/abs.log": b"y\n"}, links={"link.log": "/etc/passwd"})
    report = citeproof.validate("- HTTP 429 was logged (app.log:1).\n- It also said x (evil.log:1).\n", archive)
    assert statuses(report) == {"c1": "verified", "c2": "missing_evidence"}
    assert not outside.exists()
    joined = " ".join(report.warnings)
    assert "'..' path" in joined and "link" in joined


def test_tar_links_and_devices_are_not_unpacked(tmp_path: Path) -> None:
    path = tmp_path / "b.tar"
    with tarfile.open(path, "w") as tf:
        data = b"2026-01-15 10:30:45 ERROR HTTP 429\n"
        info = tarfile.TarInfo("app.log")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
        kinds = (("sym.log", tarfile.SYMTYPE), ("hard.log", tarfile.LNKTYPE), ("dev", tarfile.CHRTYPE), ("fifo", tarfile.FIFOTYPE))
        for name, kind in kinds:
            member = tarfile.TarInfo(name)
            member.type = kind
            member.linkname = "/etc/passwd"
            tf.addfile(member)
    report = citeproof.validate("- HTTP 429 was logged (app.log:1).\n- See sym.log:1 for more.\n", path)
    assert statuses(report) == {"c1": "verified", "c2": "missing_evidence"}
    assert sum("not unpacked" in w for w in report.warnings) == 4


def test_decompression_bomb_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bomb = _zip(tmp_path / "bomb.zip", {"zeros.log": b"\0" * (40 * 1024 * 1024)})
    with pytest.raises(BundleError, match="decompression bomb"):
        citeproof.validate("- HTTP 429 (zeros.log:1).\n", bomb)
    code = main(["check", str(EXAMPLE / "findings.md"), "--evidence", str(bomb)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(bomb) in err and "archive_max_ratio" in err


def test_archive_limits_are_configurable(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "many.zip", {f"f{i}.log": b"line\n" for i in range(5)})
    with pytest.raises(BundleError, match="archive_max_members"):
        citeproof.validate("- x (f1.log:1).\n", archive, archive_max_members=3)
    with pytest.raises(BundleError, match="archive_max_bytes"):
        citeproof.validate("- x (f1.log:1).\n", archive, archive_max_bytes=12)


def test_corrupt_archive_is_one_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04" + b"\x00" * 64)
    with pytest.raises(BundleError, match="cannot unpack archive"):
        citeproof.validate("- x (a.log:1).\n", broken)


def test_unpacked_files_are_removed_afterwards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Path] = []
    real = archive_module.private_dir

    def tracking() -> Path:
        made.append(real())
        return made[-1]

    monkeypatch.setattr("citeproof.evidence.bundle.private_dir", tracking)
    archive = _zip(tmp_path / "b.zip", {"app.log": b"2026-01-15 10:30:45 ERROR HTTP 429\n"})
    citeproof.validate("- HTTP 429 was logged (app.log:1).\n", archive)
    assert made and not any(p.exists() for p in made)


# -- files ---------------------------------------------------------------------------------------
def test_gzip_and_utf16_logs_are_read(make_bundle: Any) -> None:
    text = "first line\n2026-01-15 10:30:45 ERROR Rate limit exceeded\n"
    bundle = make_bundle({"a.log.gz": gzip.compress(text.encode()), "b.log": text.encode("utf-16"),
                          "c.log.gz": gzip.compress(text.encode("utf-16"))})
    report = citeproof.validate(
        "- It said 'Rate limit exceeded' (a.log.gz:2).\n- It said 'Rate limit exceeded' (b.log:2).\n"
        "- It said 'Rate limit exceeded' (c.log.gz:2).\n- Line 3 exists (b.log:3).\n"
        "- It was logged at timestamp:2026-01-15T10:30:45Z.\n", bundle)
    assert statuses(report) == {"c1": "verified", "c2": "verified", "c3": "verified", "c4": "missing_evidence", "c5": "verified"}
    assert "has 2 lines" in report.claims[3].reason


def test_invalid_utf8_binary_and_long_lines(make_bundle: Any) -> None:
    long_line = "2026-01-15 10:30:45 ERROR " + "x" * 90_000 + " needle-at-the-end\n"
    bundle = make_bundle({"bad.log": b"ok line\n\xff\xfe\xfa broken \xc3 bytes HTTP 500\n", "blob.log": b"\x00\x01\x02" * 100,
                          "long.log": long_line, "empty.log": b"", "crlf.log": b"a\r\nb HTTP 503"})
    report = citeproof.validate(
        "- The server failed with HTTP 500 (bad.log:2).\n- The blob shows an error (blob.log:1).\n"
        "- The long line ends with 'needle-at-the-end' (long.log:1).\n- The empty log has a line (empty.log:1).\n"
        "- The last line shows HTTP 503 (crlf.log:2).\n", bundle)
    got = statuses(report)
    assert got == {"c1": "verified", "c2": "missing_evidence", "c3": "verified", "c4": "missing_evidence", "c5": "verified"}
    assert "binary" in report.claims[1].reason
    assert "has 0 lines" in report.claims[3].reason
    assert len(report.claims[2].citations[0].excerpt or "") <= 2000


def test_malformed_json_and_har_give_the_parser_position(make_bundle: Any) -> None:
    bundle = make_bundle({"conf.json": '{"a": {"b": 1,}}', "cap.har": '{"log": {"entries": [ {"x": 1 ]}}',
                          "zero.har": json.dumps({"log": {"version": "1.2", "entries": []}})})
    report = citeproof.validate(
        "- The setting a.b is 1 (config:conf.json#a.b).\n- Entry 1 returned HTTP 200 (cap.har:entry-1).\n"
        "- Entry 1 returned HTTP 200 (zero.har:entry-1).\n", bundle)
    reasons = [c.reason for c in report.claims]
    assert [c.status.value for c in report.claims] == ["missing_evidence"] * 3
    assert "line 1 column" in reasons[0] and "not valid JSON" in reasons[0]
    assert "not valid JSON" in reasons[1]
    assert "has 0 entries" in reasons[2]


def test_huge_numbers_in_citations(make_bundle: Any) -> None:
    bundle = make_bundle({"app.log": "a\nb\n", "cap.har": json.dumps({"log": {"entries": []}})})
    report = citeproof.validate(
        "- A line (app.log:99999999999999999999).\n- A range (cap.har:entries-1-99999999999).\n"
        "- An entry (cap.har:entry-18446744073709551616).\n- A time at timestamp:99999-01-01T00:00:00Z.\n", bundle)
    assert [c.status.value for c in report.claims] == ["missing_evidence", "invalid_citation", "missing_evidence", "invalid_citation"]


# -- findings ------------------------------------------------------------------------------------
def test_a_single_huge_line_and_deep_nesting_finish(make_bundle: Any) -> None:
    bundle = make_bundle({"app.log": "2026-01-15 10:30:45 ERROR HTTP 429\n"})
    huge = "The server logged HTTP 429 (app.log:1) " + "a." * 100_000
    report = citeproof.validate(huge, bundle)
    assert report.total_claims >= 1
    nested = "\n".join("  " * i + "- level" for i in range(3000)) + "\n- HTTP 429 was logged (app.log:1).\n"
    assert citeproof.validate(nested, bundle).total_claims >= 1


def test_ten_thousand_citations(make_bundle: Any) -> None:
    bundle = make_bundle({"app.log": "".join(f"2026-01-15 10:30:{i % 60:02d} ERROR code {i}\n" for i in range(100))})
    text = "".join(f"- The server logged code {i % 100} (app.log:{i % 100 + 1}).\n" for i in range(10_000))
    report = citeproof.validate(text, bundle, use_cache=False)
    assert report.total_claims == 10_000 and report.verified_claims == 10_000


def test_findings_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_json = tmp_path / "claims.json"
    bad_json.write_text('{"claims": [42]}', encoding="utf-8")
    code = main(["check", str(bad_json), "--evidence", str(EXAMPLE / "bundle")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(bad_json) in err and "claim 1" in err
    code = main(["check", str(tmp_path), "--evidence", str(EXAMPLE / "bundle")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1


def test_tool_failures_raise_one_exception_type(tmp_path: Path) -> None:
    with pytest.raises(citeproof.CiteproofError):
        citeproof.validate("- x (a.log:1).\n", tmp_path / "missing")
    with pytest.raises(citeproof.CiteproofError):
        citeproof.validate("- x (a.log:1).\n", EXAMPLE / "bundle", threshold=7)
    assert ClaimStatus.VERIFIED.value == "verified"
