"""Identifiers: URLs, IP addresses, host names, exception classes, CamelCase and snake_case names,
error codes, paths and hex ids the claim names occur in the cited evidence; a product the claim names
("nginx", "fail2ban") is named by the evidence, its file name, or the shape of its lines (``data/signatures.json``:
a PostgreSQL log line names PostgreSQL without saying so).

Passing::

    evidence app.log: 2026-03-02 14:02:11 ERROR java.net.SocketTimeoutException: Read timed out
    claim: The client hit a java.net.SocketTimeoutException (app.log:1).
    verdict: supported

Failing::

    evidence app.log: 2026-03-02 14:02:11 ERROR java.net.SocketTimeoutException: Read timed out
    claim: The client hit a java.net.ConnectException (app.log:1).
    verdict: unsupported
"""

from __future__ import annotations

import re

from ..anchor import anchor_claim, written_by
from .base import Check, FactVerdict, Outcome, Subject, norm, probe, shortened, where

_DEFAULT_PORT = re.compile(r"(https://[^/\s:\"']+):443\b|(?<=http://)([^/\s:\"']+):80\b")


# POSIX signal numbers (signal(7)); systemd writes "status=9/KILL", the kernel "signal 9"
_SIGNALS = {"1": "hup", "2": "int", "3": "quit", "6": "abrt", "9": "kill", "11": "segv", "13": "pipe", "15": "term"}
_SIGNAL = re.compile(r"\b(?:signal\s+|status=|code=killed,\s*status=)(\d{1,2})(?:/([a-z]+))?\b"
                     r"|\bsignal:?\s+(kill|term|hup|int|segv|abrt)\b|\bsignal:?\s+(terminated|killed|interrupt|hangup)\b", re.I)


# a process ended by signal N exits with status 128 + N (POSIX shells, container runtimes): "Exit Code: 137" is SIGKILL
_EXIT_BY_SIGNAL = re.compile(r"\b(?:exit(?:ed)?(?:\s+with)?[ _]?(?:code|status)|exit_?code|status)[\s:=\"']{1,12}"
                             r"(129|13[0-9]|14[0-3])\b", re.I)


def _signal_names(text: str) -> list[str]:
    out = [f"sig{_SIGNALS[str(int(m.group(1)) - 128)]}" for m in _EXIT_BY_SIGNAL.finditer(text) if str(int(m.group(1)) - 128) in _SIGNALS]
    for m in _SIGNAL.finditer(text):
        word = {"terminated": "term", "killed": "kill", "interrupt": "int", "hangup": "hup"}.get((m.group(4) or "").lower(), "")
        name = (m.group(2) or m.group(3) or word or _SIGNALS.get(m.group(1) or "", "")).lower()
        if name:
            out.append("sig" + name)
    return out


_NAME_NUMBER = re.compile(r"([a-z][a-z_]*)-(\d+)")


def _as_field(ident: str, union: str) -> bool:
    """A word-number name ("page-2", "shard-3") written as a field of the evidence (``page=2``, ``shard: 3``)."""
    m = _NAME_NUMBER.fullmatch(ident.lower())
    return m is not None and re.search(rf"\b{re.escape(m.group(1))}\s?[=:]\s?[\"']?{m.group(2)}(?!\d)", union) is not None


def _as_words(ident: str, s: Subject) -> bool:
    """A CamelCase name that is a term of the operations lexicon ("OOMKilled") that the evidence says in other words:
    the whole by a synonym of the lexicon and each part ("OOM", "Killed") by its lemma or a synonym ("Memory cgroup
    out of memory: Killed process"); not a pod evicted for disk space, which shares only "killed"'s concept."""
    if not re.fullmatch(r"[A-Za-z]{4,}", ident) or ident.isupper():  # SIGTERM, NXDOMAIN: codes, only ever literal
        return False
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", ident)
    whole = anchor_claim(ident, s.items)
    each = anchor_claim(" ".join(parts), s.items) if len(parts) > 1 else []
    return (bool(whole) and all(a.evidence_word is not None and a.via == "synonym" for a in whole)
            and bool(each) and all(a.evidence_word is not None and a.via in ("lemma", "synonym") for a in each))


def check(s: Subject) -> FactVerdict | None:
    facts = s.facts
    software = facts.software
    if not (facts.identifiers or software):
        return None
    sources = norm(" ".join(e.source for e in s.items))
    union = _DEFAULT_PORT.sub(r"\1", s.union) if "://" in s.union else s.union  # https://host:443/x is https://host/x
    union = union + "\n" + " ".join(_signal_names(s.union))
    for ident in facts.identifiers:
        # "NameNode" may be named by the cited file (hdfs/namenode.log) rather than by its lines
        if probe(ident) not in s.union and probe(ident) not in union and probe(ident) not in sources \
                and not _as_field(ident, s.union) and not shortened(ident, s.union + "\n" + sources) \
                and not _as_words(ident, s):
            return CHECK.verdict(Outcome.UNSUPPORTED, "absent", f"'{ident}' does not occur in the cited evidence", ident,
                                 location=where(s.items))
    named = s.union + "\n" + sources + "\n" + norm(" ".join(written_by(e.text) for e in s.items if e.kind in ("log", "har")))
    for name in software:
        if name not in named:
            return CHECK.verdict(Outcome.UNSUPPORTED, "software_absent",
                                 f"the claim names {name}, which the cited evidence does not mention", name, location=where(s.items))
    return CHECK.verdict(Outcome.SUPPORTED, "shown", ", ".join((*facts.identifiers, *software)), (facts.identifiers or software)[0])


CHECK = Check("identifiers", "identifier", check, "each identifier the claim names occurs in the cited evidence")
