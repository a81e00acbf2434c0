"""The one-pass HAR entry index agrees with a full JSON parse, minified or pretty, with hostile strings."""

from __future__ import annotations

import json
import mmap
from pathlib import Path
from typing import Any

import orjson
import pytest

from citeproof.evidence import har as har_module
from citeproof.evidence.har_index import build

TRICKY = [
    'a "quoted" value with \\\\ backslashes \\\\\\" and {braces} [brackets]',
    '"entries": [{"fake": 1}]',
    "\\\\",
    "ends with a backslash \\\\",
    '{"log": {"entries": []}}',
]


def _entries(n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        out.append({
            "startedDateTime": f"2026-01-15T10:{i // 60 % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z",
            "time": 12.5 + i,
            "request": {"method": "GET", "url": f"https://api.example.com/v1/items/{i}?q=[{i}]", "headers": []},
            "response": {"status": 429 if i % 7 == 0 else 200, "statusText": "x",
                         "headers": [{"name": "X-Note", "value": TRICKY[i % len(TRICKY)]}],
                         "content": {"size": 10, "mimeType": "application/json", "text": json.dumps({"entries": [i], "s": TRICKY[i % 5]})}},
            "_note": {"entries": [{"nested": True}]},
        })
    return out


def _check(path: Path) -> None:
    data = orjson.loads(path.read_bytes())
    expected = data["log"]["entries"]
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        index = build(mm, path.stat().st_size)
        assert index.error is None
        assert index.starts.size == len(expected)
        for i, entry in enumerate(expected):
            sliced = orjson.loads(mm[int(index.starts[i]) : int(index.ends[i]) + 1])
            assert sliced == entry
            assert bytes(index.started[i]).decode() == entry.get("startedDateTime", "")


@pytest.mark.parametrize("indent", [None, 2, "\t"])
def test_index_matches_full_parse(tmp_path: Path, indent: int | str | None) -> None:
    doc = {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "pages": [{"id": "p", "entries": "x"}],
                   "comment": 'has "entries": [] inside', "entries": _entries(300)}}
    path = tmp_path / "capture.har"
    path.write_text(json.dumps(doc, indent=indent), encoding="utf-8")
    _check(path)


def test_index_on_public_captures(corpus: Path) -> None:
    for name in ("pagexray/304.har", "pagexray/www.nytimes.com.har", "pagexray/frontendredirect.har",
                 "mitmproxy/error_log.har", "mitmproxy/chrome.har", "harviewer/chrome51.har", "haralyzer/cnn.har"):
        _check(corpus / "har" / name)


def test_index_rejects_malformed_json(corpus: Path) -> None:
    path = corpus / "har" / "harviewer" / "not-json.har"
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        assert build(mm, path.stat().st_size).error is not None


def test_large_capture_path_gives_the_same_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import citeproof

    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "capture.har").write_text(json.dumps({"log": {"version": "1.2", "entries": _entries(50)}}), encoding="utf-8")
    findings = (
        "- Entry 1 returned HTTP 429 (capture.har:entry-1).\n"
        "- Entry 2 returned HTTP 429 (capture.har:entry-2).\n"
        "- A request was made at timestamp:2026-01-15T10:00:07.007Z (capture.har:entry-8).\n"
        "- Entry 99 exists (capture.har:entry-99).\n"
    )
    whole = citeproof.validate(findings, bundle, use_cache=False).to_dict()
    monkeypatch.setattr(har_module, "PARSE_WHOLE_BYTES", 0)
    indexed = citeproof.validate(findings, bundle, use_cache=False).to_dict()
    assert indexed == whole
    assert [c["status"] for c in whole["claims"]] == ["verified", "contradicted", "verified", "missing_evidence"]
