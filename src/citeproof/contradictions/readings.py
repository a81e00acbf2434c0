"""What a claim is about, read once for the contradiction rules: its words as lemmas, the names it gives.

Two claims can only contradict each other when they are about the same thing. The rules decide that
from three readings of each claim, made here so every rule reads them the same way:

* **lemmas** — the claim's content words and the parts of its names (``OOMKilled`` gives *oom* and
  *kill*, ``max_client_conn`` gives *max*, *client*, *conn*), each with its lemmas (lemminflect), so
  "OOM kills", "OOMKilled" and "was killed" share *kill*;
* **names** — the host-like names it gives (``db-2``, ``worker-a1``, ``consumer-3``, ``pgb-01``): two
  claims that each name hosts, and no host in common, are about different things;
* **phrase keys** — the lemmas of a short phrase ("the first *OOM kill*", "*rebalancing* started"),
  matched against another claim's lemmas.

>>> sorted(lemma_set("03:16:40 | Second replica OOMKilled on worker-a1") & {"oom", "kill", "replica"})
['kill', 'oom', 'replica']
>>> names("db-2 (10.20.1.12) took over from db-1 at 02:41")
('db-1', 'db-2')
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..support.anchor import lemmas, pieces
from ..text import STOP_WORDS

_TOKEN = re.compile(r"[A-Za-z][\w.\-/]*[A-Za-z0-9]|[A-Za-z]|\d{3}s?\b")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_NAME = re.compile(r"(?<![\w.:/-])([a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z]?\d+[a-z0-9]*|[a-z]+\d+[a-z]*-[a-z0-9]+)(?![\w-]|\.\w)")
# Words that frame or connect a statement rather than say what it is about: they never make two claims
# about the same thing (from the framing words of SPEC §5, "the log shows", plus auxiliaries and time words).
_FRAMING = frozenset(
    "log logs logged logging show shows showed shown record recorded records see seen appear appears appeared "
    "occur occurred occurs happen happened happens come came arrive arrived line lines entry entries evidence "
    "capture file time times utc gmt am pm around about roughly approximately only just still also then when "
    "first last second third one two three four five six seven eight nine ten be is was were are been being "
    "have has had do did does get got go went start started began begin begins starts kick kicked off "
    "at in on by of to for from with after before during until since report reports reported reporting source sources "
    "see ref refs".split()
)
# Words that date or measure rather than name an event (units of time, zones, ordinals): never what an order is about.
_UNDATED = frozenset(
    "ms msec millisecond milliseconds sec secs second seconds minute minutes min mins hour hours hr day days week weeks "
    "utc gmt cest cet pst pdt est edt ist ict jst bst z shortly soon right just later earlier ago once "
    "half quarter few several couple".split()
)


def event_words(found: frozenset[str]) -> frozenset[str]:
    """The lemmas in ``found`` that can name an event: words of three letters or more, not units, zones or numbers."""
    return frozenset(w for w in found if len(w) >= 3 and not w[0].isdigit() and w not in _UNDATED and w not in _FRAMING)


@lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """The content words of ``text`` in order, lower-cased, names kept whole (framing and stop words dropped)."""
    out = []
    for m in _TOKEN.finditer(text):
        low = m.group(0).lower()
        if low not in STOP_WORDS and low not in _FRAMING:
            out.append(m.group(0))
    return tuple(out)


@lru_cache(maxsize=4096)
def lemma_set(text: str) -> frozenset[str]:
    """Every lemma of every content word of ``text`` and of the parts of its names."""
    found: set[str] = set()
    for word in words(text):
        for piece in pieces(word):
            if piece in STOP_WORDS or piece in _FRAMING:
                continue
            found |= lemmas(piece) if piece.isalpha() else {piece}
            if re.fullmatch(r"\d{3}s", piece):  # "503s" are 503s
                found.add(piece[:3])
    return frozenset(found)


def key_of(phrase: str) -> tuple[frozenset[str], ...]:
    """A phrase as a key: one lemma set per content word ("OOM kill" -> ({oom}, {kill, kills}))."""
    out: list[frozenset[str]] = []
    for word in words(phrase):
        parts = word.split("-")
        camel = _CAMEL.findall(word)
        if len(parts) == 1 and len(camel) > 1 and all(p.isalpha() and len(p) >= 2 for p in camel):
            parts = camel  # "OOMKilled" is OOM + killed
        if len(parts) > 1 and all(p.isalpha() and len(p) >= 2 for p in parts) and any(len(p) >= 3 for p in parts):
            out.extend(frozenset(lemmas(p.lower())) for p in parts if p.lower() not in _FRAMING)  # "dropped-mutation"
            continue
        piece = pieces(word)[0]
        forms = set(lemmas(piece) if piece.isalpha() else {piece})
        if re.fullmatch(r"\d{3}s", piece):
            forms.add(piece[:3])
        out.append(frozenset(forms))
    return tuple(out)


def covers(key: tuple[frozenset[str], ...], found: frozenset[str]) -> bool:
    """Every word of ``key`` is said (by one of its lemmas) in ``found``."""
    return bool(key) and all(forms & found for forms in key)


@lru_cache(maxsize=4096)
def names(text: str) -> tuple[str, ...]:
    """Host-like names ``text`` gives (a letter, a hyphen and a number: ``db-2``, ``worker-a1``), sorted."""
    return tuple(sorted({m.group(1).lower() for m in _NAME.finditer(text)}))


def same_scope(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two claims may be about the same thing unless each names hosts and none in common."""
    return not a or not b or bool(set(a) & set(b))


def shared(found: frozenset[str], text: str) -> int:
    """How many content words of ``text`` are said (by one of their lemmas) in ``found``."""
    count = 0
    for word in dict.fromkeys(w.lower() for w in words(text)):
        if lemma_set(word) & found:
            count += 1
    return count
