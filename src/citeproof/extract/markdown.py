"""Findings written as Markdown or plain text -> claims.

The document is read block by block: headings, horizontal rules and fenced code blocks are skipped;
bullets and numbered items, table rows, block quotes and paragraphs are split into sentences; each
sentence keeps the line and column where it starts in the findings file.

A sentence is *not* a claim when it is a question, a lead-in ending with a colon, a plan ("Next I
will ...", "Let me ..."), a meta line ("Phase 3 analysis complete."), a greeting, or has no words.
When in doubt a sentence is a claim.

A sentence made only of citations (``(demisto.log:4521)``, ``Source: capture.har:entry-3``) belongs to
the claim before it. A claim disclosed as unverified ("Note: Unverified assumption - ...",
"Assumption:", "Hypothesis:", "unverified observation") is marked so; it is listed separately and
kept out of the verification rate.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_BOLD_HEADING = re.compile(r"^\s{0,3}(\*\*|__)[^*_]{1,80}\1\s*:?\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d{1,3}[.)]|\[\d{1,3}\])\s+(?:\[[ xX]\]\s+)?")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_NUMBERED = re.compile(r"^\s*\d{1,3}[.)]\s")
_CITES = re.compile(r"[\w.\-]+\.\w{2,5}:\d|\b(?:config|env|jira|pattern|timestamp):|\[\^?\w{1,8}\]|[⁰¹²³⁴⁵⁶⁷⁸⁹]", re.I)
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
# abbreviations, initials and an ellipsis ("an INSERT ... SELECT") do not end a sentence
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|vs|approx|incl|cf|fig|mr|mrs|dr|al)\.|\b(?:No|Ms|St)\.|\b[A-Z]\.|\.\.\.)$")
_SENT_END = re.compile(  # a footnote marker may follow the stop: "... state.[^1] EventBridge ...", "... state.¹ Then"
    r"(?:[.!?](?:[)\"'\]”’*_`]*)(?:\[\^?[\w\-]{1,8}\]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+)*(?=\s+(?:[\"'(\[“‘*_`]*[A-Z0-9]|[a-z][a-z]*[0-9_\-.][\w.\-]*))"
    r"|(?<=[)\]`])[.!?](?=\s+[a-z]))"
)

_PLAN = re.compile(
    r"^(?:next,?\s+|then,?\s+|now,?\s+)?(?:(?:i|we)(?:\s+will|'ll|\s+am going to|\s+are going to|\s+plan to|\s+intend to|"
    r"\s+need to|\s+should|\s+would(?:\s+like\s+to)?|'d|\s+want to)|let me|let's|let us|next step|to do:|todo)\b"
    r"|^(?:next|next steps?|follow-?ups?|to do|action items?)\s?:",
    re.I,
)
_META = re.compile(
    r"^(?:phase\s+\d+\w*(?:\s+\w+){0,2}\s+(?:is\s+)?(?:complete|completed|done|finished|started|begins)|"
    r"(?:analysis|investigation|validation)\s+(?:complete|completed|done|finished)|"
    r"(?:hi|hello|hey|thanks|thank you|great|okay|ok|sure|summary|findings|conclusion|overview|details|"
    r"cheers|regards|best|best regards|kind regards|many thanks|thx|ty)\b[\s!.,:]*$)",
    re.I,
)
# sentences about the investigation or the document rather than the incident ("I reviewed the bundle.",
# "Here are my findings.", "All claims below are cited."): not claims when they cite nothing
_ABOUT_WORK = re.compile(
    r"^(?:(?:okay|ok|so|alright|right|(?:hi|hello|hey)(?:\s+(?:all|team|everyone|folks|@?\[?~?[\w.-]+\]?))?),?\s+)?"
    r"(?:(?:i|we)(?:\s+have|'ve)?\s+(?:also\s+|then\s+|first\s+|now\s+)?(?:reviewed|investigated|analy[sz]ed|read|looked|went|gone|"
    r"been\s+through|dug|parsed|checked|"
    r"examined|inspected|summari[sz]ed|used|collected|pulled|gathered|compared|walked|scanned|grepped|searched|correlated|"
    r"cross-checked|combined|worked|focused|concentrated)\b|"
    r"(?:here\s+(?:is|are)|below\s+(?:is|are)|the\s+following|(?:this|that)\s+(?:concludes|completes|ends)|"
    r"(?:all|every|each)\s+(?:of\s+the\s+)?(?:claims?|findings?|statements?)\s+(?:below|above|here|in\s+this)|"
    r"(?:this|the)\s+(?:report|document|write-?up|summary|review|note|comment|analysis|post-?mortem|rca|timeline|thread)\s+"
    r"(?:covers|summari[sz]es|describes|lists|reconstructs|explains|documents|analy[sz]es|reviews|records|follows|traces|"
    r"walks\s+through|is\b|"
    r"(?:was|is|has\s+been|will\s+be)\s+(?:prepared|written|compiled|updated|based|put\s+together|drafted|assembled)\b)|"
    r"(?:reviewed|investigated|analy[sz]ed|went\s+through|dug\s+through|parsed|examined|inspected|pulled|gathered|compared|"
    r"grepped|searched|correlated|cross-checked|looked\s+(?:at|through|into))\s+(?:the|all|both|each|every|my|our)\b|"
    r"(?:posting|sharing|attaching|dropping|dumping|adding)\s+(?:the|my|our|this|what)\b|"
    # the limits of the work: "I have not looked at the other CI systems"
    r"(?:i|we)\s+(?:have\s+not|haven't|haven’t|did\s+not|didn't|didn’t|could\s+not|couldn't|couldn’t)\s+(?:yet\s+)?"
    r"(?:looked|checked|reviewed|examined|investigated|verified|analy[sz]ed|read|seen|gone)\b|"
    # where the document comes from: "Timeline reconstructed from the bundle", "Prepared from the cert-manager logs"
    r"(?:(?:the\s+)?(?:timeline|findings|notes|summary|analysis|report|write-?up)\s+)?(?:reconstructed|prepared|compiled|"
    r"assembled|written|drawn\s+up|put\s+together)\s+(?:from|for|using|with)\b|"
    r"(?:structured|triage|investigation|incident|my|our)\s+(?:findings|notes|summary|analysis|report)\s+(?:for|of|on)\b|"
    r"that(?:'s|\s+is)\s+(?:all|everything|it)\b|nothing\s+else\s+(?:to|in)\b|"
    r"(?:end|start|beginning)\s+of\s+(?:the\s+|my\s+)?(?:findings|report|notes|summary|analysis)\b|"
    r"(?:findings|notes|summary|analysis|report)\s+(?:for|of|on|from)\s+(?:the|this|our|my)\s+[\w\s-]{0,60}?"
    r"(?:investigation|incident|outage|review|analysis)\b|"
    r"(?:(?:i'm|i’m|i am|we're|we’re|we are)\s+)?(?:happy|glad|available)\s+to\b|(?:feel free|ping me|let me know|reach out)\b|"
    r"(?:all\s+)?(?:the\s+)?times\s+(?:in\s+(?:the|this)\s+\w+\s+|below\s+|here\s+|above\s+)?(?:are\s+)?(?:in\s+)?"
    r"(?:[A-Z]{3,4}\b|(?:UTC)?[+-]\d)))",
    re.I,
)
# file names, calendar dates, zone offsets, times of day (the window a write-up covers) and names with digits do not
# make a meta sentence a claim
_FILE_NAME = re.compile(r"\S+\.[A-Za-z]{2,5}\b"
                        r"|\b\d{1,2}(?:st|nd|rd|th)?\s(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
                        r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s\d{1,2}(?:st|nd|rd|th)?\b"
                        r"|\b(?:UTC|GMT)\s?[+-]\d{1,2}(?::?\d{2})?|(?<!\d)[+-]\d{2}:\d{2}\b"
                        r"|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[–-]\s?\d{1,2}:\d{2}(?::\d{2})?)?(?:\s?(?:UTC|GMT|Z))?"
                        r"|\b[A-Za-z][A-Za-z_-]*\d[\w-]*", re.I)  # and names with digits: es-data-3, lb01, x509
# "I compared the two configs and the pool size differs": after the work, a statement about the incident
_ASSERTS = re.compile(r"\b(?:and|but|so|which|that|:)\s+(?!(?:these|this|here|that|what)\s+(?:is|are)\b)(?:\w+\s+){0,4}?"
                      r"(?:is|are|was|were|differs?|differed|shows?|showed|had|has|caused?|failed|returned|broke|crashed|ran\s+out)\b",
                      re.I)
# a number or a quoted string: the sentence says something checkable (an apostrophe is not a quote)
_STATES_FACTS = re.compile(r"\d|\"[^\"]+\"|“[^”]+”|‘[^’]+’|(?<!\w)'[^']+'(?!\w)|`[^`]+`")
_UNVERIFIED = re.compile(
    r"^(?:\**\s*note\s*\**\s*:\s*\**\s*)?\**\s*(?:unverified(?:\s+(?:assumption|observation|claim|hypothesis))?|assumption|hypothesis)\b"
    r"|\bunverified\s+observation\b|\((?:unverified|assumption)\)",
    re.I,
)


@dataclass(frozen=True)
class Sentence:
    text: str
    line: int
    column: int
    block: int
    section: str = ""  # the heading the sentence is under ("5. Action items")
    header: str = ""  # the header row of the table the sentence is a row of
    label: bool = False  # a run-in heading ("**The fix.** We ...") or a byline ("**sre-agent** · 10:52"): names, asserts nothing


# headings of sections that recommend rather than report: an uncited sentence there is not a claim. The names are
# those of common postmortem templates (Google SRE workbook, PagerDuty, Atlassian: "Action items", "Follow-ups",
# "Next steps", "Recommendations", "Remediation", "Corrective actions", "Prevention")
_RECOMMENDING = re.compile(r"\b(?:action\s+items?|next\s+steps?|recommendations?|recommended\s+(?:actions?|fixes|changes)|remediation|"
                           r"mitigations?|follow-?\s?ups?|to\s?-?\s?dos?|corrective\s+actions?|preventive\s+actions?|prevention|"
                           r"proposed\s+(?:fixes|changes|actions?))\b", re.I)


def recommends(section: str) -> bool:
    """Whether a section heading names recommendations (action items, next steps, ...)."""
    return bool(_RECOMMENDING.search(section))


class _Block:
    """Text of one block joined from source lines, mapping offsets back to (line, column)."""

    def __init__(self, section: str = "", header: str = "") -> None:
        self.section = section
        self.header = header
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.where: list[tuple[int, int]] = []
        self.size = 0

    def add(self, text: str, line: int, column: int) -> None:
        if self.parts:
            self.parts.append(" ")
            self.size += 1
        self.starts.append(self.size)
        self.where.append((line, column))
        self.parts.append(text)
        self.size += len(text)

    def text(self) -> str:
        return "".join(self.parts)

    def locate(self, offset: int) -> tuple[int, int]:
        i = max(0, bisect.bisect_right(self.starts, offset) - 1)
        line, column = self.where[i]
        return line, column + (offset - self.starts[i])


def blocks(text: str) -> Iterator[_Block]:
    """Claim-bearing blocks of a Markdown document (items, rows, paragraphs)."""
    current: _Block | None = None
    fence: str | None = None
    table_header_pending = False
    section = ""
    header = ""
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if fence is not None:
            if line.lstrip().startswith(fence):
                fence = None
            continue
        m = _FENCE.match(line)
        if m:
            if current:
                yield current
                current = None
            fence = m.group(1)[:3]
            continue
        if not line.strip():
            header = ""  # a blank line ends a table
            if current:
                yield current
                current = None
            continue
        nxt = lines[number].rstrip() if number < len(lines) else ""
        if _HEADING.match(line) or _RULE.match(line) or _BOLD_HEADING.match(line) or (
            _SETEXT.match(nxt) and nxt.strip() and not _BULLET.match(line)
        ):
            if not _RULE.match(line):
                section = line.strip().lstrip("#").strip().strip("*_:").strip()
            if current:
                yield current
                current = None
            continue
        if _SETEXT.match(line) and current is None:
            continue
        body, col = line, 1
        qm = _QUOTE.match(body)
        while qm:
            col += qm.end()
            body = body[qm.end():]
            qm = _QUOTE.match(body)
        if body.lstrip().startswith("|") or (body.count("|") >= 2 and current is None and _TABLE_SEP.match(nxt)):
            if current:
                yield current
                current = None
            if _TABLE_SEP.match(body):
                table_header_pending = False
                continue
            if _TABLE_SEP.match(nxt):
                table_header_pending = True
                header = body
                continue  # the header row
            cells = [c.strip() for c in body.strip().strip("|").split("|")]
            if len(cells) > 1 and re.fullmatch(r"#?\d{1,4}[.)]?|[a-z][.)]", cells[0]):
                cells = cells[1:]  # a row number is not part of the claim
            row = _Block(section, header)
            row.add(" | ".join(c for c in cells if c), number, col + (len(body) - len(body.lstrip())))
            yield row
            continue
        table_header_pending = False
        header = ""  # the table ended: its header names no zone for later rows
        bm = _BULLET.match(body)
        if bm and _NUMBERED.match(body) and _BOLD_HEADING.match(body[bm.end():]) and not _CITES.search(body) \
                and not re.search(r"[.!?]\s*(?:\*\*|__)\s*:?\s*$", body):  # "1. **What the GC log shows**": a section title
            section = body[bm.end():].strip().strip("*_:").strip()
            if current:
                yield current
                current = None
            continue
        if bm:
            if current:
                yield current
            current = _Block(section)
            current.add(body[bm.end():].strip(), number, col + bm.end())
            continue
        stripped = body.strip()
        if current is None:
            current = _Block(section)
        current.add(stripped, number, col + (len(body) - len(body.lstrip())))
    if current:
        yield current
    del table_header_pending


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; abbreviations, file names and open brackets do not end a sentence.

    Linear in the text: bracket depth is carried forward, and an abbreviation is looked for only in
    the few characters before each candidate end.
    """
    out: list[tuple[int, str]] = []
    start = 0
    depth = 0  # unclosed ( and [ since ``start``
    scanned = 0
    for m in _SENT_END.finditer(text):
        end = m.end()
        depth += _bracket_delta(text, scanned, m.start())
        scanned = m.start()
        if depth > 0 or _ABBREV.search(text, max(start, m.start() - 12), m.start() + 1):
            continue
        out.append((start, text[start:end]))
        start = end
        while start < len(text) and text[start].isspace():
            start += 1
        depth = 0
        scanned = start
    if start < len(text) and text[start:].strip():
        out.append((start, text[start:]))
    return [(o, s.strip()) for o, s in out if s.strip()]


def _bracket_delta(text: str, a: int, b: int) -> int:
    if b <= a:
        return 0
    chunk = text[a:b]
    return chunk.count("(") - chunk.count(")") + chunk.count("[") - chunk.count("]")


# a sentence wholly in strong emphasis, short enough to be a heading; and a byline: a name in emphasis and a time
_STRONG_ONLY = re.compile(r"^(\*\*|__)(?:(?!\1).){1,60}?\1$")
_BYLINE = re.compile(r"^(\*\*|__|\*|_)[\w.@ -]{1,40}?\1\s*(?:[·•|—–-]\s*)?(?:\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?|"
                     r"\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2})?)\s*$")


def sentences(text: str) -> Iterator[Sentence]:
    """The sentences of a findings document in reading order, with where each is and what it is under.

    A run-in heading (a paragraph's first sentence wholly in strong emphasis, with more text after it,
    ``**The drain.** xk2lp received SIGTERM ...``) and a chat byline (``**sre-agent** · 10:52``) are
    marked ``label``: they name what follows and assert nothing."""
    for index, block in enumerate(blocks(text)):
        joined = block.text()
        parts = split_sentences(joined)
        for n, (offset, sentence) in enumerate(parts):
            line, column = block.locate(offset)
            label = bool(_BYLINE.match(sentence)) or (n == 0 and len(parts) > 1 and bool(_STRONG_ONLY.match(sentence)))
            yield Sentence(sentence, line, column, index, block.section, block.header, label)


def is_claim_text(text: str, cited: bool = True) -> bool:
    """False for questions, lead-ins, plans, meta lines, greetings and word-less text.

    An uncited sentence about the investigation itself ("I reviewed app.log and env.log.", "Here are my
    findings.") is not a claim either, unless it states something checkable (a number other than in a
    file name, a quote): "I checked the certificate: it expired on Mar 2." stays an uncited claim."""
    plain = text.strip().strip("*_` ").strip()
    if not cited and _ABOUT_WORK.match(plain) and not _STATES_FACTS.search(_FILE_NAME.sub(" ", plain)) \
            and not _ASSERTS.search(plain, _ABOUT_WORK.match(plain).end()):  # type: ignore[union-attr]
        return False
    if not re.search(r"[A-Za-z]{2}", plain):
        return False
    if plain.endswith("?") or plain.endswith(":"):
        return False
    return not (_PLAN.match(plain) or _META.match(plain))


def is_unverified(text: str) -> bool:
    return bool(_UNVERIFIED.search(text.strip()))
