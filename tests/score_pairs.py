"""Score paraphrase/fabrication pairs: each faithful paraphrase must be verified, each fabrication not.

    python -m tests.score_pairs DIR [-v]

DIR holds ``pairs.json`` (a list of ``{"id", "citation", "evidence", "paraphrase", "fabrication",
"why_fabrication"}``) and ``bundle/``, the evidence the citations point into. Every sentence is
validated on its own, as ``<sentence> (<citation>)``.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import citeproof
from citeproof.evidence import Bundle

NOW = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)


def _status(sentence: str, citation: str, bundle: Bundle) -> tuple[str, str]:
    text = f"- {sentence.rstrip('.')} ({citation}).\n"
    report = citeproof.validate(text, bundle, now=NOW, use_cache=False)
    claim = (report.claims or report.unverified_observations)[0] if (report.claims or report.unverified_observations) else None
    return (claim.status.value, claim.reason) if claim else ("no_claim", "")


def score(root: Path, verbose: bool = False) -> tuple[int, int, int]:
    """(paraphrases verified, fabrications caught, pairs) for the pairs in ``root``."""
    pairs = json.loads((root / "pairs.json").read_text(encoding="utf-8"))
    para_ok = fab_caught = 0
    with Bundle(root / "bundle", use_cache=False) as bundle:
        for pair in pairs:
            p_status, p_reason = _status(pair["paraphrase"], pair["citation"], bundle)
            f_status, _ = _status(pair["fabrication"], pair["citation"], bundle)
            para_ok += p_status == "verified"
            fab_caught += f_status != "verified"
            if verbose and p_status != "verified":
                print(f"  {pair['id']} paraphrase {p_status}: {pair['paraphrase'][:100]}\n      tool: {p_reason[:150]}")
            if verbose and f_status == "verified":
                why = pair.get("why_fabrication", "")[:150]
                print(f"  {pair['id']} fabrication verified: {pair['fabrication'][:100]}\n      why: {why}")
    return para_ok, fab_caught, len(pairs)


def main(argv: list[str]) -> int:
    root = Path(next(a for a in argv if not a.startswith("-")))
    para_ok, fab_caught, total = score(root, "-v" in argv)
    n = max(total, 1)
    print(f"pairs: {total}  paraphrases verified: {para_ok}/{total} ({para_ok / n:.3f})  "
          f"fabrications caught: {fab_caught}/{total} ({fab_caught / n:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
