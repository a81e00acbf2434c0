"""The reporter interface, and the settings the command line hands every reporter.

``--format NAME`` picks a class from the registry; :meth:`Reporter.configured` builds it from the
:class:`ReportSettings` of the run, each reporter taking the settings it uses (colour for ``text``,
the size limit for ``markdown``, the source root for ``sarif``) and ignoring the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TextIO

if TYPE_CHECKING:
    from ..model import Report


@dataclass(frozen=True)
class ReportSettings:
    """What the command line knows about where a report goes."""

    color: bool = False
    max_chars: int = 65_000  # markdown: fit a GitHub comment (65,536 characters); 0: no limit
    full_report: str | None = None  # markdown: where the full report is, named when the report is cut
    srcroot: str | None = None  # sarif: the %SRCROOT% directory (the repository, else the current directory)
    cwd: str | None = None  # sarif: the directory relative paths in the report are relative to


class Reporter:
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __init__(self, color: bool = False) -> None:
        self.color = color

    @classmethod
    def configured(cls, settings: ReportSettings) -> Reporter:
        """The reporter for a run with ``settings``."""
        return cls(color=settings.color)

    def write(self, report: Report, stream: TextIO) -> None:  # pragma: no cover - interface
        raise NotImplementedError
