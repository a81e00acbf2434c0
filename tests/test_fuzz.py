"""Property-based fuzzing (hypothesis, fixed budget) of the readers that see untrusted bytes."""

from __future__ import annotations

import json
import mmap
import tempfile
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeproof.evidence import Bundle
from citeproof.evidence.har_index import build
from citeproof.evidence.lines import LineFile
from citeproof.evidence.structured import load, lookup

FUZZ = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


_ROOT = tempfile.mkdtemp(prefix="citeproof-fuzz-")  # one folder for the whole run


def _write(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path


@FUZZ
@given(st.binary(max_size=3000))
def test_line_file_agrees_with_splitlines(data: bytes) -> None:
    path = _write(Path(tempfile.mkdtemp(dir=_ROOT)), "x.log", data)
    lf = LineFile.open(path)
    expected = data.split(b"\n")
    if expected and expected[-1] == b"":
        expected.pop()
    assert lf.line_count == len(expected)
    if expected:
        n = len(expected)
        got = lf.lines(n, n)[0]
        want = expected[-1].removesuffix(b"\r").decode("utf-8", errors="replace")
        if n == 1 and expected[0].startswith(b"\xef\xbb\xbf"):
            want = expected[0][3:].removesuffix(b"\r").decode("utf-8", errors="replace")
        assert got == want
    lf.close()


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=1, max_value=3500), st.integers(min_value=1, max_value=40), st.integers(min_value=2, max_value=9),
       st.booleans(), st.lists(st.integers(min_value=1, max_value=3500), max_size=30))
def test_every_line_of_a_many_block_file_is_found(count: int, width: int, cr: int, final_newline: bool,
                                                   picks: list[int]) -> None:
    """Lines past the first few of a block are found through the block's own index; it must agree with a split."""
    lines = [b"x" * (i * width % 17) + (b"\r" if i % cr == 0 else b"") for i in range(count)]
    data = b"\n".join(lines) + (b"\n" if final_newline else b"")
    path = _write(Path(tempfile.mkdtemp(dir=_ROOT)), "x.log", data)
    lf = LineFile.open(path)
    split = data.split(b"\n")
    if split[-1] == b"":
        split.pop()  # the newline ends the last line; nothing follows it
    want = [raw.removesuffix(b"\r") for raw in split]
    assert lf.line_count == len(want)
    if want:
        for n in [p for p in picks if p <= len(want)] + [len(want)]:  # any order: blocks are read and evicted
            assert [r.removesuffix(b"\r") for r in lf.raw_lines(n, n)] == [want[n - 1]], n
        assert [r.removesuffix(b"\r") for r in lf.raw_lines(1, len(want))] == want
    lf.close()


@FUZZ
@given(st.lists(JSON, max_size=6), st.sampled_from([None, 1, "\t"]))
def test_har_index_agrees_with_a_full_parse(entries: list[object], indent: int | str | None) -> None:
    objects = [{"startedDateTime": "2026-01-15T10:30:45.000Z", "x": e} for e in entries]
    text = json.dumps({"log": {"version": "1.2", "note": entries[:1], "entries": objects}}, indent=indent)
    path = _write(Path(tempfile.mkdtemp(dir=_ROOT)), "c.har", text.encode())
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        index = build(mm, path.stat().st_size)
        assert index.error is None and index.starts.size == len(objects)
        for i, obj in enumerate(objects):
            assert orjson.loads(mm[int(index.starts[i]) : int(index.ends[i]) + 1]) == json.loads(json.dumps(obj))


@FUZZ
@given(st.binary(min_size=1, max_size=2000))
def test_har_index_never_crashes_on_bytes(data: bytes) -> None:
    path = _write(Path(tempfile.mkdtemp(dir=_ROOT)), "c.har", data)
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        index = build(mm, len(data))
        assert index.starts.size == index.ends.size


@FUZZ
@given(st.text(max_size=400), st.sampled_from(["c.json", "c.yaml", "c.toml", "c.ini", "env.log", "c.properties"]),
       st.text(max_size=30))
def test_structured_readers_never_crash(text: str, name: str, key: str) -> None:
    root = Path(tempfile.mkdtemp(dir=_ROOT))
    _write(root, name, text.encode("utf-8", errors="surrogatepass"))
    with Bundle(root, use_cache=False) as bundle:
        for file in bundle.files.values():
            loaded = load(bundle, file)
            assert loaded.error is None or file.rel in loaded.error
            if loaded.error is None:
                found, _, why = lookup(loaded.data, key or "a.b[0]")
                assert found or isinstance(why, str)
