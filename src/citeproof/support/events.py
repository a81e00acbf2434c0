"""Event words: what happened, and which events cannot describe the same thing.

The table is data (``citeproof/data/events.json``): groups of words per event ("crashed",
"panic", "segfault" -> ``crash``) and pairs of groups that contradict each other (``start``/``crash``,
``create``/``delete``, ``succeed``/``fail``, ...). In the evidence, a verb of the table stands for all its
forms (lemminflect: "terminated" also reads "terminating" and "terminates"), so a line that says the
claimed event in another form is not taken for its opposite. A word negated just before it ("did not
crash", "never started") is not counted.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

_NEGATION = re.compile(r"\b(?:not|never|no|without|didn't|wasn't|weren't|isn't|hasn't|haven't|cannot|can't)\s+(?:\w+\s+)?$", re.I)


@cache
def table(inflected: bool = False) -> tuple[dict[str, re.Pattern[str]], dict[str, frozenset[str]]]:
    data = json.loads(resources.files("citeproof").joinpath("data/events.json").read_text(encoding="utf-8"))
    patterns = {
        name: re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in sorted(_forms(words) if inflected else words, key=len,
                                                                                   reverse=True)) + r")(?![\w-])", re.I)
        for name, words in data["events"].items()
    }
    opposite: dict[str, set[str]] = {name: set() for name in patterns}
    for a, b in data["opposites"]:
        opposite[a].add(b)
        opposite[b].add(a)
    return patterns, {k: frozenset(v) for k, v in opposite.items()}


def _forms(words: list[str]) -> set[str]:
    """The table's words with the inflected forms of each single-word verb ("terminated" -> terminates, terminating)."""
    from lemminflect import getAllInflections, getAllLemmas

    out = set(words)
    for word in words:
        if " " in word or "-" in word:
            continue
        for lemma in getAllLemmas(word.lower()).get("VERB", ()):
            for tag, forms in getAllInflections(lemma, upos="VERB").items():
                if tag in ("VBD", "VBG", "VBN", "VBZ"):  # not the base form: "exit", "accept" are nouns of headers and codes
                    out.update(forms)
    return out


@cache
def neutral() -> frozenset[str]:
    """Event groups that name a neutral step (``start``, ``create``): see ``neutral_about`` in the table."""
    data = json.loads(resources.files("citeproof").joinpath("data/events.json").read_text(encoding="utf-8"))
    return frozenset(data.get("neutral", ()))


def events_in(text: str, skip_negated: bool = True, inflected: bool = False) -> dict[str, str]:
    """Event group -> the first word of it found in ``text`` (``inflected``: in any form of the table's verbs)."""
    patterns, _ = table(inflected)
    found: dict[str, str] = {}
    for name, pattern in patterns.items():
        for m in pattern.finditer(text):
            if skip_negated and _NEGATION.search(text[max(0, m.start() - 30) : m.start()]):
                continue
            found[name] = m.group(0)
            break
    return found


def conflict(claim: str, evidence: str, also: str = "") -> tuple[str, str] | None:
    """(claim word, evidence word) when the claim's event is absent and an opposite one is present. ``also`` is more
    evidence text that may show the claimed event (a HAR entry's body: "consecutive_failures": 58 under 200 OK)."""
    _, opposite = table()
    said = events_in(claim)
    shown = events_in(evidence, skip_negated=False, inflected=True)
    more = events_in(also.replace("_", " "), skip_negated=False, inflected=True) if also else {}
    for name, word in sorted(said.items()):
        if name in shown or name in more:
            continue
        for other in sorted(opposite[name]):
            if other in shown and other not in said:
                return word, shown[other]
    return None
