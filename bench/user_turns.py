"""What the offline extractor keeps of real user turns, and what the PII detector flags in them (issue 21).

Reads the user turns of LongMemEval (the oracle dev file: the evidence sessions of 398
questions; ``--data`` names another file, e.g. the LongMemEval_S haystacks
``longmemeval_s_dev.jsonl.gz``) and reports, without a database:

- **the importance gate** (item 4): how the mined units (user sentences) end — kept as a
  memory, or dropped as small talk, a question, or ``below_threshold`` — as shares of all
  units, and how many kept units are plain declarative statements (``rules.declarative``);
- **the PII detector** (item 5): how many turns ``text.pii.find_pii`` flags, by kind, and
  ``--show N`` prints N flagged spans with their context to judge false positives by hand.

Run it on a checkout before and after a change to compare::

    PYTHONPATH=src:. .venv/bin/python -m bench.user_turns --limit 3000
    PYTHONPATH=src:. .venv/bin/python -m bench.user_turns --limit 3000 --show 40
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import random
import re
from collections import Counter
from pathlib import Path

from bench.datasets import LME_ORACLE_DEV, data_root

from neuromem.ingest.rules import extract_with_rules
from neuromem.ingest.turns import Turn
from neuromem.text.entities import extract_entities
from neuromem.text.pii import find_pii

_T0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)


def user_turns(path: Path, limit: int, seed: int) -> list[str]:
    """Distinct user turns of the file, a seeded sample of ``limit``."""
    seen: dict[str, None] = {}
    if path.suffix == ".gz":
        with gzip.open(path, "rt") as f:
            questions = [json.loads(line) for line in f]
    else:
        questions = json.loads(path.read_text())
    for question in questions:
        for session in question["haystack_sessions"]:
            for turn in session:
                if turn["role"] == "user" and turn["content"].strip():
                    seen.setdefault(turn["content"], None)
    turns = list(seen)
    random.Random(seed).shuffle(turns)
    return turns[:limit]


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|our|us)\b|我", re.IGNORECASE)
_COPULA = re.compile(r"\b(?:is|are|was|were)\b|是")


def about_others(sentence: str) -> bool:
    """A plain statement about another person or a thing: no first person, and a copula or a named
    person, organisation or place (the same test before and after a change of the extractor)."""
    if _FIRST_PERSON.search(sentence):
        return False
    named = any(e.type in ("person", "organization", "place") for e in extract_entities(sentence))
    return named or bool(_COPULA.search(sentence))


def gate(turns: list[str], threshold: float) -> dict[str, float]:
    """Shares of the mined units by outcome, and the share of statements about others dropped."""
    outcomes: Counter[str] = Counter()
    others: Counter[str] = Counter()
    for text in turns:
        out = extract_with_rules([Turn("user", text, _T0)], ("user",))
        outcomes.update(out.dropped)
        for c in out.candidates:
            kept = c.importance >= threshold
            outcomes["kept" if kept else "below_threshold"] += 1
            if about_others(c.content):
                others["kept" if kept else "dropped"] += 1
    total = sum(outcomes.values()) or 1
    shares = {k: round(v / total, 4) for k, v in sorted(outcomes.items())}
    n_others = sum(others.values()) or 1
    return shares | {
        "units": total,
        "statements_about_others": n_others,
        "about_others_dropped": round(others["dropped"] / n_others, 4),
    }


def pii(turns: list[str], show: int) -> dict[str, int]:
    kinds: Counter[str] = Counter()
    flagged = 0
    shown = 0
    for text in turns:
        matches = find_pii(text)
        flagged += bool(matches)
        for m in matches:
            kinds[m.kind] += 1
            if shown < show:
                print(
                    f"  [{m.kind}] …{text[max(0, m.start - 50) : m.start]}⟦{m.value}⟧{text[m.end : m.end + 30]}…"
                )
                shown += 1
    return {"turns": len(turns), "flagged_turns": flagged, **kinds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None, help="default: $NEUROMEM_BENCH_DATA or ../shared/data")
    ap.add_argument("--limit", type=int, default=3000, help="user turns sampled")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--threshold", type=float, default=0.3, help="ingest.importance_threshold")
    ap.add_argument("--show", type=int, default=0, help="print this many PII matches in context")
    args = ap.parse_args()
    turns = user_turns(args.data or data_root() / LME_ORACLE_DEV, args.limit, args.seed)
    print("importance gate (shares of mined units):", json.dumps(gate(turns, args.threshold)))
    print("pii detector:", json.dumps(pii(turns, args.show)))


if __name__ == "__main__":
    main()
