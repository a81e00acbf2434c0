"""Read-only access to an evidence bundle: files, lines, HAR entries, timestamps, structured data."""

from .access import UnreadableEvidence
from .bundle import Bundle, EvidenceFile, FileKind, Lookup

__all__ = ["Bundle", "EvidenceFile", "FileKind", "Lookup", "UnreadableEvidence"]
