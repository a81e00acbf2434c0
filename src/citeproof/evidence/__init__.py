"""Read-only access to an evidence bundle: files, lines, HAR entries, timestamps, structured data.

The live JIRA REST client (:mod:`citeproof.evidence.jira_live`) is evidence too: tickets a bundle does not
export, fetched on request (opt-in, ``--jira-url``).
"""

from .access import UnreadableEvidence
from .bundle import Bundle, EvidenceFile, FileKind, Lookup

__all__ = ["Bundle", "EvidenceFile", "FileKind", "Lookup", "UnreadableEvidence"]
