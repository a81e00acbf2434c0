"""Findings -> claims with their citations.

Findings are Markdown/plain text or structured claims JSON, told apart by content:

* Markdown/text: see :mod:`citeproof.extract.markdown`.
* JSON: a list of claims, ``{"claims": [...]}``, or the pipeline shape
  ``{"validated_claims": [...], "non_validated_claims": [...]}``. Each claim is a string or an object
  ``{"id"?, "claim" | "text", "citations"?: [str], "evidence_sources"?: [str], "validation_status"?}``.
  Citations given in ``citations``/``evidence_sources`` are parsed like citations in text; one that
  matches no format is kept as an ``unknown`` citation and fails the claim (unknown is never a pass).

Claims keep the ``id`` given in structured input; otherwise they are numbered ``c1``, ``c2``, ...
in reading order.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import orjson

from ..errors import FindingsError
from ..findings_io import decode_findings, load_findings, read_stdin_findings
from ..model import CitationRef, Claim
from ..zones import column_zone
from .markdown import is_claim_text, is_unverified, recommends, sentences

if TYPE_CHECKING:
    from ..citations import Scope

MAX_SENTENCE_CHARS = 100_000  # ten times the longest claim that is checked (engine.MAX_CLAIM_CHARS)
MAX_CLAIMS = 20_000  # an agent's findings hold tens to hundreds; at about 1 ms a claim, a larger document is refused
_FILLER = re.compile(
    r"^(?:[\s()\[\]{},;:.`'\"*_\-–—>]|\b(?:sources?|evidence|refs?|references?|see|cf|citations?|per|from|in|at|and|also)\b)*$",
    re.I,
)


def _find_citations(text: str, scope: Scope | None) -> list[CitationRef]:
    from ..citations import find_citations  # the formats, imported when findings are read, not with this module

    return list(find_citations(text, scope))


def read_claims(text: str, scope: Scope | None = None, source: str = "findings", structured: bool | None = None) -> list[Claim]:
    """Claims of a findings document (Markdown/text or structured JSON).

    ``structured`` None tells the two apart by content (text that opens with ``[`` or ``{`` but does not
    parse as JSON is read as prose); True requires JSON (a ``.json`` file) and makes a parse error a
    :class:`FindingsError` with its line and column."""
    stripped = text.lstrip()
    if structured or stripped[:1] in ("[", "{"):
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            if structured or not re.search(r"[A-Za-z]{2}", stripped[:65536]):
                where = f"{exc.msg} at line {exc.lineno}, column {exc.colno}" if stripped else "the file is empty"
                what = "findings are not valid JSON" if structured else "findings look like JSON but do not parse"
                raise FindingsError(f"{what}: {where}", source) from None
            data = None
        if data is not None:
            return _structured(data, scope, source)
    return _prose(text, scope, source)


_FOOTNOTE_DEF = re.compile(r"^[ \t]{0,3}\[\^([^\]\s]+)\]:[ \t]*(.*)$", re.M)
_FOOTNOTE_REF = re.compile(r"\[\^([^\]\s]+)\]")


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# a numbered source list: "[1] capture.har:entry-1", "[1]: ...", "1. ...", "¹ ...", under "Sources:" or not
_NUMBERED_DEF = re.compile(r"^[ \t]{0,3}(?:[-*+][ \t]+)?(?:\[(\d{1,3})\]:?|([⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}))[ \t]*(\S.*)$", re.M)
_LISTED_DEF = re.compile(r"^[ \t]{0,3}(\d{1,3})[.)][ \t]+(\S.*)$", re.M)
_SOURCES_HEAD = re.compile(
    r"^[ \t]{0,3}(?:#{1,6}[ \t]*)?\**(?:sources|references|citations|evidence|notes)\**[ \t]*:?\**[ \t]*$", re.I | re.M
)
_NUMBER_REF = re.compile(r"\[(\d{1,3}(?:\s?,\s?\d{1,3})*)\]|([⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})")


def _footnotes(text: str, scope: Scope | None = None) -> tuple[str, dict[str, str]]:
    """Footnote definitions and the text with them blanked (lines kept).

    ``[^1]: demisto.log:45`` anywhere. Numbered notes — ``[1] demisto.log:45``, ``[1]: ...``, ``¹ ...`` lines,
    and ``1. demisto.log:45`` items of a list under a "Sources:"/"References:" heading — when the line holds
    a citation and either a marker ``[1]`` or ``¹`` elsewhere refers to it or it sits under that heading
    with nothing but citations. A numbered claim that merely starts with "[1]" or sits in an "Evidence"
    list is never taken for a note and lost. Numbered notes are keyed ``#1``.
    """
    notes: dict[str, str] = {}

    def blank(m: re.Match[str]) -> str:
        notes.setdefault(m.group(1), m.group(2))
        return ""

    text = _FOOTNOTE_DEF.sub(blank, text)
    candidates: list[tuple[int, int, str, str]] = []  # start, end, number, definition
    for m in _NUMBERED_DEF.finditer(text):
        candidates.append((m.start(), m.end(), m.group(1) or m.group(2).translate(_SUPERSCRIPT), m.group(3)))
    head = _SOURCES_HEAD.search(text)
    if head is not None:
        candidates += [(m.start(), m.end(), m.group(1), m.group(2)) for m in _LISTED_DEF.finditer(text, head.end())]
    spans: list[tuple[int, int, str, str]] = []
    for candidate in sorted(candidates):
        if not spans or candidate[0] >= spans[-1][1]:
            spans.append(candidate)
    outside, pos = [], 0  # the text without the candidate lines: where markers must be
    for start, end, _, _ in spans:
        outside.append(text[pos:start])
        pos = end
    outside.append(text[pos:])
    referred = set(_referred("".join(outside)))
    listed_from = head.end() if head is not None else len(text)
    chosen = []
    for start, end, number, definition in spans:
        refs = _find_citations(definition, scope)
        # a note: a marker points at it, or it sits under a "Sources:" heading and holds nothing but citations
        if refs and (number in referred or (start >= listed_from and _FILLER.match(_without(definition, refs)))):
            chosen.append((start, end, number, definition))
    for start, end, number, definition in reversed(chosen):
        notes.setdefault("#" + number, definition)
        text = text[:start] + text[end:]
    return text, notes


def _referred(text: str) -> list[str]:
    """The note numbers that markers ``[n]``, ``[m, n]`` and superscripts in ``text`` point at, in order."""
    out: list[str] = []
    for m in _NUMBER_REF.finditer(text):
        out += re.findall(r"\d+", m.group(1)) if m.group(1) else [m.group(2).translate(_SUPERSCRIPT)]
    return out


def _marks(sentence: str, notes: dict[str, str]) -> list[str]:
    """The note keys a sentence refers to: ``[^a]``, and ``[1]``, ``[1, 2]``, ``¹`` when numbered notes exist."""
    return _FOOTNOTE_REF.findall(sentence) + ["#" + n for n in _referred(sentence) if "#" + n in notes]


_BARE_LINES = re.compile(r"\b[Ll]ines?\s+(\d{1,9})(?:\s*(?:-|–|—|to|through)\s*(\d{1,9}))?\b(?!\s*(?:of|in|from)\s)")


def _bare_lines(text: str, path: str, scope: Scope | None) -> list[CitationRef]:
    """"Lines 8502-8547 are ..." after a sentence of the same paragraph cited access.log: lines of that file."""
    out = []
    for m in _BARE_LINES.finditer(text):
        canonical = f"{path}:{m.group(1)}" + (f"-{m.group(2)}" if m.group(2) else "")
        out += [CitationRef(r.format_id, r.raw, m.start(), m.end(), r.fields, r.parse_error)
                for r in _find_citations(canonical, scope) if r.format_id == "file:line"]
    return out


def _too_many(source: str) -> FindingsError:
    return FindingsError(f"the findings hold more than {MAX_CLAIMS} claims, the most one run checks: "
                         "split them into several documents", source)


def _prose(text: str, scope: Scope | None, source: str = "findings") -> list[Claim]:
    claims: list[Claim] = []
    text, notes = _footnotes(text, scope)
    cited_file: tuple[int, str] | None = None  # (block, path) of the last file:line citation
    for sentence in sentences(text):
        if len(sentence.text) > MAX_SENTENCE_CHARS:  # reported as too long to check; its citations are not read
            claims.append(Claim(f"c{len(claims) + 1}", sentence.text, (), sentence.line, sentence.column))
            continue
        refs = _find_citations(sentence.text, scope)
        if not refs and cited_file is not None and cited_file[0] == sentence.block:
            refs = _bare_lines(sentence.text, cited_file[1], scope)
        paths = [str(r.fields["path"]) for r in refs if r.format_id == "file:line" and "path" in r.fields]
        if paths:
            cited_file = (sentence.block, paths[-1])
        for mark in _marks(sentence.text, notes):
            refs += [CitationRef(r.format_id, r.raw, -1, -1, r.fields, r.parse_error) for r in _find_citations(notes.get(mark, ""), scope)]
        rest = _without(sentence.text, refs)
        if refs and claims and _FILLER.match(rest):
            prev = claims[-1]
            shift = len(prev.text) + 1
            moved = tuple(
                CitationRef(r.format_id, r.raw, r.start + shift, r.end + shift, r.fields, r.parse_error) for r in refs
            )
            claims[-1] = Claim(prev.id, f"{prev.text} {sentence.text}", prev.citations + moved, prev.line, prev.column, prev.unverified)
            continue
        if not is_claim_text(rest if refs else sentence.text, cited=bool(refs)) or (sentence.label and not refs):
            continue
        if not refs and recommends(sentence.section) and not is_unverified(sentence.text):
            continue  # "Replace the drive behind osd.9" under "Action items": a recommendation, not a claim
        if len(claims) == MAX_CLAIMS:
            raise _too_many(source)
        claims.append(
            Claim(f"c{len(claims) + 1}", sentence.text, tuple(refs), sentence.line, sentence.column, is_unverified(sentence.text),
                  column_zone(sentence.header) if sentence.header else None)
        )
    return claims


def _without(text: str, refs: list[CitationRef]) -> str:
    out, pos = [], 0
    for r in refs:
        if r.start < pos:
            continue
        out.append(text[pos : r.start])
        pos = r.end
    out.append(text[pos:])
    return "".join(out)


def _structured(data: Any, scope: Scope | None, source: str) -> list[Claim]:
    items: list[Any]
    if isinstance(data, list):
        items = data
    elif isinstance(data, dict) and isinstance(data.get("claims"), list):
        items = data["claims"]
    elif isinstance(data, dict) and ("validated_claims" in data or "non_validated_claims" in data):
        for key in ("validated_claims", "non_validated_claims"):
            if data.get(key) is not None and not isinstance(data[key], list):
                raise FindingsError(f"'{key}' must be a list of claims, not a {type(data[key]).__name__}", source)
        items = list(data.get("validated_claims") or []) + list(data.get("non_validated_claims") or [])
    else:
        raise FindingsError(
            "JSON findings must be a list of claims, {\"claims\": [...]} or {\"validated_claims\": [...], \"non_validated_claims\": [...]}",
            source,
        )
    if len(items) > MAX_CLAIMS:
        raise _too_many(source)
    claims: list[Claim] = []
    seen_ids: set[str] = set()
    for index, item in enumerate(items, 1):
        given: Any = None
        extra: list[str] = []
        if isinstance(item, str):
            text = item
        elif isinstance(item, dict):
            value = item.get("claim", item.get("text"))
            if not isinstance(value, str):
                raise FindingsError(f"claim {index} has no 'claim' or 'text' string", source)
            text = value
            given = item.get("id")
            extra = _as_list(item.get("citations")) + _as_list(item.get("evidence_sources"))
        else:
            raise FindingsError(f"claim {index} is a {type(item).__name__}, expected an object or a string", source)
        claim_id = str(given) if given is not None else f"c{index}"
        if claim_id in seen_ids:
            raise FindingsError(f"claim id '{claim_id}' is used twice", source)
        seen_ids.add(claim_id)
        claim = claim_of(text, extra, scope, claim_id)
        if not claim.citations and re.search(r"[A-Za-z]{2}", text) and not is_claim_text(text, cited=False):
            continue  # a question, a plan or a sentence about the document is not a claim in JSON either
        claims.append(claim)
    return claims


def claim_of(text: str, citations: list[str] | tuple[str, ...] = (), scope: Scope | None = None, claim_id: str = "c1") -> Claim:
    """One claim as structured input gives it: its text (citations in it are found too) and the citations
    listed for it, each parsed like a citation in text; one in no known format is kept as an ``unknown``
    citation that fails the claim (unknown is never a pass)."""
    refs = list(_find_citations(text, scope))
    for cited in citations:
        parsed = _find_citations(cited, scope)
        if parsed:
            refs.extend(CitationRef(r.format_id, r.raw, -1, -1, r.fields, r.parse_error) for r in parsed)
        else:
            refs.append(CitationRef("unknown", cited, -1, -1, {}, f"'{cited}' matches none of the seven citation formats"))
    return Claim(claim_id, text, tuple(refs), 0, 0, is_unverified(text))


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)]


__all__ = ["claim_of", "decode_findings", "load_findings", "read_claims", "read_stdin_findings"]
