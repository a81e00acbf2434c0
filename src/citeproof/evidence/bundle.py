"""The evidence bundle: discovery, classification and safe, read-only access.

A bundle is a directory, an archive (``.zip``, ``.tar``, ``.tar.gz``; see
:mod:`citeproof.evidence.archive`) or a single file. Every regular file in it is listed once, by
its path relative to the bundle root, and classified by content and name (a ``.gz`` file or a UTF-16
file is classified as what it holds and decoded to UTF-8 on first use):

=============  ===============================================================================
kind           how it is recognised
=============  ===============================================================================
``har``        JSON whose top level is ``{"log": {... "entries": [...]}}`` (or a ``.har`` name)
``patterns``   JSON with ``"patterns": [{"id": "P-127", ...}]``
``jira``       JIRA REST issue JSON (``key`` + ``fields``) or a search result (``issues``)
``context``    ``inv_context.json``: the investigation context
``env``        ``env.log`` / ``env.txt`` / ``environment.*`` / ``about*`` / ``build_info*``
``config``     other JSON, YAML, TOML, INI/properties files
``log``        any other text (including JSON-lines logs)
``compressed`` bz2/xz/zip data inside a bundle (not read: citations to it are reported as not checkable)
``binary``     anything with NUL bytes in its first 8 KB
=============  ===============================================================================

Nothing outside the bundle is ever opened: a cited path that is absolute, climbs with ``..``, or
names a symlink whose target lies outside the bundle is rejected with a reason before any I/O on it.
Every read opens the file again through :mod:`citeproof.evidence.access`, which refuses a file that was
swapped for a symlink, moved outside or replaced since the listing, and a file with several hard links
(unless ``allow_hardlinks``). A file or directory that cannot be read, or that is not a regular file
(a FIFO, a socket, a device), is listed as rejected with the reason, and the run warns about it.
Files are opened read-only and memory-mapped with ``ACCESS_READ``; evidence is never modified.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import gzip
import os
import re
import stat
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import BundleError
from .access import Identity, UnreadableEvidence, inside, kind_of, open_checked, read_all
from .archive import Limits, decode_to, is_archive, private_dir, remove, unpack
from .cache import IndexCache, cache_dir
from .lines import LineFile


class FileKind(StrEnum):
    LOG = "log"
    HAR = "har"
    CONFIG = "config"
    ENV = "env"
    PATTERNS = "patterns"
    JIRA = "jira"
    CONTEXT = "context"
    COMPRESSED = "compressed"
    BINARY = "binary"


@dataclass(frozen=True)
class EvidenceFile:
    rel: str
    path: Path
    size: int
    kind: FileKind
    transform: str = ""  # "gzip", "utf-16" or "gzip+utf-16": decoded to UTF-8 on first use
    identity: Identity | None = None  # what the file was when listed; a read of anything else is refused


@dataclass(frozen=True)
class Lookup:
    """Outcome of resolving a cited path: a file, or the reason there is none."""

    file: EvidenceFile | None
    problem: str = ""


_CONFIG_EXT = {".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties"}
_ENV_NAME = re.compile(r"^(env|environment|about|about_info|build_info|buildinfo)([._-].*)?$", re.I)
_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\xfd7zXZ": "xz", b"PK\x03\x04": "zip"}
_JSON_SNIFF_LIMIT = 16 * 1024 * 1024
MAX_OPEN_MAPS = 256  # files kept memory-mapped at once (each map holds a descriptor; `ulimit -n` is often 1024)


def _map_budget() -> int:
    """How many files may stay mapped: MAX_OPEN_MAPS, or a quarter of the open-file limit when that is lower."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return MAX_OPEN_MAPS
    return MAX_OPEN_MAPS if soft == resource.RLIM_INFINITY else max(8, min(MAX_OPEN_MAPS, soft // 4))
_HAR_HEAD = re.compile(rb'^\s*\{\s*"log"\s*:')


class Bundle:
    """Read-only view of an evidence bundle. Use as a context manager to release file maps."""

    def __init__(self, root: str | Path, use_cache: bool = True, limits: Limits | None = None,
                 allow_hardlinks: bool = False) -> None:
        given = Path(root)
        self.allow_hardlinks = allow_hardlinks
        if not given.exists():
            raise BundleError("evidence bundle not found", given)
        self.given = given
        self.limits = limits or Limits()
        self.archive: Path | None = None
        self._private: Path | None = None
        self.rejected: dict[str, str] = {}
        real = Path(os.path.realpath(given))
        if real.is_dir():
            self.root = real
            paths = self._walk(real)
        elif real.is_file() and is_archive(real):
            self.archive = real
            self._private = private_dir()
            self.root = self._private / "bundle"
            self.root.mkdir()
            try:
                self.rejected.update(unpack(real, self.root, self.limits))
            except BaseException:  # a limit, a corrupt archive, Ctrl-C: never leave unpacked evidence behind
                remove(self._private)
                raise
            paths = self._walk(self.root)
            use_cache = False  # unpacked files are new each run: nothing to reuse
        elif real.is_file():
            self.root = real.parent
            paths = [real]
        else:
            raise BundleError("evidence bundle is neither a directory nor a file", given)
        self.files: dict[str, EvidenceFile] = {}
        self._decoded: dict[str, tuple[Path, Identity]] = {}
        for path in paths:
            self._add(path)
        self._by_name: dict[str, list[str]] = {}
        for rel in self.files:
            self._by_name.setdefault(PurePosixPath(rel).name.lower(), []).append(rel)
        self._lines: dict[str, LineFile] = {}
        self._live: OrderedDict[str, None] = OrderedDict()  # files mapped now, least recently used first
        self._pins: dict[str, int] = {}
        self._pool = threading.RLock()
        self._budget = _map_budget()
        self.unreadable: dict[str, str] = {}  # listed files that could not be read later (replaced, truncated, ...)
        self.cache: dict[tuple[str, str], Any] = {}
        self.index_cache = IndexCache(cache_dir() if use_cache else None, self.root)

    # -- discovery -------------------------------------------------------------------------
    def _walk(self, root: Path) -> list[Path]:
        found: list[Path] = []

        def unreadable(error: OSError) -> None:
            if error.filename and Path(error.filename) != root:
                rel = Path(error.filename).relative_to(root).as_posix()
                self.rejected[rel] = "directory that cannot be read; its files are not read"

        for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=unreadable):
            dirnames.sort()
            for name in sorted(filenames):
                found.append(Path(dirpath) / name)
            for name in dirnames:
                if (Path(dirpath) / name).is_symlink():
                    found.append(Path(dirpath) / name)
        return found

    def _add(self, path: Path) -> None:
        rel = path.relative_to(self.root).as_posix()
        if any(ord(c) < 32 or ord(c) == 127 for c in rel):  # a newline in a name would forge lines of the report
            shown = rel.encode("unicode_escape", "backslashreplace").decode("ascii")
            self.rejected[shown] = "file whose name holds control characters; not read"
            return
        try:
            st = path.lstat()
        except OSError:
            return  # gone since the directory was listed
        if stat.S_ISLNK(st.st_mode):
            try:
                target = Path(os.path.realpath(path))
            except OSError:
                self.rejected[rel] = "file that changed while the bundle was listed; not read"
                return
            if not inside(target, self.root):
                self.rejected[rel] = "symlink that points outside the bundle; not read"
                return
            if not target.is_file():
                return
            path = target
        elif not stat.S_ISREG(st.st_mode):
            if not stat.S_ISDIR(st.st_mode):
                self.rejected[rel] = f"{kind_of(st.st_mode).removeprefix('a ')}, not a regular file; not read"
            return
        try:
            fd, fst = open_checked(path, self.root, rel, allow_hardlinks=self.allow_hardlinks)
        except UnreadableEvidence as exc:
            self.rejected[rel] = "file that " + exc.reason
            return
        try:
            kind, transform = classify_file(path, fst.st_size, fd)
        finally:
            os.close(fd)
        self.files[rel] = EvidenceFile(rel, path, fst.st_size, kind, transform, Identity.of(fst))

    def open(self, file: EvidenceFile) -> tuple[int, os.stat_result]:
        """A read-only descriptor of ``file``'s bytes as UTF-8 (its decoded copy for .gz and UTF-16 files),
        checked to be the file that was listed; raises :class:`UnreadableEvidence` otherwise."""
        if file.transform:
            path, identity = self._decoded_copy(file)
            return open_checked(path, path.parent, file.rel, identity, allow_hardlinks=True)
        return open_checked(file.path, self.root, file.rel, file.identity, self.allow_hardlinks)

    def read_bytes(self, file: EvidenceFile, limit: int) -> bytes:
        """At most ``limit`` bytes of ``file`` (decoded), read through :meth:`open`."""
        fd, _ = self.open(file)
        try:
            return read_all(fd, limit)
        finally:
            os.close(fd)

    # -- lookup ----------------------------------------------------------------------------
    def resolve(self, cited: str) -> Lookup:
        """Find the file a citation names: by relative path, unique path suffix, or unique basename."""
        text = cited.strip().strip("`'\"").replace("\\", "/")
        if not text:
            return Lookup(None, "no file name given")
        if text.startswith(("/", "~")) or re.match(r"^[A-Za-z]:/", text):
            return Lookup(None, f"'{cited}' is an absolute path: it points outside the bundle and is not read")
        parts = [p for p in text.split("/") if p not in ("", ".")]
        if ".." in parts:
            return Lookup(None, f"'{cited}' climbs out with '..': it points outside the bundle and is not read")
        rel = "/".join(parts)
        for n in range(len(parts), 0, -1):
            prefix = "/".join(parts[:n])
            if prefix in self.rejected:
                return Lookup(None, f"'{prefix}' is a {self.rejected[prefix]}")
        if rel in self.files:
            return Lookup(self.files[rel])
        suffix = [r for r in self.files if r.endswith("/" + rel)]
        if len(parts) > 1 and len(suffix) == 1:
            return Lookup(self.files[suffix[0]])
        if len(parts) == 1:
            same = self._by_name.get(rel.lower(), [])
            exact = [r for r in same if PurePosixPath(r).name == rel] or same
            if len(exact) == 1:
                return Lookup(self.files[exact[0]])
            if len(exact) > 1:
                return Lookup(None, f"'{cited}' is ambiguous: {', '.join(sorted(exact))}")
        if len(suffix) > 1:
            return Lookup(None, f"'{cited}' is ambiguous: {', '.join(sorted(suffix))}")
        for bad, why in self.rejected.items():
            if PurePosixPath(bad).name == parts[-1]:
                return Lookup(None, f"'{bad}' is a {why}")
        close = difflib.get_close_matches(rel, list(self.files), n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        return Lookup(None, f"file '{cited}' is not in the evidence bundle{hint}")

    def shown(self, rel: str = "") -> str:
        """How to name a bundle file in a command the user can run (relative to where they ran us).

        A file inside an archive bundle is shown as ``archive.zip!/path/in/archive``.
        """
        if self.archive is not None:
            return f"{self.given.as_posix()}!/{rel}" if rel else self.given.as_posix()
        base = self.given if self.given.is_dir() else self.given.parent
        return (base / rel).as_posix() if rel else base.as_posix()

    def _decoded_copy(self, file: EvidenceFile) -> tuple[Path, Identity]:
        """The decoded copy of a .gz or UTF-16 file, made once per run in the private directory."""
        if file.rel not in self._decoded:
            if self._private is None:
                self._private = private_dir()
            target = self._private / "decoded" / file.rel
            fd, _ = open_checked(file.path, self.root, file.rel, file.identity, self.allow_hardlinks)
            try:
                with os.fdopen(os.dup(fd), "rb") as source:
                    decode_to(source, file.rel, target, file.transform, self.limits)
            except BundleError as exc:
                raise UnreadableEvidence(file.rel, f"cannot be decoded: {exc.message}") from None
            finally:
                os.close(fd)
            self._decoded[file.rel] = (target, Identity.of(target.stat()))
        return self._decoded[file.rel]

    def of_kind(self, *kinds: FileKind) -> list[EvidenceFile]:
        return [f for f in self.files.values() if f.kind in kinds]

    def lines(self, file: EvidenceFile) -> LineFile:
        """The line index of ``file`` (built once per run). At most :data:`MAX_OPEN_MAPS` files stay mapped: the
        least recently used are unmapped and mapped again when read (each map holds a file descriptor)."""
        with self._pool:
            lf = self._lines.get(file.rel)
            if lf is None:
                try:
                    fd, st = self.open(file)
                except UnreadableEvidence as exc:
                    self.unreadable.setdefault(exc.rel, exc.reason)
                    raise
                try:
                    lf = LineFile(fd, st, file.rel, None if file.transform else self.index_cache,
                                  reopen=functools.partial(self.open, file), on_map=self._mapped)
                finally:
                    os.close(fd)
                self._lines[file.rel] = lf
                self._mapped(lf)
            elif file.rel in self._live:
                self._live.move_to_end(file.rel)
        return lf

    def _mapped(self, lf: LineFile) -> None:
        """Count ``lf`` as mapped and unmap the least recently used files over the limit (never a HAR capture,
        whose entries are read from the map, nor a file a worker has pinned)."""
        with self._pool:
            self._live[lf.rel] = None
            self._live.move_to_end(lf.rel)
            for rel in list(self._live):
                if len(self._live) <= self._budget:
                    break
                if rel == lf.rel or self._pins.get(rel) or self.files[rel].kind is FileKind.HAR:
                    continue
                if self._lines[rel].release():
                    del self._live[rel]

    @contextlib.contextmanager
    def pinned(self, file: EvidenceFile) -> Iterator[None]:
        """Keep ``file`` mapped while a worker thread reads it."""
        with self._pool:
            self._pins[file.rel] = self._pins.get(file.rel, 0) + 1
        try:
            yield
        finally:
            with self._pool:
                self._pins[file.rel] -= 1

    def memo(self, key: tuple[str, str], build: Any) -> Any:
        """Per-run memo: ``build()`` once per key."""
        if key not in self.cache:
            self.cache[key] = build()
        return self.cache[key]

    def close(self) -> None:
        for lf in self._lines.values():
            lf.close()
        self._lines.clear()
        self._live.clear()
        if self._private is not None:
            remove(self._private)
            self._private = None

    def __enter__(self) -> Bundle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def classify_file(path: Path, size: int, fd: int | None = None) -> tuple[FileKind, str]:
    """Kind of one file and how it must be decoded before reading (``gzip``, ``utf-16`` or nothing).

    ``fd`` is the file opened by :func:`~citeproof.evidence.access.open_checked`; without it the path is opened."""
    if fd is None:
        with open(path, "rb") as fh:
            return classify_file(path, size, fh.fileno())
    head = os.pread(fd, 8192, 0)
    name = path.name.lower()
    if head.startswith(b"\x1f\x8b") and name.endswith(".gz") and not name.endswith((".tar.gz", ".tgz")):
        inner = name[:-3]
        try:
            with os.fdopen(os.dup(fd), "rb") as raw, gzip.GzipFile(fileobj=raw) as gz:
                first = gz.read(2)
        except (OSError, EOFError):
            return FileKind.COMPRESSED, ""
        utf16 = "+utf-16" if first in (b"\xff\xfe", b"\xfe\xff") else ""
        return (FileKind.HAR if inner.endswith(".har") else FileKind.LOG), "gzip" + utf16
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return (FileKind.HAR if name.endswith(".har") else FileKind.LOG), "utf-16"
    return classify(path, size, head, fd), ""


def classify(path: Path, size: int, head: bytes | None = None, fd: int | None = None) -> FileKind:
    """Kind of one file, from its name and its first bytes (and, for small JSON, its shape)."""
    name = path.name.lower()
    if head is None:
        with open(path, "rb") as fh:
            head = fh.read(8192)
    for magic in _MAGIC:
        if head.startswith(magic):
            return FileKind.COMPRESSED
    if b"\x00" in head:
        return FileKind.BINARY
    if name == "inv_context.json":
        return FileKind.CONTEXT
    stem_match = _ENV_NAME.match(name)
    if stem_match and path.suffix.lower() in {"", ".log", ".txt", ".json", ".env", ".properties", ".yaml", ".yml"}:
        return FileKind.ENV
    body = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if name.endswith(".har") or _HAR_HEAD.match(body):
        return FileKind.HAR
    suffix = path.suffix.lower()
    if body.startswith((b"{", b"[")):
        if _looks_like_json_lines(body) and suffix != ".json":
            return FileKind.LOG
        if size <= _JSON_SNIFF_LIMIT:
            kind = _classify_json(read_all(fd, size) if fd is not None else path.read_bytes())
            if kind is not None:
                return kind
            return FileKind.CONFIG if suffix in _CONFIG_EXT else FileKind.LOG
        return FileKind.CONFIG if suffix == ".json" else FileKind.LOG
    if suffix in _CONFIG_EXT or _looks_like_ini(body):
        return FileKind.CONFIG
    return FileKind.LOG


_INI_SECTION = re.compile(rb"^\s*\[[\w .:\-]+\]\s*$", re.M)
_INI_KEY = re.compile(rb"^\s*[\w.\-]+\s*[=:]\s*\S", re.M)


def _looks_like_ini(body: bytes) -> bool:
    """``[section]`` header lines and ``key = value`` lines (jail.local, my.cnf, *.service)."""
    return bool(_INI_SECTION.search(body)) and len(_INI_KEY.findall(body)) >= 2


def _looks_like_json_lines(body: bytes) -> bool:
    lines = body.split(b"\n", 2)
    return len(lines) > 2 and lines[0].rstrip().endswith(b"}") and lines[1].lstrip().startswith(b"{")


def _classify_json(raw: bytes) -> FileKind | None:
    """Kind of a JSON document by its shape; None when it does not parse."""
    import orjson

    try:
        data = orjson.loads(raw.lstrip(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError:
        return None
    if isinstance(data, dict):
        log = data.get("log")
        if isinstance(log, dict) and isinstance(log.get("entries"), list):
            return FileKind.HAR
        patterns = data.get("patterns")
        if isinstance(patterns, list) and all(isinstance(p, dict) and "id" in p for p in patterns):
            return FileKind.PATTERNS
        if "key" in data and isinstance(data.get("fields"), dict):
            return FileKind.JIRA
        issues = data.get("issues")
        if isinstance(issues, list) and all(isinstance(i, dict) and "key" in i for i in issues):
            return FileKind.JIRA
        if isinstance(data.get("environment"), dict) and ("verification" in data or "confirmed_facts" in data):
            return FileKind.CONTEXT
    return FileKind.CONFIG
