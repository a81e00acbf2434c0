"""Attacks on the bundle, the caches and the inputs (issue 13): no forged verdicts, no reads outside, no crash.

Each test drives the real entry point (``citeproof.cli.main`` or :func:`citeproof.validate`) and fails on
the code before the fix it guards.
"""

from __future__ import annotations

import errno
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import citeproof
from citeproof import ClaimStatus
from citeproof.cli import main
from citeproof.evidence import Bundle
from citeproof.evidence import access as access_module
from citeproof.evidence.cache import IndexCache, seal

LOG = "2026-01-15 10:30:45 ERROR HTTP 429 Too Many Requests from vendor api\n"
FINDINGS = "- The vendor API answered HTTP 429 Too Many Requests (app.log:1).\n"
SECRET = "password=hunter2 HTTP 429 Too Many Requests from vendor api\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.log"
    path.parent.mkdir()
    path.write_text(SECRET, encoding="utf-8")
    return path


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("CITEPROOF_CACHE_DIR", str(root))
    return root


def _findings(tmp_path: Path, text: str = FINDINGS) -> Path:
    path = tmp_path / "findings.md"
    path.write_text(text, encoding="utf-8")
    return path


# -- 1. files swapped or linked after the listing ---------------------------------------------------------


def test_a_file_swapped_for_a_symlink_after_listing_is_not_read(make_bundle: Any, secret: Path, tmp_path: Path) -> None:
    root = make_bundle({"app.log": LOG})
    with Bundle(root, use_cache=False) as bundle:
        (root / "app.log").unlink()
        (root / "app.log").symlink_to(secret)
        report = citeproof.validate(FINDINGS, bundle)
    claim = report.claims[0]
    assert claim.status is ClaimStatus.MISSING_EVIDENCE
    assert "symlink now" in claim.citations[0].reason
    assert "hunter2" not in report.model_dump_json()


def test_a_file_replaced_after_listing_is_not_read(make_bundle: Any, tmp_path: Path) -> None:
    root = make_bundle({"app.log": LOG})
    with Bundle(root, use_cache=False) as bundle:
        replacement = tmp_path / "new.log"
        replacement.write_text(SECRET, encoding="utf-8")
        os.replace(replacement, root / "app.log")
        report = citeproof.validate(FINDINGS, bundle)
    assert report.claims[0].status is ClaimStatus.MISSING_EVIDENCE
    assert "replaced since the bundle was listed" in report.claims[0].citations[0].reason
    assert "hunter2" not in report.model_dump_json()


def test_a_directory_swapped_for_a_link_outside_is_not_read(make_bundle: Any, secret: Path) -> None:
    root = make_bundle({"logs/secret.log": LOG})
    with Bundle(root, use_cache=False) as bundle:
        (root / "logs" / "secret.log").unlink()
        (root / "logs").rmdir()
        (root / "logs").symlink_to(secret.parent, target_is_directory=True)
        report = citeproof.validate("- HTTP 429 Too Many Requests from the vendor api (logs/secret.log:1).\n", bundle)
    assert report.claims[0].status is ClaimStatus.MISSING_EVIDENCE
    assert "outside the bundle" in report.claims[0].citations[0].reason
    assert "hunter2" not in report.model_dump_json()


def test_flipping_a_file_and_a_symlink_never_passes_with_outside_text(make_bundle: Any, secret: Path) -> None:
    """The race of the attack run: 4-7 of 400 runs passed with the outside file's text. Bounded: 2 s, 300 runs."""
    root = make_bundle({"app.log": LOG})
    stop = threading.Event()

    def flip() -> None:
        plain, link = root / ".plain", root / ".link"
        plain.write_text(LOG, encoding="utf-8")
        link.symlink_to(secret)
        while not stop.is_set():
            for source in (link, plain):
                tmp = root / ".swap"
                if tmp.is_symlink() or tmp.exists():
                    tmp.unlink()
                if source.is_symlink():
                    tmp.symlink_to(secret)
                else:
                    tmp.write_text(LOG, encoding="utf-8")
                os.replace(tmp, root / "app.log")

    worker = threading.Thread(target=flip, daemon=True)
    worker.start()
    deadline = time.monotonic() + 2.0
    runs = 0
    try:
        while runs < 300 and time.monotonic() < deadline:
            try:
                report = citeproof.validate(FINDINGS, root, use_cache=False)
            except citeproof.CiteproofError:
                continue
            runs += 1
            assert "hunter2" not in report.model_dump_json()
    finally:
        stop.set()
        worker.join(2)
    assert runs > 10


def test_a_hard_link_to_a_file_outside_is_refused_unless_allowed(make_bundle: Any, secret: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    root = make_bundle({"notes.log": LOG})
    try:
        os.link(secret, root / "app.log")
    except OSError as exc:  # a file system without hard links cannot hold this attack
        pytest.skip(f"hard links not supported here ({exc.strerror})")
    findings = _findings(tmp_path)
    code, out, _ = run(capsys, "check", str(findings), "--evidence", str(root), "--format", "json", "--no-cache")
    report = json.loads(out)
    assert code == 1 and report["claims"][0]["status"] == "missing_evidence"
    assert "hard links" in report["claims"][0]["citations"][0]["reason"]
    assert any("app.log" in w and "hard links" in w for w in report["warnings"])
    assert "hunter2" not in out
    allow = tmp_path / "allow.yaml"
    allow.write_text("allow_hardlinks: true\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(findings), "--evidence", str(root), "--format", "json", "--no-cache",
                       "--config", str(allow))
    assert json.loads(out)["claims"][0]["status"] == "verified"


# -- 2, 3, 4. the caches ----------------------------------------------------------------------------------


def test_an_edited_claim_cache_entry_is_not_trusted(make_bundle: Any, tmp_path: Path, cache_dir: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    root = make_bundle({"app.log": "2026-01-15 10:30:45 INFO connecting to vendor api\n"})
    findings = _findings(tmp_path)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1
    files = list(cache_dir.glob("claims-*.json"))
    assert len(files) == 1
    raw = files[0].read_bytes()
    forged = raw.replace(b'"unsupported"', b'"verified"').replace(b'"validated":false', b'"validated":true')
    assert forged != raw
    files[0].write_bytes(forged)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1
    for junk in (b"[]", b'{"x": 1}', b"\x00garbage", b""):
        files[0].write_bytes(junk)
        assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1


def test_a_claim_cache_sealed_under_another_key_is_a_miss(make_bundle: Any, tmp_path: Path, cache_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A verdict forged by someone who can write the shared cache but not read our key is never trusted."""
    from citeproof.evidence import cache as cache_module

    root = make_bundle({"app.log": "2026-01-15 10:30:45 INFO connecting to vendor api\n"})
    findings = _findings(tmp_path)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1
    entry = next(cache_dir.glob("claims-*.json"))
    payload = entry.read_bytes().split(b"\n", 1)[1].replace(b'"unsupported"', b'"verified"')
    mine = os.environ["CITEPROOF_CACHE_KEY"]
    try:
        monkeypatch.setenv("CITEPROOF_CACHE_KEY", str(tmp_path / "attacker.key"))
        forged = seal(payload)
    finally:
        monkeypatch.setenv("CITEPROOF_CACHE_KEY", mine)
        cache_module._secret.cache_clear()
    assert forged is not None and forged != entry.read_bytes()
    entry.write_bytes(forged)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1


def test_an_edit_in_place_with_the_mtime_restored_is_not_served_from_cache(make_bundle: Any, tmp_path: Path, cache_dir: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = make_bundle({"app.log": LOG})
    findings = _findings(tmp_path)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 0
    log = root / "app.log"
    before = log.stat()
    edited = LOG.replace("HTTP 429 Too Many Requests", "HTTP 200 OK, all requests fine")
    edited = edited[: len(LOG) - 1].ljust(len(LOG) - 1) + "\n"
    assert len(edited.encode()) == before.st_size
    with open(log, "r+b") as fh:
        fh.write(edited.encode())
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert log.stat().st_mtime_ns == before.st_mtime_ns and log.stat().st_size == before.st_size
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1


def _sealed_npz(meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> bytes:
    import io

    buf = io.BytesIO()
    np.savez(buf, __meta__=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays)  # type: ignore[arg-type]
    sealed = seal(buf.getvalue())
    assert sealed is not None
    return sealed


@pytest.mark.parametrize("starts", [np.array([0, 10**12, 10**12 + 5], dtype=np.int64), np.array([], dtype=np.int64),
                                    np.array([0, 3, 2], dtype=np.int64), np.array([[0]], dtype=np.int64)])
def test_a_sealed_line_index_that_does_not_fit_the_file_is_rebuilt(make_bundle: Any, tmp_path: Path, cache_dir: Path,
                                                                   starts: np.ndarray) -> None:
    """Even an entry carrying a valid seal and key (written by a buggy or older build) is checked against the file."""
    lines = "".join(f"2026-01-15 10:30:{i % 60:02d} INFO line {i}\n" for i in range(1, 3000))
    root = make_bundle({"app.log": lines + LOG})
    findings = "- The vendor API answered HTTP 429 Too Many Requests (app.log:3000).\n"
    assert citeproof.validate(findings, root).claims[0].status is ClaimStatus.VERIFIED
    entries = list(cache_dir.glob("lines-*.npz"))
    assert len(entries) == 1
    store = IndexCache(cache_dir)
    with Bundle(root) as bundle:
        key = bundle.lines(bundle.files["app.log"]).key
    meta = {"key": key, "version": 4, "kind": "lines", "fields": {"line_count": 3000}}
    entries[0].write_bytes(_sealed_npz(meta, {"starts": starts}))
    assert store.load("lines", key) is not None  # sealed and keyed: only the shape check stands between it and a verdict
    report = citeproof.validate(findings, root)
    assert report.claims[0].status is ClaimStatus.VERIFIED, report.claims[0].reason


# -- 5. error messages ------------------------------------------------------------------------------------


@pytest.mark.parametrize("content", ["root:$6$saltsaltHASHHASH:19000:0:99999:7:::\n",
                                     "a: [root-secret-value\n", '[x]\nkey = "root-secret-value\n',
                                     "root-secret-value: 1\n"])
def test_config_errors_never_quote_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str) -> None:
    cfg = tmp_path / ("shadow.toml" if content.startswith("[x]") else "shadow")
    cfg.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "check", "examples/rate-limit/findings.md", "--evidence", "examples/rate-limit/bundle",
                       "--config", str(cfg))
    assert code == 2 and err.count("\n") == 1 and str(cfg) in err
    assert "HASH" not in err and "root-secret" not in err and "root:" not in err


# -- 8, 9, 12. unreadable, deep and special files -----------------------------------------------------------


def test_an_unreadable_file_is_a_warning_and_a_reason(make_bundle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mode 000 (as any user but root): simulated at the open, since tests may run as root."""
    root = make_bundle({"app.log": LOG, "other.log": LOG})
    real_open = os.open

    def deny(path: Any, flags: int, *args: Any) -> int:
        if os.fspath(path).endswith("app.log"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(access_module.os, "open", deny)
    report = citeproof.validate(FINDINGS + "- Also HTTP 429 Too Many Requests (other.log:1).\n", root, use_cache=False)
    assert [c.status for c in report.claims] == [ClaimStatus.MISSING_EVIDENCE, ClaimStatus.VERIFIED]
    assert "permission denied" in report.claims[0].citations[0].reason
    assert any(w.startswith("app.log:") and "permission denied" in w for w in report.warnings)


def test_an_unreadable_directory_is_a_warning(make_bundle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_bundle({"app.log": LOG, "locked/inner.log": LOG})
    real_scandir = os.scandir

    def deny(path: Any = ".") -> Any:
        if os.fspath(path).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", deny)
    report = citeproof.validate(FINDINGS + "- HTTP 429 again (locked/inner.log:1).\n", root, use_cache=False)
    assert any(w.startswith("locked:") and "cannot be read" in w for w in report.warnings)
    assert report.claims[1].status is ClaimStatus.MISSING_EVIDENCE
    assert "cannot be read" in report.claims[1].citations[0].reason


@pytest.mark.parametrize(("name", "content"), [
    ("deep.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n"),
    ("deep.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n"),
    ("deep.json", '{"a": ' + "[" * 900 + "]" * 900 + "}"),
])
def test_deeply_nested_evidence_is_a_reason_not_a_crash(make_bundle: Any, name: str, content: str) -> None:
    root = make_bundle({name: content, "app.log": LOG})
    report = citeproof.validate(f"- The setting a is 5 (config:{name}#a).\n" + FINDINGS, root, use_cache=False)
    assert report.claims[0].status is not ClaimStatus.VERIFIED
    assert "nested too deeply" in report.claims[0].citations[0].reason
    assert report.claims[1].status is ClaimStatus.VERIFIED


@pytest.mark.parametrize("name", ["deep.yaml", "inv_context.json"])
def test_deeply_nested_config_and_context_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(("a: " + "[" * 5000 + "]" * 5000) if name.endswith("yaml") else '{"a": ' + "[" * 5000 + "]" * 5000 + "}",
                    encoding="utf-8")
    option = "--config" if name.endswith("yaml") else "--context"
    code, _, err = run(capsys, "check", "examples/rate-limit/findings.md", "--evidence", "examples/rate-limit/bundle",
                       option, str(path))
    assert code == 2 and "nested too deeply" in err and err.count("\n") == 1


@pytest.mark.timeout(20)
def test_a_fifo_as_findings_is_an_error_not_a_hang(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "findings.md"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "check", str(fifo), "--evidence", "examples/rate-limit/bundle")
    assert code == 2 and "FIFO, not a regular file" in err


def test_a_device_as_findings_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "/dev/zero", "--evidence", "examples/rate-limit/bundle")
    assert code == 2 and "character device, not a regular file" in err


@pytest.mark.timeout(20)
def test_a_fifo_inside_the_bundle_is_listed_not_read(make_bundle: Any) -> None:
    root = make_bundle({"app.log": LOG})
    os.mkfifo(root / "pipe.log")
    report = citeproof.validate(FINDINGS + "- HTTP 429 (pipe.log:1).\n", root, use_cache=False)
    assert report.claims[0].status is ClaimStatus.VERIFIED
    assert report.claims[1].status is ClaimStatus.MISSING_EVIDENCE
    assert any(w.startswith("pipe.log:") and "FIFO" in w for w in report.warnings)


def test_an_impossible_offset_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "examples/rate-limit/findings.md", "--evidence", "examples/rate-limit/bundle",
                       "--assume-tz", "+99:99")
    assert code == 2 and "assume_tz" in err


# -- 7. many files under a low open-file limit ---------------------------------------------------------------


def test_more_files_than_the_open_file_limit(make_bundle: Any, tmp_path: Path) -> None:
    """600 cited files under `ulimit -n 128` (the attack used 2,000 under 1,024): exit 1 or 0, never 3."""
    import subprocess
    import sys

    files = {f"app{i}.log": f"2026-01-15 10:30:{i % 60:02d} ERROR HTTP 429 Too Many Requests node-{i}\n" for i in range(600)}
    root = make_bundle(files)
    findings = _findings(tmp_path, "".join(f"- HTTP 429 Too Many Requests on node-{i} (app{i}.log:1).\n" for i in range(600))
                         + "- A 429 at 10:30:05 (timestamp:2026-01-15T10:30:05Z).\n")
    script = ("import resource, sys\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (128, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
              "from citeproof.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", script, "check", str(findings), "--evidence", str(root), "--format", "json",
                           "--no-cache"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert {c["status"] for c in report["claims"]} == {"verified"} and len(report["claims"]) == 601


# -- 10. archive limits count what is skipped ---------------------------------------------------------------


def test_a_skipped_archive_member_counts_against_the_byte_limit(tmp_path: Path) -> None:
    import io
    import tarfile

    archive = tmp_path / "b.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        evil = tarfile.TarInfo("../evil.bin")
        evil.size = 20_000_000
        tf.addfile(evil, io.BytesIO(b"\0" * evil.size))
        ok = tarfile.TarInfo("app.log")
        ok.size = len(LOG)
        tf.addfile(ok, io.BytesIO(LOG.encode()))
    with pytest.raises(citeproof.BundleError, match="declare more than 10000000 bytes"):
        citeproof.validate(FINDINGS, archive, archive_max_bytes=10_000_000)


def test_a_zip_with_too_many_members_is_refused_before_unpacking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    from citeproof.evidence import archive as archive_module

    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(1001):
            zf.writestr(f"f{i}.log", "x\n")
    copied: list[Path] = []
    real_copy = archive_module._copy
    monkeypatch.setattr(archive_module, "_copy", lambda src, dest, budget: (copied.append(dest), real_copy(src, dest, budget)))
    with pytest.raises(citeproof.BundleError, match="more than 1000 members"):
        citeproof.validate(FINDINGS, archive, archive_max_members=1000)
    assert copied == []


def test_a_file_name_with_a_newline_cannot_forge_report_lines(make_bundle: Any, capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    root = make_bundle({"app.log": LOG, "x\nPASSED all claims verified.log": LOG})
    code, out, _ = run(capsys, "check", str(_findings(tmp_path)), "--evidence", str(root), "--no-cache")
    assert code == 0
    assert "\nPASSED all claims verified" not in out
    report = citeproof.validate(FINDINGS, root, use_cache=False)
    assert any(w.startswith("x\\nPASSED") and "control characters" in w for w in report.warnings)


# -- 6. a log truncated while it is read -----------------------------------------------------------------


def test_a_log_truncated_while_mapped_is_a_reason_not_sigbus(make_bundle: Any, tmp_path: Path) -> None:
    """Run in a child process: before the guard, reading the map past the new end killed the process (exit 135)."""
    import subprocess
    import sys

    lines = "".join(f"2026-01-15 10:30:{i % 60:02d} ERROR HTTP 429 Too Many Requests from vendor api {i}\n" for i in range(200_000))
    root = make_bundle({"app.log": lines})
    script = ("import sys, citeproof\n"
              "from citeproof.evidence import Bundle\n"
              "root = sys.argv[1]\n"
              "with Bundle(root, use_cache=False) as bundle:\n"
              "    lf = bundle.lines(bundle.files['app.log'])\n"
              "    assert lf.line_count == 200000\n"
              "    open(root + '/app.log', 'r+b').truncate(100)\n"
              "    report = citeproof.validate('- The vendor API answered HTTP 429 (app.log:199999).\\n', bundle)\n"
              "    print(report.claims[0].status.value, '|', report.claims[0].citations[0].reason)\n")
    proc = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-300:])
    status, reason = proc.stdout.strip().split(" | ", 1)
    assert status == "missing_evidence" and "truncated while it was read" in reason



def test_a_capture_truncated_before_it_is_indexed_is_a_reason_not_sigbus(make_bundle: Any) -> None:
    """A capture cut short after it was mapped and before it was indexed gives a per-citation reason, never SIGBUS."""
    import subprocess
    import sys

    entries = [{"startedDateTime": "2026-01-15T10:30:45.000Z", "time": 1,
                "request": {"method": "GET", "url": f"https://api.example.com/{i}", "headers": []},
                "response": {"status": 429, "statusText": "Too Many Requests", "headers": [], "content": {"text": "x" * 400}}}
               for i in range(30_000)]
    root = make_bundle({"capture.har": json.dumps({"log": {"version": "1.2", "entries": entries}}, indent=1)})
    script = ("import sys, citeproof\n"
              "from citeproof.evidence import Bundle\n"
              "root = sys.argv[1]\n"
              "with Bundle(root, use_cache=False) as bundle:\n"
              "    lf = bundle.lines(bundle.files['capture.har'])\n"
              "    assert lf.mapping() is not None and lf.size > 8 * 1024 * 1024\n"
              "    open(root + '/capture.har', 'r+b').truncate(100)\n"
              "    report = citeproof.validate('- The vendor API answered HTTP 429 (capture.har:entry-29999).\\n', bundle)\n"
              "    print(report.claims[0].status.value, '|', report.claims[0].citations[0].reason)\n")
    proc = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-300:])
    status, reason = proc.stdout.strip().split(" | ", 1)
    assert status == "missing_evidence" and "truncated while it was read" in reason, reason


def test_the_har_index_reads_each_chunk_through_the_guard(tmp_path: Path) -> None:
    """Truncation during the index build (between two 4 MB chunks) is caught before the next chunk is read."""
    import mmap

    from citeproof.evidence.access import UnreadableEvidence
    from citeproof.evidence.har_index import build

    path = tmp_path / "c.har"
    path.write_text(json.dumps({"log": {"entries": [{"x": "y" * 1000} for _ in range(10_000)]}}), encoding="utf-8")
    calls: list[int] = []

    def guard() -> None:
        calls.append(1)
        if len(calls) == 2:
            raise UnreadableEvidence("c.har", "was truncated while it was read; not read")

    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        with pytest.raises(UnreadableEvidence):
            build(mm, len(mm), guard)
        calls.clear()
        assert build(mm, len(mm), lambda: calls.append(1)).starts.size == 10_000 and len(calls) == 3  # 10 MB: 3 chunks

def test_a_claim_too_long_to_check_is_reported_not_read(make_bundle: Any) -> None:
    root = make_bundle({"app.log": LOG})
    long_claim = "- The vendor API answered " + "HTTP 429 and retried " * 1000 + "(app.log:1).\n"
    report = citeproof.validate(long_claim + FINDINGS, root, use_cache=False)
    assert [c.status for c in report.claims] == [ClaimStatus.UNSUPPORTED, ClaimStatus.VERIFIED]
    assert "more than the 10000 that are checked" in report.claims[0].reason



def test_more_claims_than_one_run_checks_is_exit_2(capsys: pytest.CaptureFixture[str], make_bundle: Any,
                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citeproof import extract

    assert extract.MAX_CLAIMS == 20_000
    MAX_CLAIMS = 300  # the limit, lowered so the test runs in a second
    monkeypatch.setattr(extract, "MAX_CLAIMS", MAX_CLAIMS)
    root = make_bundle({"app.log": LOG})
    findings = _findings(tmp_path, "- HTTP 429 at 10:30:45 (app.log:1).\n" * (MAX_CLAIMS + 1))
    code, out, err = run(capsys, "check", str(findings), "--evidence", str(root), "--no-cache")
    assert code == 2 and out == ""
    assert err.strip().endswith(f"findings.md: the findings hold more than {MAX_CLAIMS} claims, the most one run checks: "
                                "split them into several documents")
    structured = tmp_path / "claims.json"
    structured.write_text(json.dumps({"claims": ["HTTP 429 (app.log:1)"] * (MAX_CLAIMS + 1)}), encoding="utf-8")
    code, _, err = run(capsys, "check", str(structured), "--evidence", str(root), "--no-cache")
    assert code == 2 and f"more than {MAX_CLAIMS} claims" in err
    code, out, _ = run(capsys, "check", str(_findings(tmp_path, FINDINGS * MAX_CLAIMS)), "--evidence", str(root),
                       "--no-cache", "--format", "json")
    assert code == 0 and json.loads(out)["total_claims"] == MAX_CLAIMS  # the limit itself is checked


def test_a_sentence_of_megabytes_is_reported_without_reading_its_citations(make_bundle: Any) -> None:
    root = make_bundle({"app.log": LOG})
    huge = "The vendor API answered HTTP 429 (app.log:1) and (app.log:99) " * 20_000  # 1.3 MB, one sentence
    report = citeproof.validate(huge + "\n\n" + FINDINGS, root, use_cache=False)
    assert [c.status for c in report.claims] == [ClaimStatus.UNSUPPORTED, ClaimStatus.VERIFIED]
    assert report.claims[0].citations == [] and "split it into sentences" in report.claims[0].reason
    assert report.contradictions == 0

# -- found by the attack run of 2026-12-01 ------------------------------------------------------------------


def test_a_sealed_claims_file_copied_under_another_name_is_a_miss(make_bundle: Any, tmp_path: Path, cache_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The replay: the PASSED file of an earlier bundle state copied over the name of the edited state's file."""
    root = make_bundle({"app.log": LOG})
    findings = _findings(tmp_path)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 0
    good = next(cache_dir.glob("claims-*.json")).read_bytes()
    (root / "app.log").write_text(LOG.replace("HTTP 429 Too Many Requests", "HTTP 200 OK everything fine"), encoding="utf-8")
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1
    newest = max(cache_dir.glob("claims-*.json"), key=lambda p: p.stat().st_mtime_ns)
    newest.write_bytes(good)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 1


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_hostile_cache_entries_are_misses(make_bundle: Any, tmp_path: Path, cache_dir: Path, kind: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = make_bundle({"app.log": LOG})
    findings = _findings(tmp_path)
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 0
    for entry in [*cache_dir.glob("claims-*.json"), *cache_dir.glob("lines-*.npz")]:
        entry.unlink()
        if kind == "fifo":
            os.mkfifo(entry)
        else:
            entry.symlink_to("/dev/zero")
    assert run(capsys, "check", str(findings), "--evidence", str(root))[0] == 0


@pytest.mark.parametrize("content", ["threshold: 2001-13-45\n", "now: 2026-02-30T00:00:00Z\n", 'a: !!float "secretabc"\n',
                                     'a: !!int "0xZZsecret"\n', "threshold: " + "9" * 5000 + "\n"])
def test_config_values_the_parser_cannot_build_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "check", "examples/rate-limit/findings.md", "--evidence", "examples/rate-limit/bundle",
                       "--config", str(cfg))
    assert code == 2 and err.count("\n") == 1 and "secret" not in err and "999999" not in err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("target", ["fifo", "dir", "missing", "notjson"])
def test_a_bad_causal_rules_file_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str) -> None:
    rules = tmp_path / "rules"
    if target == "fifo":
        os.mkfifo(rules)
    elif target == "dir":
        rules.mkdir()
    elif target == "notjson":
        rules.write_text("root:$6$secretHASH:19000\n", encoding="utf-8")
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"causal_rules: {rules}\n", encoding="utf-8")
    code, _, err = run(capsys, "check", "examples/rate-limit/findings.md", "--evidence", "examples/rate-limit/bundle",
                       "--config", str(cfg))
    assert code == 2 and "causal rules" in err and "secretHASH" not in err


@pytest.mark.timeout(60)
def test_a_fifo_as_context_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "inv_context.json"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "check", "examples/rate-limit/findings.md", "--evidence", "examples/rate-limit/bundle",
                       "--context", str(fifo))
    assert code == 2 and "FIFO, not a regular file" in err


def test_a_huge_url_is_read_by_its_head(make_bundle: Any) -> None:
    """A HAR entry with a 5 MB URL: the entry is read by its first 8 KB (50 MB took 32 s, now under 1 s)."""
    url = "https://api.example.com/x?q=" + "a" * 5_000_000
    entry = {"startedDateTime": "2026-01-15T10:30:45.000Z", "time": 12, "request": {"method": "GET", "url": url, "headers": []},
             "response": {"status": 429, "statusText": "Too Many Requests", "headers": [], "content": {}}}
    root = make_bundle({"c.har": json.dumps({"log": {"version": "1.2", "entries": [entry]}})})
    report = citeproof.validate("- The API answered HTTP 429 Too Many Requests (c.har:entry-1).\n", root, use_cache=False)
    assert report.claims[0].status is ClaimStatus.VERIFIED
    from citeproof.evidence.har import MAX_FIELD_CHARS, load_har

    with Bundle(root, use_cache=False) as bundle:
        summary = load_har(bundle, bundle.files["c.har"]).entry(0).summary()
    assert len(summary) < MAX_FIELD_CHARS + 200 and "more characters" in summary


@pytest.mark.parametrize("fields", ["true", "[1, 2]", "\"text\"", "null"])
def test_a_jira_export_whose_fields_are_not_an_object_is_read_as_empty(capsys: pytest.CaptureFixture[str], make_bundle: Any,
                                                                       tmp_path: Path, fields: str) -> None:
    """Found by the CLI fuzz harness (tests/test_cli_fuzz.py): ``"fields": true`` was an internal error (exit 3)."""
    root = make_bundle({"jira.json": '{"issues": [{"key": "OPS-1", "fields": ' + fields + "}]}", "app.log": LOG})
    code, out, err = run(capsys, "check", str(_findings(tmp_path, "- The ticket was filed (JIRA:OPS-1).\n")),
                         "--evidence", str(root), "--no-cache", "--format", "json")
    assert code == 1 and err == ""
    assert json.loads(out)["claims"][0]["status"] == "unsupported"
