"""Small helpers the integrations share."""

from __future__ import annotations

import os
from pathlib import Path


def as_findings_text(text: str) -> str:
    """``text`` as :func:`citeproof.validate` must take it: as findings, never as a file name.

    ``validate`` reads a one-line string naming an existing file as that file; an agent's one-line
    message (or an MCP argument) must not make it open a file, so a newline is added.
    """
    return text if "\n" in text else text + "\n"


def inside(path: str | Path, root: str | Path) -> bool:
    """Whether ``path`` is ``root`` or lies below it, after resolving symlinks."""
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or os.path.commonpath([real, base]) == base


__all__ = ["as_findings_text", "inside"]
