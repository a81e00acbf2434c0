"""What the command line does differently on a terminal: colour and progress.

Colour (the text report): ``--color`` / ``--no-color`` decide when given. Otherwise ``NO_COLOR``
set to anything but the empty string turns colour off (https://no-color.org), ``FORCE_COLOR`` set
to anything but the empty string or ``0`` turns it on even through a pipe (``NO_COLOR`` wins when
both are set), and without either the report is coloured when it goes to a terminal whose ``TERM``
is not ``dumb``. A report written with ``--output FILE`` is never coloured unless ``--color``.

Progress (indexing large evidence, ``citeproof batch``): one line on stderr, redrawn in place, only
when stderr is a terminal, and erased when the work is done; piped or redirected, nothing is
written. It counts real work: bytes indexed (every 4 MB block) or cases finished, and is redrawn
whenever the whole percentage or the count changes, never on a timer, so the same run draws the
same frames.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import TextIO


def wants_color(flag: bool | None, to_terminal: bool, env: Mapping[str, str] | None = None) -> bool:
    """Whether to colour a report: the flag, else ``NO_COLOR``, else ``FORCE_COLOR``, else a (non-dumb) terminal."""
    if flag is not None:
        return flag
    environ = os.environ if env is None else env
    if environ.get("NO_COLOR", ""):
        return False
    if environ.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    return to_terminal and environ.get("TERM", "") != "dumb"


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


class Meter:
    """A progress line on ``stream``: ``indexing evidence: 12.6 of 41.9 MB (30%)``; thread-safe.

    ``unit`` "MB" shows byte counts in megabytes; any other unit shows whole counts (``2 of 3 cases``)."""

    def __init__(self, stream: TextIO, label: str, total: float, unit: str = "MB") -> None:
        self.stream = stream
        self.label = label
        self.total = max(float(total), 0.0)
        self.unit = unit
        self.done = 0.0
        self._shown: tuple[int, str] | None = None
        self._lock = threading.Lock()
        self._draw()

    def advance(self, amount: float) -> None:
        with self._lock:
            self.done = min(self.total, self.done + max(amount, 0.0))
            self._draw()

    def close(self) -> None:
        """Erase the line (the work is done)."""
        with self._lock:
            if self._shown is not None:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self._shown = None

    def _draw(self) -> None:
        percent = int(100 * self.done / self.total) if self.total else 100
        if self.unit == "MB":
            count = f"{self.done / 1e6:.1f} of {self.total / 1e6:.1f} MB"
        else:
            count = f"{int(self.done)} of {int(self.total)} {self.unit}"
        if self._shown is not None and self._shown[0] == percent and (self.unit == "MB" or self._shown[1] == count):
            return
        self._shown = (percent, count)
        self.stream.write(f"\r\x1b[K{self.label}: {count} ({percent}%)")
        self.stream.flush()


__all__ = ["Meter", "is_terminal", "wants_color"]
