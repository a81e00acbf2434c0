"""Evidence that arrives packed: archives as bundles, and single compressed or UTF-16 files.

``.zip``, ``.tar``, ``.tar.gz``/``.tgz``, ``.tar.bz2`` and ``.tar.xz`` bundles are unpacked into a
private temporary directory (removed when the run ends) under limits: total unpacked bytes
(``archive_max_bytes``), number of members (``archive_max_members``) and compression ratio
(``archive_max_ratio``, unpacked / packed). Sizes are counted as bytes are written; the sizes members
declare are counted too, skipped members included, before their bytes are read past, so a ``../`` member
declaring 32 GiB is refused rather than inflated; a zip's members are counted from its central directory
before anything is unpacked. Members with absolute paths, ``..`` components, links, devices or FIFOs are
not unpacked; each is reported as a warning. Exceeding a limit stops with a one-line error naming
the archive.

Inside a bundle, a ``.gz`` file and a UTF-16 file (with a byte order mark) are decoded on first use
into the same private directory, as UTF-8, under the same byte and ratio limits.
"""

from __future__ import annotations

import codecs
import gzip
import os
import shutil
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from ..errors import BundleError

_COPY = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 16 * 1024**3
    max_members: int = 100_000
    max_ratio: float = 250.0


ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")


def is_archive(path: Path) -> bool:
    name = path.name.lower()
    if name.endswith(ARCHIVE_SUFFIXES):
        return True
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return False
    return head.startswith(b"PK\x03\x04") or (not head.startswith(b"\x1f\x8b") and tarfile.is_tarfile(path))


def _safe_name(name: str) -> str | None:
    """The member's relative path, or None when it would land outside the target."""
    clean = name.replace("\\", "/")
    if clean.startswith("/") or (len(clean) > 1 and clean[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(clean).parts if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


class _Budget:
    def __init__(self, archive: Path, limits: Limits, packed: int) -> None:
        self.archive, self.limits, self.packed = archive, limits, max(packed, 1)
        self.written = 0
        self.declared = 0
        self.members = 0

    def member(self) -> None:
        self.members += 1
        if self.members > self.limits.max_members:
            raise BundleError(f"archive has more than {self.limits.max_members} members (archive_max_members)", self.archive)

    def declare(self, size: int) -> None:
        """Count a member's declared size, unpacked or not: a skipped member's bytes must still be read past."""
        self.declared += max(size, 0)
        if self.declared > self.limits.max_bytes:
            raise BundleError(f"archive members declare more than {self.limits.max_bytes} bytes (archive_max_bytes)", self.archive)

    def add(self, size: int) -> None:
        self.written += size
        if self.written > self.limits.max_bytes:
            raise BundleError(f"archive unpacks to more than {self.limits.max_bytes} bytes (archive_max_bytes)", self.archive)
        if self.written > 1024 * 1024 and self.written / self.packed > self.limits.max_ratio:
            raise BundleError(
                f"archive expands more than {self.limits.max_ratio:g} times (archive_max_ratio): a decompression bomb?", self.archive
            )


def _copy(src: IO[bytes], dest: Path, budget: _Budget) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest, "xb") as out:
        while chunk := src.read(_COPY):
            budget.add(len(chunk))
            out.write(chunk)


def unpack(archive: Path, target: Path, limits: Limits) -> dict[str, str]:
    """Unpack ``archive`` into ``target``; returns the members left out, with why."""
    skipped: dict[str, str] = {}
    budget = _Budget(archive, limits, archive.stat().st_size)
    try:
        if zipfile.is_zipfile(archive):
            with zipfile.ZipFile(archive) as zf:
                members = zf.infolist()  # the central directory: counted and sized before anything is unpacked
                if len(members) > limits.max_members:
                    raise BundleError(f"archive has more than {limits.max_members} members (archive_max_members)", archive)
                for info in members:
                    budget.declare(info.file_size)
                budget.declared = 0
                for info in members:
                    budget.member()
                    name = _safe_name(info.filename)
                    mode = info.external_attr >> 16
                    if name is None:
                        skipped[info.filename] = "archive member with an absolute or '..' path; not unpacked"
                    elif stat.S_ISLNK(mode):
                        skipped[name] = "archive member that is a link; not unpacked"
                    elif not info.is_dir():
                        with zf.open(info) as src:
                            _copy(src, target / name, budget)
            return skipped
        with tarfile.open(archive, mode="r:*") as tf:
            for member in tf:
                budget.member()
                budget.declare(member.size)
                name = _safe_name(member.name)
                if name is None:
                    skipped[member.name] = "archive member with an absolute or '..' path; not unpacked"
                elif member.issym() or member.islnk():
                    skipped[name] = "archive member that is a link; not unpacked"
                elif member.isdev() or member.isfifo():
                    skipped[name] = "archive member that is a device or FIFO; not unpacked"
                elif member.isfile():
                    extracted = tf.extractfile(member)
                    if extracted is not None:
                        with extracted:
                            _copy(extracted, target / name, budget)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise BundleError(f"cannot unpack archive ({' '.join(str(exc).split()) or type(exc).__name__})", archive) from None
    return skipped


def decode_to(source: IO[bytes], rel: str, target: Path, transform: str, limits: Limits) -> None:
    """Write the open ``source`` (bundle file ``rel``) decoded (``gzip`` and/or ``utf-16``) as UTF-8 bytes to ``target``.
    A failure removes the partial copy."""
    budget = _Budget(Path(rel), limits, os.fstat(source.fileno()).st_size)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        stream: IO[bytes] = gzip.GzipFile(fileobj=source) if "gzip" in transform else source  # type: ignore[assignment]
        if "utf-16" not in transform:
            _copy(stream, target, budget)
            return
        reader = codecs.getreader("utf-16")(stream, "replace")
        with open(target, "xb") as out:
            while text := reader.read(_COPY):
                data = text.encode("utf-8")
                budget.add(len(data))
                out.write(data)
    except BaseException as exc:
        target.unlink(missing_ok=True)
        if isinstance(exc, OSError | EOFError | gzip.BadGzipFile):
            raise BundleError(f"cannot decode ({' '.join(str(exc).split()) or type(exc).__name__})", rel) from None
        raise


def remove(path: Path) -> None:
    if path.exists():
        shutil.rmtree(path, ignore_errors=True)


def private_dir() -> Path:
    import tempfile

    return Path(tempfile.mkdtemp(prefix="citeproof-"))


__all__ = ["ARCHIVE_SUFFIXES", "Limits", "decode_to", "is_archive", "private_dir", "remove", "unpack"]
