"""Opening evidence files so that what is read is what was listed.

A bundle is listed once (:class:`citeproof.evidence.Bundle`); every later read opens the file again.
Between the two, anyone who can write to the bundle can swap a file for a symlink to ``/etc/shadow``,
or a directory for a link to another tree. So a file is never read through its path alone:

* it is opened with ``O_NOFOLLOW`` (a symlink in its place is refused) and ``O_NONBLOCK`` (a FIFO in
  its place cannot hang the run);
* the open descriptor must be a regular file whose real path (``/proc/self/fd``) lies inside the bundle;
* its device and inode must be those seen when the bundle was listed (:class:`Identity`), so a file
  replaced since is refused rather than read;
* a file with more than one hard link may be a link to a file outside the bundle that a directory
  listing cannot tell apart: it is refused unless the user allows hard links (``allow_hardlinks``).

A refusal raises :class:`UnreadableEvidence` naming the file and the reason; citations into that file
report it (``missing_evidence``), and searches over the bundle skip it with a warning.

Passing: ``open_checked(root / "app.log", root)`` on a regular file of the bundle gives its descriptor.
Failing: the same call after ``app.log`` was replaced by a symlink raises ``UnreadableEvidence``
("app.log is a symlink now ...").
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
    | getattr(os, "O_NOCTTY", 0)


class UnreadableEvidence(Exception):
    """An evidence file that cannot be read safely: ``rel`` names it, ``reason`` says why (no file content)."""

    def __init__(self, rel: str, reason: str) -> None:
        self.rel = rel
        self.reason = reason
        super().__init__(f"{rel}: {reason}")


@dataclass(frozen=True)
class Identity:
    """What a file was when it was listed: enough to tell it was replaced or changed since."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    ctime_ns: int
    nlink: int

    @classmethod
    def of(cls, st: os.stat_result) -> Identity:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_nlink)


def kind_of(mode: int) -> str:
    """A file type in words, for a reason ("a FIFO", "a directory")."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symlink")):
        if test(mode):
            return name
    return "not a regular file"


def real_path(fd: int) -> str | None:
    """The path an open descriptor refers to (``/proc/self/fd``), or None where there is no /proc."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None  # no /proc (macOS): the inode check below still holds


def inside(path: str | Path, root: str | Path) -> bool:
    try:
        return os.path.commonpath([str(path), str(root)]) == str(root)
    except ValueError:
        return False


def open_checked(path: Path, root: Path, rel: str = "", expect: Identity | None = None,
                 allow_hardlinks: bool = False) -> tuple[int, os.stat_result]:
    """Open ``path`` read-only as described above; the caller closes the descriptor."""
    rel = rel or path.name
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnreadableEvidence(rel, "is a symlink now, not the file that was listed; not read") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise UnreadableEvidence(rel, "cannot be read: permission denied") from None
        if exc.errno == errno.ENOENT:
            raise UnreadableEvidence(rel, "no longer exists") from None
        raise UnreadableEvidence(rel, f"cannot be opened ({os.strerror(exc.errno or 0) or type(exc).__name__})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableEvidence(rel, f"is {kind_of(st.st_mode)}, not a regular file; not read")
        real = real_path(fd)
        if real is not None and not inside(real, root):
            raise UnreadableEvidence(rel, "now lies outside the bundle; not read")
        if expect is not None and (st.st_dev, st.st_ino) != (expect.dev, expect.ino):
            raise UnreadableEvidence(rel, "was replaced since the bundle was listed; not read")
        if st.st_nlink > 1 and not allow_hardlinks:
            raise UnreadableEvidence(rel, f"has {st.st_nlink} hard links and may be a file from outside the bundle; "
                                          "not read (allow_hardlinks: true reads it)")
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def open_regular(path: str | os.PathLike[str], nofollow: bool = False) -> int:
    """A read-only descriptor of a regular file outside the bundle (findings, a transcript): a FIFO, a device
    or a directory raises ``OSError`` whose ``strerror`` names what it is, instead of hanging or reading forever.
    ``nofollow`` refuses a symlink in the last component (cache entries)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0))
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise OSError(errno.EINVAL, f"{kind_of(mode)}, not a regular file", os.fspath(path))
    return fd


def read_regular(path: str | os.PathLike[str], limit: int, nofollow: bool = False) -> bytes:
    """The bytes of a regular file (see :func:`open_regular`); ``OSError`` (EFBIG) when it holds more than ``limit``."""
    fd = open_regular(path, nofollow)
    try:
        data = read_all(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes", os.fspath(path))
    return data


def read_all(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes of an open descriptor, from its start."""
    chunks = []
    left = limit
    while left > 0:
        chunk = os.pread(fd, min(left, 1 << 20), limit - left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
