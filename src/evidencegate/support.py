"""Does the cited evidence support the claim?

Existence is not support. The claim's citation tokens are removed first (``server.log:4521`` must
not make 4521 a fact), then its *checkable facts* are read:

* quoted strings (``'Rate limit exceeded'``, ``"..."``, ``“...”``) — each must occur in the cited
  evidence (case and runs of white space ignored);
* HTTP status codes in HTTP context ("HTTP 429", "429 errors", "status 500", "returned 503",
  "503 Service Unavailable") — each must be a status of a cited HAR entry or occur in a cited line;
  when HAR entries are cited, every cited entry must have one of the stated statuses.

A claim with none of these facts needs a significant term (stemmed: "failed" ~ "failure") in
common with the cited evidence; otherwise it is "unsupported: the cited evidence shares no terms
with the claim". Timestamp citations support the time they name; they do not need shared terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .evidence import Bundle
from .model import Claim, Evidence
from .text import terms

_QUOTES = (
    re.compile(r"(?<![\w'])'([^'\n]{2,300}?)'(?![\w])"),
    re.compile(r'"([^"\n]{2,300}?)"'),
    re.compile(r"“([^”\n]{2,300}?)”"),
    re.compile(r"‘([^’\n]{2,300}?)’"),
)
_REASONS = (
    "OK|Created|Accepted|No Content|Moved Permanently|Found|See Other|Not Modified|Temporary Redirect|"
    "Permanent Redirect|Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|"
    "Not Acceptable|Request Timeout|Conflict|Gone|Payload Too Large|Unprocessable Entity|Too Many Requests|"
    "Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Timeout"
)
_CODE = r"([1-5]\d{2})"
_MORE = r"((?:\s?(?:,|/|\band\b|\bor\b|&)\s?(?:HTTP\s?)?[1-5]\d{2}\b)*)"
_STATUS = (
    re.compile(r"\bHTTP(?:/\d(?:\.\d)?)?[\s-]?(?:status\s)?(?:code\s)?" + _CODE + r"\b" + _MORE, re.I),
    re.compile(r"\bstatus(?:\scodes?|es)?\s?(?:of|=|:|was|is|were)?\s?" + _CODE + r"\b" + _MORE, re.I),
    re.compile(r"\b(?:returned|returns|returning|responded|respond|got|received|receiving|answered)\s(?:with\s)?(?:an?\s)?(?:HTTP\s)?"
               + _CODE + r"\b" + _MORE, re.I),
    re.compile(r"(?<![\w.:/\-])" + _CODE + r"(?:\s?(?:errors?|responses?|status(?:es)?|codes?)\b|s\b)", re.I),
    re.compile(r"(?<![\w.:/\-])" + _CODE + r"\s(?:" + _REASONS + r")\b", re.I),
)


@dataclass(frozen=True)
class Facts:
    quotes: tuple[str, ...] = ()
    statuses: tuple[int, ...] = ()

    @property
    def hard(self) -> bool:
        return bool(self.quotes or self.statuses)


def claim_facts(text: str) -> Facts:
    """Checkable facts of a claim whose citation tokens are already removed."""
    quotes: list[str] = []
    for pattern in _QUOTES:
        for m in pattern.finditer(text):
            q = " ".join(m.group(1).split())
            if len(q) >= 2 and q not in quotes:
                quotes.append(q)
    statuses: list[int] = []
    for pattern in _STATUS:
        for m in pattern.finditer(text):
            more = m.group(2) if m.re.groups >= 2 else ""
            codes = [m.group(1), *re.findall(r"[1-5]\d{2}", more or "")]
            for code in codes:
                value = int(code)
                if value not in statuses:
                    statuses.append(value)
    return Facts(tuple(quotes), tuple(statuses))


@dataclass(frozen=True)
class Support:
    ok: bool
    reason: str
    statuses: tuple[int, ...] = ()


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def check_support(claim_text: str, evidence: Iterable[Evidence]) -> Support:
    """Whether the union of ``evidence`` supports ``claim_text`` (citations removed)."""
    items = list(evidence)
    facts = claim_facts(claim_text)
    union = _norm("\n".join(e.text for e in items))
    missing_quotes = [q for q in facts.quotes if _norm(q) not in union]
    if missing_quotes:
        return Support(False, f"quoted text '{missing_quotes[0]}' is not in the cited evidence")
    if facts.statuses:
        problem = _status_problem(facts.statuses, items)
        if problem:
            return Support(False, problem, facts.statuses)
    if facts.hard:
        shown = [f"'{q}'" for q in facts.quotes] + [f"HTTP {s}" for s in facts.statuses]
        return Support(True, "cited evidence shows " + ", ".join(shown))
    textual = [e for e in items if e.kind != "timestamp"]
    if not textual:
        return Support(True, "the cited instant is in the evidence")
    shared = terms(claim_text) & terms("\n".join(e.text for e in textual))
    if not shared:
        return Support(False, "unsupported: the cited evidence shares no terms with the claim")
    return Support(True, "cited evidence shares terms with the claim: " + ", ".join(sorted(shared)[:5]))


def _status_problem(statuses: tuple[int, ...], items: list[Evidence]) -> str | None:
    har_statuses = [s for e in items if e.kind == "har" for s in e.statuses]
    text = "\n".join(e.text for e in items if e.kind != "har")
    for status in statuses:
        in_har = status in har_statuses
        in_text = re.search(rf"(?<!\d){status}(?!\d)", text) is not None
        if not (in_har or in_text):
            seen = ", ".join(str(s) for s in dict.fromkeys(har_statuses)) if har_statuses else ""
            return f"HTTP {status} is not in the cited evidence" + (f" (cited entries returned {seen})" if seen else "")
    for e in items:
        if e.kind == "har":
            odd = [s for s in e.statuses if s not in statuses]
            if odd:
                return f"a cited HAR entry returned {odd[0]}, not {'/'.join(str(s) for s in statuses)}"
    return None


def suggest_lines(bundle: Bundle, rel: str, cited_line: int, quote: str, limit: int = 3) -> list[int]:
    """Lines of ``rel`` containing ``quote``, nearest to ``cited_line`` first."""
    file = bundle.files.get(rel)
    if file is None or not quote:
        return []
    lf = bundle.lines(file)
    lines = sorted({lf.line_of(pos) for pos in lf.find_all(quote.encode("utf-8"), limit=200)})
    return sorted(lines, key=lambda n: (abs(n - cited_line), n))[:limit]


def strip_citations(claim: Claim) -> str:
    """The claim's text with its in-text citation tokens removed."""
    out, pos = [], 0
    for ref in sorted((r for r in claim.citations if r.start >= 0), key=lambda r: r.start):
        if ref.start < pos:
            continue
        out.append(claim.text[pos : ref.start])
        pos = ref.end
    out.append(claim.text[pos:])
    return re.sub(r"\(\s*[,;]?\s*\)|\[\s*\]|``", " ", "".join(out))
