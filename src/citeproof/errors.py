"""Failures of the tool itself, as opposed to findings about claims.

A claim that fails validation is a value in the :class:`~citeproof.model.Report`; a problem that
stops citeproof from validating at all (an unreadable findings file, a bundle path that does not
exist, a bad option) raises a subclass of :class:`CiteproofError`. The command line turns these
into one line on stderr and exit code 2.

Every message names the file (or option) involved and what is wrong with it.
"""

from __future__ import annotations

from pathlib import Path


class CiteproofError(Exception):
    """Base class of every error citeproof raises on purpose."""

    code = "EG000"

    def __init__(self, message: str, path: str | Path | None = None) -> None:
        self.path = None if path is None else str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}" if self.path else message)


class FindingsError(CiteproofError):
    """The findings could not be read or have an unusable shape."""

    code = "EG001"


class BundleError(CiteproofError):
    """The evidence bundle could not be opened."""

    code = "EG002"


class ConfigError(CiteproofError):
    """An option or configuration file is invalid."""

    code = "EG003"
