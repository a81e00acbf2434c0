"""The reporter interface."""

from __future__ import annotations

from typing import ClassVar, TextIO

from ..model import Report


class Reporter:
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __init__(self, color: bool = False) -> None:
        self.color = color

    def write(self, report: Report, stream: TextIO) -> None:  # pragma: no cover - interface
        raise NotImplementedError
