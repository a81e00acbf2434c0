"""The version of citeproof, in one place: the package, the reports and the caches read it from here."""

__version__ = "0.1.0"
