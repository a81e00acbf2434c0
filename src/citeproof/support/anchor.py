"""Anchoring: every word a claim asserts must be shown by its cited evidence.

Hard facts (quotes, statuses, identifiers, numbers, times) are checked by their own checks; this check
covers the rest of the claim — its subject, its event or predicate, its object and its qualifiers. Each
content word of the claim must be *anchored* in the cited evidence, by one of:

``lemma``      the same lemma ("failed" ~ "failing" ~ "fails"), from the lemminflect lemmatizer;
``synonym``    a word of the same concept in the operations lexicon (``data/lexicon.json``:
               exited / stopped / terminated; refused / rejected / denied; ...);
``derived``    a derivationally related form in WordNet ("exhaustion" ~ "exhausted", "deferral" ~ "deferred";
               not "worker" ~ "worked": only forms that name an act, event or state);
``wordnet``    a verb or adjective sharing a WordNet synset among both words' three most frequent senses
               ("postponed" ~ "deferred", "declined" ~ "refused"); ``data/wordnet.json`` is Princeton WordNet
               3.0 reduced by ``tools/build_wordnet.py``, its license in ``data/WORDNET-LICENSE``;
``structure``  a structural reading of the evidence: ``key=value`` and ``key: value`` fields, CamelCase,
               snake_case and dotted names split into words, abbreviations and tags expanded
               (``[preauth]`` is "before authentication", ``OOMKilled`` is "out of memory killed"),
               HAR entries read as "request ... returned ... error/success";
``source``     the name of the cited file ("redis" in ``redis.log``), which names what the lines are about.

Words that only frame the statement ("logged", "shows", "the log", "first", "then") need no anchor; they
are the lexicon's ``framing`` and ``relations`` lists, plus English function words. Order and scope
qualifiers ("first", "only", "all") are framing here: "all"/"every"/"none" are checked per item by the
universal and negation checks, "first"/"only" are not checked yet.

What the support check (:func:`citeproof.support.check_support`) does with the anchors:

* an unanchored word of the event table (``data/events.json``: "crashed", "deleted", "failed") makes the
  claim ``unsupported``;
* so do more than ``anchor_slack`` (default 2; in a long claim two fifths of its content words) other
  unanchored words; participant nouns the lexicon calls ``weak`` (server, client, user, session, ...) are
  reported but not counted;
* ``anchor_slack: 0`` and ``anchor_strict_verbs: true`` (every unanchored verb form fails) make it strict.

The reason of an unsupported claim names the words the evidence does not show; the JSON report lists
every claim word with its anchor.

Passing: "Redis began a background save" citing ``redis.log:20`` =
``Background saving started by pid 2904`` (began ~ started by synonym, save ~ saving by lemma,
Redis by source).
Failing: "The vendor secretly deleted our production database" citing ``connecting to vendor api``:
"secretly", "deleted", "production" and "database" are not anchored.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from http import HTTPStatus
from importlib import resources
from itertools import pairwise

import orjson

from ..model import Evidence
from ..text import STOP_WORDS
from .events import events_in

WORD_CACHE = 1 << 16  # per-word readings kept: bounded, so a long-running server reading hostile evidence does not grow
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*(?:-[A-Za-z0-9]+)*")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_KEY_VALUE = re.compile(r"([A-Za-z_][\w.\-]*)\s?[=:]\s?\"?([^\s,;\"'}\]]+)")
_FALSE = frozenset({"false", "0", "no", "off", "none", "disabled", "null"})
_ACCESS_LINE = re.compile(  # a status inside a log line: access-log format, a HAR summary, "HTTP 429", "status=503"
    r'"(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS|CONNECT|TRACE) [^"]*" ([1-5]\d\d) |\s->\s(\d{1,3})\b'
    r"|\bHTTP(?:/\d(?:\.\d)?)?\s([1-5]\d\d)\b|\b(?:status|status_code|code)[=:]\s?\"?([1-5]\d\d)\b", re.I)
_PORT = re.compile(r":(\d{2,5})\b(?![:.]\d)")
_BEFORE_PORT = re.compile(r"(?:(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}|\]|\b[A-Za-z][\w.-]{0,252})$")
_WELL_KNOWN_PORTS = frozenset({21, 22, 25, 53, 80, 110, 143, 389, 443, 465, 587, 636, 993, 995})  # IANA service names
_SOURCE_FILE = re.compile(r"\.(?:go|py|java|js|ts|rb|c|cc|cpp|h|rs|kt|scala|cs|php|swift|ex|exs|erl|lua|pl|sh)$", re.I)


def _has_port(text: str) -> bool:
    """An address with its port (10.0.3.41:53360, api-3:8080, redis:6379, [::]:443); not a source line
    (``main.go:142``, ``Pool.java:88``) nor a time of day."""
    for m in _PORT.finditer(text):
        before = _BEFORE_PORT.search(text, max(0, m.start() - 253), m.start())
        name = before.group(0) if before is not None else ""
        if not name or _SOURCE_FILE.search(name):
            continue
        # a plain word before a small number is a field ("retries:12"), unless the number is a well-known port
        if re.fullmatch(r"[A-Za-z]+", name) and int(m.group(1)) < 1024 and int(m.group(1)) not in _WELL_KNOWN_PORTS:
            continue
        return True
    return False


_IPV4 = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])")
_SEVERE = re.compile(r"\b(?:ERROR|FATAL|CRITICAL|SEVERE|EMERG|ALERT|CRIT|E)\b|\[(?:error|crit|alert|emerg)\]")
_WARNING = re.compile(r"\b(?:WARN|WARNING|W)\b|\[warn\]")
_ARROW = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[KMGT]?B?\s?(?:->|→|=>)\s?(\d+(?:\.\d+)?)[KMGT]?B?(?![\w.])")
_NEGATED_BEFORE = re.compile(r"\b(?:not|never|cannot|can't|won't|couldn't|didn't|wasn't|isn't|unable\s+to)\s+(?:be\s+)?$", re.I)
_FAILURE = re.compile(r"\b(?:failed|failing|fail|failure|unable|cannot|can't|FATAL|ERROR|not authori[sz]ed|not allowed|"
                      r"reserved|too many|exceeded|invalid|denied|refused|rejected)\b|\b[45]\d\d\b", re.I)
_REFUSAL = re.compile(r"\btoo many clients\b|"
                      r"\b(?:connection|connections|login|logins|password|authentication|auth|request|requests|commit|offset|"
                      r"handshake|session|upload|query|access|permission|slots?|certificate|token|range)\b", re.I)
_TIMEOUT = re.compile(r"\b(?:timed? ?out|timeout|deadline)\b", re.I)
_SUCCESS = re.compile(r"\b(?:succeeded|success|successful|successfully|completed|authori[sz]ed|accepted|healthy|restored|"
                      r"recovered|OK)\b|\s2\d\d\s", re.I)
_BOT = re.compile(r"bot\b|crawler|spider|slurp", re.I)
_READINGS = {  # what a kind of evidence is, whatever its lines say
    "pattern": "known pattern signature database match matches",
    "jira": "ticket issue jira tracked tracks report reported bug",
    "config": "configured configuration set setting value",
    "env": "environment configured set setting value host running",
}


def _status_words(status: int) -> str:
    """What an HTTP status says: its class, its RFC 9110 reason phrase and the lexicon's reading of it."""
    if status == 0 or status >= 500:
        words = "request failed failure error server response"
    elif status >= 400:
        words = "request failed failure error client response rejected"
    elif status >= 300:
        words = "request redirect redirected response"
    elif status >= 200:
        words = "request succeeded success ok response served returned"
    else:
        words = "request response"
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    if phrase.startswith(("Not ", "No ")):
        phrase = ""  # "Not Found" does not show that something was found; the lexicon's reading says what it means
    return " ".join((words, phrase, lexicon().status_readings.get(status, "")))


@dataclass(frozen=True)
class Anchor:
    """How one claim word is anchored: the evidence word, the kind of anchor, and where."""

    word: str
    evidence_word: str | None  # None: not anchored
    via: str  # lemma | synonym | derived | wordnet | structure | source | none
    location: str = ""


@dataclass(frozen=True)
class Lexicon:
    concepts: dict[str, frozenset[int]]  # lemma -> concept ids
    framing: frozenset[str]
    expansions: dict[str, tuple[str, ...]]
    status_readings: dict[int, str]
    weak: frozenset[str]
    signatures: tuple[tuple[re.Pattern[str], str], ...]


@cache
def lexicon() -> Lexicon:
    data = json.loads(resources.files("citeproof").joinpath("data/lexicon.json").read_text(encoding="utf-8"))
    concepts: dict[str, set[int]] = {}
    for n, words in enumerate(data["synonyms"]):
        for word in words:
            for lemma in lemmas(word.lower()):
                concepts.setdefault(lemma, set()).add(n)
    words = [w.lower() for w in (*data["framing"], *data.get("relations", ()))]
    framing = frozenset(lemma for w in words for lemma in lemmas(w)) | frozenset(words)
    expansions = {k.lower(): tuple(v.lower().split()) for k, v in data["expansions"].items()}
    readings = {int(k): str(v) for k, v in data.get("status_readings", {}).items()}
    weak = frozenset(lemma for w in data.get("weak", ()) for lemma in lemmas(w.lower()))
    shapes = json.loads(resources.files("citeproof").joinpath("data/signatures.json").read_text(encoding="utf-8"))
    signatures = tuple((re.compile(s["pattern"], re.M), str(s["names"])) for s in shapes["signatures"])
    return Lexicon({k: frozenset(v) for k, v in concepts.items()}, framing, expansions, readings, weak, signatures)


@lru_cache(maxsize=WORD_CACHE)
def is_predicate(word: str) -> bool:
    """A verb form that can be nothing else ("crashed", "deleted", "rejecting"): with ``anchor_strict_verbs``
    such a word must be anchored."""
    from lemminflect import getAllLemmas

    forms = getAllLemmas(word.lower())
    return bool(forms) and set(forms) <= {"VERB", "AUX"} and word.lower() not in forms.get("VERB", ())


_FREQUENCY = frozenset({"hourly", "daily", "nightly", "weekly", "monthly", "yearly", "early"})  # when, not how


@lru_cache(maxsize=WORD_CACHE)
def is_manner(word: str) -> bool:
    """An adverb of manner ("gradually", "permanently", "cleanly"): only an adverb for lemminflect, ending in -ly.
    Such a qualifier says how something happened and must be anchored; hedges and order words ("possibly",
    "finally") are the lexicon's framing and never get here."""
    from lemminflect import getAllLemmas

    forms = getAllLemmas(word.lower())
    if word.lower() in _FREQUENCY:
        return False
    return word.lower().endswith("ly") and bool(forms) and set(forms) <= {"ADV", "ADJ"} and "ADV" in forms


def is_weak(word: str) -> bool:
    """A participant noun (server, client, user, ...) that a cited line may leave implicit."""
    return bool(lemmas(word) & lexicon().weak)


@lru_cache(maxsize=WORD_CACHE)
def lemmas(word: str) -> frozenset[str]:
    """The word and its lemmas under every part of speech (lemminflect; out-of-vocabulary rules as fallback)."""
    from lemminflect import getAllLemmas, getAllLemmasOOV

    w = word.lower().strip("'")
    found = {w}
    for forms in getAllLemmas(w).values():
        found.update(f.lower() for f in forms)
    if len(found) == 1 and w.isalpha() and len(w) > 3:
        for pos in ("NOUN", "VERB"):
            for forms in getAllLemmasOOV(w, pos).values():
                found.update(f.lower() for f in forms)
    return frozenset(found)


@lru_cache(maxsize=WORD_CACHE)
def _concepts(word: str) -> frozenset[int]:
    lex = lexicon()
    out: set[int] = set()
    for lemma in lemmas(word):
        out |= lex.concepts.get(lemma, frozenset())
    return frozenset(out)


@cache
def _wordnet() -> tuple[dict[str, tuple[int, ...]], dict[str, tuple[str, ...]]]:
    data = orjson.loads(resources.files("citeproof").joinpath("data/wordnet.json").read_bytes())
    synsets = {k: tuple(v) for k, v in data["synsets"].items()}
    derived = {k: tuple(v) for k, v in data["derived"].items()}
    return synsets, derived


@lru_cache(maxsize=WORD_CACHE)
def _synsets(word: str) -> dict[int, int]:
    """The WordNet synsets of the word's lemmas, each with its sense rank (0: the lemma's most frequent sense;
    only the three most frequent senses are shipped, see ``tools/build_wordnet.py``)."""
    return _ranked(code for lemma in lemmas(word) for code in _wordnet()[0].get(lemma, ()))


def _ranked(codes: Iterable[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for code in codes:
        synset, rank = divmod(code, 4)
        out[synset] = min(rank, out.get(synset, rank))
    return out


def _linked(synset: int, rank: int, shown: dict[int, tuple[str, str, int]]) -> tuple[str, str] | None:
    """The evidence word sharing ``synset``, when that synset is the most frequent sense of one of the two words
    ("postponed" ~ "deferred"; not "expired" ~ "exited", which share only a rarer sense of both, "die")."""
    hit = shown.get(synset)
    if hit is None or min(rank, hit[2]) != 0:
        return None
    return hit[0], hit[1]


def _derived(word: str) -> list[str]:
    """WordNet's derivationally related forms of the word's lemmas ("exhaustion" for "exhausted")."""
    derived = _wordnet()[1]
    return sorted({other for lemma in lemmas(word) for other in derived.get(lemma, ())})


@cache
def _known_phrases() -> frozenset[str]:
    return frozenset(k for k in (*lexicon().concepts, *_wordnet()[0]) if " " in k)


@lru_cache(maxsize=WORD_CACHE)
def _phrase_keys(first: str, second: str) -> tuple[str, ...]:
    """The phrasal verbs two adjacent words may be ("turned away" -> "turn away"), known to the lexicon or WordNet."""
    if second not in _PARTICLES:
        return ()
    known = _known_phrases()
    return tuple(sorted(k for k in (f"{lemma} {second}" for lemma in lemmas(first)) if k in known))


_PARTICLES = frozenset("up down away off out in over back on through around".split())


def _phrase_anchors(text: str, vocab: _Vocabulary) -> dict[str, Anchor]:
    """Claim words anchored as part of a phrasal verb the evidence shows by a synonym ("turned away" ~ "refused")."""
    out: dict[str, Anchor] = {}
    tokens = [m.group(0).lower() for m in _WORD.finditer(text)]
    for first, second in pairwise(tokens):
        for key in _phrase_keys(first, second):
            hit = next(((vocab.concepts[c], "synonym") for c in sorted(lexicon().concepts.get(key, ())) if c in vocab.concepts), None)
            linked = (_linked(n, r, vocab.synsets) for n, r in sorted(_ranked(_wordnet()[0].get(key, ())).items()))
            hit = hit or next(((shown, "wordnet") for shown in linked if shown is not None), None)
            if hit is not None:
                (shown, where), via = hit
                out.setdefault(first, Anchor(first, shown, via, where))
                out.setdefault(second, Anchor(second, shown, via, where))
    return out


def pieces(token: str) -> list[str]:
    """A token and the words inside it: snake_case, dotted, hyphenated and CamelCase parts."""
    parts = [token]
    for chunk in re.split(r"[_.\-/:]+", token):
        if chunk and chunk != token:
            parts.append(chunk)
        camel = _CAMEL.findall(chunk)
        if len(camel) > 1:
            parts.extend(camel)
    return [p.lower() for p in parts if p]


@dataclass
class _Vocabulary:
    """The words of the cited evidence, each with where it was read and how."""

    words: dict[str, tuple[str, str, str]]  # lemma -> (evidence word, via, location)
    concepts: dict[int, tuple[str, str]]  # concept id -> (evidence word, location)
    synsets: dict[int, tuple[str, str, int]]  # WordNet synset id -> (evidence word, location, sense rank)
    joined: dict[str, tuple[str, str]]  # two adjacent words written as one ("health check" -> healthcheck)

    def add_phrase(self, first: str, second: str, location: str) -> None:
        """Two adjacent words that are one phrasal verb ("shut down", "gave up"): its concepts and synsets."""
        for key in _phrase_keys(first, second):
            shown = f"{first} {second}"
            for concept in lexicon().concepts.get(key, ()):
                self.concepts.setdefault(concept, (shown, location))
            self._synsets(_ranked(_wordnet()[0].get(key, ())), shown, location)

    def add(self, word: str, via: str, location: str) -> None:
        for lemma in lemmas(word):
            self.words.setdefault(lemma, (word, via, location))
        for concept in _concepts(word):
            self.concepts.setdefault(concept, (word, location))
        self._synsets(_synsets(word), word, location)

    def merge(self, other: _Vocabulary) -> None:
        """Add ``other``'s words after this one's (the first reading of a word is kept, as when added in order)."""
        for lemma, seen in other.words.items():
            self.words.setdefault(lemma, seen)
        for concept, shown in other.concepts.items():
            self.concepts.setdefault(concept, shown)
        for synset, (word, location, rank) in other.synsets.items():
            known = self.synsets.get(synset)
            if known is None or rank < known[2]:
                self.synsets[synset] = (word, location, rank)
        for joined, shown in other.joined.items():
            self.joined.setdefault(joined, shown)

    def _synsets(self, ranked: dict[int, int], word: str, location: str) -> None:
        for synset, rank in ranked.items():
            known = self.synsets.get(synset)
            if known is None or rank < known[2]:
                self.synsets[synset] = (word, location, rank)


def _vocabulary(evidence: Iterable[Evidence]) -> _Vocabulary:
    vocab = _Vocabulary({}, {}, {}, {})
    for e in evidence:
        vocab.merge(_kept_vocabulary(e) if len(e.text) <= KEPT_TEXT else _evidence_vocabulary(e))
    return vocab


KEPT_TEXT = 4096  # the vocabulary of evidence up to this long is kept for the next claim citing it
KEPT_ENTRIES = 400_000  # words, concepts and synsets kept in all (about 500 bytes each, measured): ~200 MB at most


class _KeptVocabularies:
    """The vocabularies of recently cited lines, least recently used dropped first, bounded by their total size (a
    word-rich line holds a thousand entries, a plain log line about a hundred) rather than by their number."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.kept: OrderedDict[Evidence, tuple[_Vocabulary, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, e: Evidence) -> _Vocabulary:
        with self.lock:
            hit = self.kept.get(e)
            if hit is not None:
                self.kept.move_to_end(e)
                return hit[0]
        vocab = _evidence_vocabulary(e)
        weight = len(vocab.words) + len(vocab.concepts) + len(vocab.synsets) + len(vocab.joined) + 1
        with self.lock:
            if e not in self.kept:
                self.kept[e] = (vocab, weight)
                self.size += weight
            while self.size > self.limit and self.kept:
                _, (_, dropped) = self.kept.popitem(last=False)
                self.size -= dropped
        return vocab


_KEPT = _KeptVocabularies(KEPT_ENTRIES)


def _kept_vocabulary(e: Evidence) -> _Vocabulary:
    return _KEPT.get(e)


def _evidence_vocabulary(e: Evidence) -> _Vocabulary:
    vocab = _Vocabulary({}, {}, {}, {})
    lex = lexicon()
    where = e.location or e.source or e.kind
    for piece in pieces(e.source.rsplit("/", 1)[-1].split(".", 1)[0]) if e.source else ():
        vocab.add(piece, "source", e.source)
    text = _structural_text(e)
    previous = ""
    for m in _WORD.finditer(text):
        token = m.group(0)
        if _NEGATED_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            previous = ""
            continue  # "will not recover", "cannot connect": the line says the opposite of the word
        for piece in pieces(token):
            via = "lemma" if piece == token.lower() else "structure"
            vocab.add(piece, via, where)
            for extra in lex.expansions.get(piece, ()):
                vocab.add(extra, "structure", where)
            if previous:
                vocab.joined.setdefault(previous + piece, (f"{previous} {piece}", where))
                vocab.add_phrase(previous, piece, where)
            previous = piece
    return vocab


def _structural_text(e: Evidence) -> str:
    """The evidence text plus the words its structure implies."""
    text = e.text
    extra: list[str] = []
    for m in _KEY_VALUE.finditer(text):
        key, value = m.group(1), m.group(2).lower()
        if value in _FALSE:
            extra.append(f"not {key.replace('_', ' ')}")
    if e.kind == "har":
        extra.extend(_status_words(status) for status in sorted(set(e.statuses)))
        extra.append("page load browser client header headers started sent issued")
    if _SEVERE.search(text):
        extra.append("error failure failed problem")
    for m in _ARROW.finditer(text):  # "2488M->1902M", "from=4 to=9": which way the value moved
        before, after = float(m.group(1)), float(m.group(2))
        if before != after:
            extra.append("decreased fell dropped shrank reduced freed" if after < before else "increased rose grew climbed raised")
    if e.kind == "log" and _REFUSAL.search(text) and _FAILURE.search(text) and not _TIMEOUT.search(text):
        extra.append("refused rejected denied turned away")  # a login, connection or request that failed, not timed out
    if _SUCCESS.search(text):
        extra.append("recovered recovery restored again normal normally")  # a success, after the trouble the claim speaks of
    if _WARNING.search(text):
        extra.append("warning warned")
    logged = {int(next(g for g in m.groups() if g)) for m in _ACCESS_LINE.finditer(text)}
    extra.extend(_status_words(status) + " client served started sent" for status in sorted(logged))
    if _IPV4.search(text):
        extra.append("address ip host client peer")
    if _has_port(text):
        extra.append("port")  # 10.0.3.41:53360, api-3:8080, [::1]:443
    if _BOT.search(text):
        extra.append("crawler bot robot spider")
    if e.kind in _READINGS:
        extra.append(_READINGS[e.kind])
    extra.append(written_by(text))
    return text + ("\n" + "\n".join(extra) if extra else "")


def written_by(text: str) -> str:
    """The names of the software whose line shapes ``text`` has (``data/signatures.json``), space-separated."""
    out = []
    for pattern, names in lexicon().signatures:
        shape = pattern.search(text)
        if shape is not None:
            out.append(names.replace("$1", (shape.group(1) or "") if shape.groups() else ""))
    return " ".join(out)


def claim_words(text: str) -> list[str]:
    """The claim's content words, in reading order: not function words, framing words or numbers."""
    lex = lexicon()
    out: dict[str, None] = {}
    for m in _WORD.finditer(text):
        word = m.group(0).lower().strip("'")
        if word.endswith("'s"):
            word = word[:-2]
        if len(word) < 2 or word in STOP_WORDS:
            continue
        if (word in lex.framing or lemmas(word) & lex.framing) and not events_in(word):
            continue  # a word of the event table ("continued") is an event, never framing
        out[word] = None
    return list(out)


def anchor_claim(text: str, evidence: Iterable[Evidence]) -> list[Anchor]:
    """One :class:`Anchor` per content word of ``text`` (hard facts already removed)."""
    words = claim_words(text)
    if not words:
        return []
    vocab = _vocabulary(evidence)
    anchors = [_anchor(word, vocab) for word in words]
    if all(a.evidence_word is not None for a in anchors):
        return anchors
    phrased = _phrase_anchors(text, vocab)
    return [phrased.get(a.word, a) if a.evidence_word is None else a for a in anchors]


def _anchor(word: str, vocab: _Vocabulary) -> Anchor:
    for lemma in sorted(lemmas(word)):
        hit = vocab.words.get(lemma)
        if hit is not None:
            shown, via, where = hit
            return Anchor(word, shown, via if via != "lemma" or shown == word else "lemma", where)
    for concept in sorted(_concepts(word)):
        if concept in vocab.concepts:
            shown, where = vocab.concepts[concept]
            return Anchor(word, shown, "synonym", where)
    for other in _derived(word):
        for lemma in sorted(lemmas(other)):
            if lemma in vocab.words:
                shown, _, where = vocab.words[lemma]
                return Anchor(word, shown, "derived", where)
    for synset, rank in sorted(_synsets(word).items()):
        linked = _linked(synset, rank, vocab.synsets)
        if linked is not None:
            shown, where = linked
            return Anchor(word, shown, "wordnet", where)
    for piece in pieces(word)[1:]:
        if piece in vocab.words:
            shown, _, where = vocab.words[piece]
            return Anchor(word, shown, "structure", where)
    joined = vocab.joined.get(word.replace("-", ""))
    if joined is not None:
        return Anchor(word, joined[0], "structure", joined[1])
    for extra in lexicon().expansions.get(word, ()):
        if extra in vocab.words:
            shown, _, where = vocab.words[extra]
            return Anchor(word, shown, "structure", where)
    return Anchor(word, None, "none")
