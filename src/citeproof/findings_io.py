"""Reading findings: a file or stdin, with the size limit and the decoding every entry point shares.

Only a regular file is read (a FIFO, a device or a directory is an error, never a hang), at most
:data:`MAX_FINDINGS_BYTES`; UTF-16 with a BOM or UTF-8 (BOM allowed); binary data is an error naming the
file. Turning the text into claims is :mod:`citeproof.extract`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

from .errors import FindingsError
from .evidence.access import open_regular, read_all

MAX_FINDINGS_BYTES = 64 * 1024 * 1024


def load_findings(path: str | Path) -> str:
    """Read a findings file as text (UTF-8, BOM allowed), with a one-line error on failure.

    Only a regular file is read (a FIFO, a device or a directory is an error, never a hang), and at most
    :data:`MAX_FINDINGS_BYTES` of it."""
    p = Path(path)
    try:
        fd = open_regular(p)
    except FileNotFoundError:
        raise FindingsError("findings file not found", p) from None
    except OSError as exc:
        raise FindingsError(f"cannot read findings ({exc.strerror or exc})", p) from None
    try:
        st = os.fstat(fd)
        if st.st_size > MAX_FINDINGS_BYTES:
            raise FindingsError(f"findings file is too large ({st.st_size} bytes, limit {MAX_FINDINGS_BYTES})", p)
        raw = read_all(fd, MAX_FINDINGS_BYTES + 1)
    except OSError as exc:
        raise FindingsError(f"cannot read findings ({exc.strerror or exc})", p) from None
    finally:
        os.close(fd)
    return decode_findings(raw, str(p))


def read_stdin_findings(stream: BinaryIO) -> str:
    """Findings piped in (``citeproof check -``): the same limits and decoding as a file, named ``<stdin>``."""
    try:
        raw = stream.read(MAX_FINDINGS_BYTES + 1)
    except OSError as exc:
        raise FindingsError(f"cannot read findings ({exc.strerror or exc})", "<stdin>") from None
    return decode_findings(raw, "<stdin>")


def decode_findings(raw: bytes, name: str) -> str:
    """Findings bytes as text: UTF-16 with a BOM, else UTF-8 (BOM allowed); binary data is an error naming ``name``."""
    if len(raw) > MAX_FINDINGS_BYTES:
        raise FindingsError(f"findings are too large (more than the limit of {MAX_FINDINGS_BYTES} bytes)", name)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace")
    if b"\x00" in raw[:65536]:
        raise FindingsError("findings are not text (binary data)", name)
    text = raw.decode("utf-8-sig", errors="replace")
    sample = text[:65536]
    if sample and sample.count("\ufffd") > max(8, len(sample) // 20):
        raise FindingsError("findings are not UTF-8 text (mostly undecodable bytes)", name)
    return text


__all__ = ["MAX_FINDINGS_BYTES", "decode_findings", "load_findings", "read_stdin_findings"]
