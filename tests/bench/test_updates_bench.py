"""The truth-over-time dataset (tests/data/update_pairs.jsonl) and bench.updates (issue 21)."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bench.updates import (
    DATA,
    FRESH,
    FRESH2,
    FRESH3,
    FRESH4,
    FRESH5,
    FRESH6,
    FRESH7,
    FRESH8,
    FRESH9,
    FRESH10,
    FRESH11,
    FRESH12,
    FRESH13,
    FRESH14,
    FRESH15,
    FRESH16,
    FRESH17,
    FRESH18,
    FRESH19,
    LABELS,
    UNDECIDED_MARKERS,
    RecordError,
    cause,
    check_record,
    contains,
    ended_facts,
    failed,
    failures,
    half,
    load_records,
    measure,
    misses,
    rank_scores,
    run_path,
    select,
    sessions,
    shown_only_as_earlier,
    shows_both_as_current,
    table,
    user_of,
    write,
)

from neuromem import Memory
from neuromem.recall.prompt_truth import LABELS as PROMPT_LABELS

ROOT = Path(__file__).resolve().parents[2]
RECORDS = load_records()


def _by_id(rid: str) -> dict[str, Any]:
    return copy.deepcopy(next(r for r in RECORDS if r["id"] == rid))


# --------------------------------------------------------------------------- the dataset


def test_the_dataset_has_enough_records_of_every_kind() -> None:
    assert len(RECORDS) >= 400
    assert len({r["id"] for r in RECORDS}) == len(RECORDS)
    labels = Counter(r["label"] for r in RECORDS)
    assert set(labels) == set(LABELS)
    assert all(labels[label] >= 60 for label in LABELS), labels
    assert labels["update"] > len(RECORDS) / 2  # a majority of single-valued updates
    langs = Counter(r["lang"] for r in RECORDS)
    assert min(langs.values()) >= 0.45 * len(RECORDS), langs
    for label in LABELS:  # each label in both languages and both persons
        assert {(r["lang"], r["person"]) for r in RECORDS if r["label"] == label} == {
            (lang, person) for lang in ("en", "zh") for person in ("first", "third")
        }
    assert {r["gap"] for r in RECORDS if r["label"] == "update"} == {"minutes", "days", "months"}
    answers = [r for r in RECORDS if r["label"] == "update" and r["turns"][-2]["role"] == "assistant"]
    assert len(answers) >= 20  # updates given as the answer to an assistant question
    assert sum(len([t for t in r["turns"] if t["role"] == "user"]) >= 3 for r in RECORDS) >= 6  # sequences


ORIGINAL_RECORDS = 450  # the records of sessions 9–11: their halves never move


def test_unrelated_records_also_ask_for_the_older_statement() -> None:
    """A later statement about another thing must not outrank the earlier fact a question asks for: such
    records (appended last, so the dev/heldout halves of the others stay) are valid, in both languages."""
    older = [
        r
        for r in RECORDS
        if r["label"] == "unrelated" and not contains(r["turns"][-1]["content"], r["current"])
    ]
    assert len(older) >= 40 and {r["lang"] for r in older} == {"en", "zh"}
    assert all(int(r["id"][-3:]) >= 100 for r in older)
    start = RECORDS.index(older[0])
    assert RECORDS[start : start + len(older)] == older and start == ORIGINAL_RECORDS  # after the first 450
    assert {r["id"] for r in half(older, "dev")} | {r["id"] for r in half(older, "heldout")} == {
        r["id"] for r in older
    }


def test_updates_in_other_words_come_last_in_both_halves() -> None:
    """Session 13's updates, written in other words than the earlier ones, are appended after every other
    record (ids from 200), so the dev and held-out halves of the earlier records stay as they were."""
    later = [r for r in RECORDS if r["label"] == "update" and int(r["id"][-3:]) >= 200]
    assert len(later) >= 30 and RECORDS[-len(later) :] == later
    assert all(contains(r["turns"][-1]["content"], r["current"]) for r in later)
    assert half(later, "dev") and half(later, "heldout")


def test_the_files_are_what_the_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location(
        "make_update_pairs", ROOT / "tests/data/make_update_pairs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.records() == [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    for sets, start, path in (
        (module.FRESH_SETS, 300, FRESH),
        (module.FRESH2_SETS, 400, FRESH2),
        (module.FRESH3_SETS, 500, FRESH3),
        (module.FRESH4_SETS, 600, FRESH4),
        (module.FRESH5_SETS, 700, FRESH5),
        (module.FRESH6_SETS, 800, FRESH6),
        (module.FRESH7_SETS, 900, FRESH7),
        (module.FRESH8_SETS, 1000, FRESH8),
        (module.FRESH9_SETS, 1100, FRESH9),
        (module.FRESH10_SETS, 1200, FRESH10),
        (module.FRESH11_SETS, 1300, FRESH11),
        (module.FRESH12_SETS, 1400, FRESH12),
        (module.FRESH13_SETS, 1500, FRESH13),
        (module.FRESH14_SETS, 1600, FRESH14),
        (module.FRESH15_SETS, 1700, FRESH15),
        (module.FRESH16_SETS, 1800, FRESH16),
        (module.FRESH17_SETS, 1900, FRESH17),
        (module.FRESH18_SETS, 2000, FRESH18),
        (module.FRESH19_SETS, 2100, FRESH19),
    ):
        assert module.fresh_records(sets, start) == [
            json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
        ]


@pytest.mark.parametrize(
    ("path", "first", "last"),
    [
        (FRESH, 300, 399),
        (FRESH2, 400, 499),
        (FRESH3, 500, 599),
        (FRESH4, 600, 699),
        (FRESH5, 700, 799),
        (FRESH6, 800, 899),
        (FRESH7, 900, 999),
        (FRESH8, 1000, 1099),
        (FRESH9, 1100, 1199),
        (FRESH10, 1200, 1299),
        (FRESH11, 1300, 1399),
        (FRESH12, 1400, 1499),
        (FRESH13, 1500, 1599),
        (FRESH14, 1600, 1699),
        (FRESH15, 1700, 1799),
        (FRESH16, 1800, 1899),
        (FRESH17, 1900, 1999),
        (FRESH18, 2000, 2099),
        (FRESH19, 2100, 2199),
    ],
)
def test_each_fresh_set_has_every_label_in_both_languages_and_ids_of_its_own(
    path: Path, first: int, last: int
) -> None:
    """``update_pairs_fresh*.jsonl``: sets no rule was shaped on (``bench.updates --data``), checked like the
    first, with ids no other set uses."""
    fresh = load_records(path)
    counts = Counter((r["label"], r["lang"]) for r in fresh)
    assert {label for label, _ in counts} == set(LABELS) and all(
        counts[(label, lang)] >= 8 for label in LABELS for lang in ("en", "zh")
    )
    assert not {r["id"] for r in fresh} & {r["id"] for r in RECORDS}
    assert all(first <= int(r["id"].rsplit("-", 1)[1]) <= last for r in fresh)  # the number after the label


def _drop_current_from_keep(r: dict[str, Any]) -> None:
    r["keep"] = [v for v in r["keep"] if v != r["current"]]


BREAKS = {
    "a missing field": ("en-update-000", lambda r: r.pop("question")),
    "an unknown label": ("en-update-000", lambda r: r.update(label="changed")),
    "an update without a stale value": ("en-update-000", lambda r: r.update(stale=None)),
    "current not said in the last turn": ("zh-update-000", lambda r: r.update(current="广州")),
    "current said before the update": ("en-update-000", lambda r: r.update(stale="Munich", current="Berlin")),
    "stale inside current": ("en-update-000", lambda r: r.update(stale="Mun")),
    "the answer in the question": ("en-update-000", lambda r: r.update(question="Is it Munich?")),
    "turns out of order": ("en-update-000", lambda r: r["turns"].reverse()),
    "a question before the last turn": ("en-update-000", lambda r: r.update(asked_at="2020-01-01T00:00:00Z")),
    "an update of a multi-valued slot": ("en-update-000", lambda r: r.update(slot_kind="multi")),
    "keep without current": ("en-addition-000", _drop_current_from_keep),
    "a kept value nobody said": ("zh-unrelated-000", lambda r: r["keep"].append("拉萨")),
    "a stale value on an addition": ("en-addition-000", lambda r: r.update(stale="peanuts")),
    "an assistant turn last": (
        "en-update-005",
        lambda r: r["turns"].append(
            {"role": "assistant", "content": "Noted.", "timestamp": "2030-01-01T00:00:00Z"}
        ),
    ),
}


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_check_record_rejects_a_broken_record(case: str) -> None:
    rid, breaks = BREAKS[case]
    record = _by_id(rid)
    check_record(record)  # valid before
    breaks(record)
    with pytest.raises(RecordError):
        check_record(record)


def test_load_records_rejects_duplicate_ids(tmp_path: Path) -> None:
    line = json.dumps(RECORDS[0], ensure_ascii=False)
    (tmp_path / "dup.jsonl").write_text(f"{line}\n{line}\n", encoding="utf-8")
    with pytest.raises(RecordError, match="unique"):
        load_records(tmp_path / "dup.jsonl")


def test_select_keeps_the_mix_under_a_limit() -> None:
    picked = select(RECORDS, limit=16)
    assert Counter((r["label"], r["lang"]) for r in picked) == {
        (la, lg): 2 for la in LABELS for lg in ("en", "zh")
    }
    assert {r["lang"] for r in select(RECORDS, langs=("zh",))} == {"zh"}
    assert len(select(RECORDS, langs=("zh",))) == sum(r["lang"] == "zh" for r in RECORDS)


def test_user_ids_are_hashes_that_name_nothing() -> None:
    record = RECORDS[0]
    uid = user_of(record, "add")
    assert uid == user_of(record, "add") != user_of(record, "ingest")
    assert record["id"] not in uid and record["label"] not in uid and len(uid) == 17


def test_sessions_split_after_an_hour_of_silence() -> None:
    turns = [
        {"timestamp": t}
        for t in (
            "2024-01-01T09:00:00Z",
            "2024-01-01T09:50:00Z",
            "2024-01-01T11:00:00Z",
            "2024-03-01T11:00:00Z",
            "2024-03-01T11:00:30Z",
        )
    ]
    assert [len(s) for s in sessions(turns)] == [2, 1, 2]


# --------------------------------------------------------------------------- the metrics on hand-made cases


def test_rank_scores() -> None:
    assert rank_scores(["I moved to Munich.", "I live in Berlin."], "munich", "Berlin") == {
        "current@1": 1.0,
        "stale>current": 0.0,
    }
    assert rank_scores(["I live in Berlin.", "I moved to Munich."], "Munich", "Berlin") == {
        "current@1": 0.0,
        "stale>current": 1.0,
    }
    # a hit with both values counts as current at its rank
    both_first = rank_scores(["Moved from Berlin to Munich.", "I live in Berlin."], "Munich", "Berlin")
    assert both_first["stale>current"] == 0.0
    # stale found and current never found
    assert rank_scores(["I live in Berlin."], "Munich", "Berlin")["stale>current"] == 1.0
    assert rank_scores(["the weather"], "Munich", "Berlin") == {"current@1": 0.0, "stale>current": 0.0}
    assert rank_scores([], "Munich", None) == {"current@1": 0.0}
    assert rank_scores(["我搬到杭州了。"], "杭州", None) == {"current@1": 1.0}


def test_shown_only_as_earlier() -> None:
    """A true value is told to be past only when every line that holds it has a staleness marker."""
    assert shown_only_as_earlier("- Hamilton\n- earlier: [2024-01-10] Les Mis", "Les Mis")
    assert not shown_only_as_earlier("- Les Mis (said 2024-01-10)\n- earlier: Les Mis", "Les Mis")
    assert not shown_only_as_earlier("- Hamilton", "Les Mis")  # not shown at all is not shown as earlier


def test_shows_both_as_current() -> None:
    both = "[User memory]\n- [2024-01-03 user] I live in Berlin. [1]\n- I moved to Munich. [2]"
    assert shows_both_as_current(both, "Munich", "Berlin")
    assert not shows_both_as_current(both.replace("I live", "Earlier I lived"), "Munich", "Berlin")
    assert not shows_both_as_current(
        "- I live in Berlin (until 2024-03). [1]\n- I live in Munich. [2]", "Munich", "Berlin"
    )
    # one line relates the two values
    assert not shows_both_as_current("- I moved from Berlin to Munich. [1]", "Munich", "Berlin")
    assert not shows_both_as_current("- I live in Berlin. [1]", "Munich", "Berlin")  # current absent
    assert shows_both_as_current("- 我住在上海。[1]\n- 我搬到杭州了。[2]", "杭州", "上海")
    assert not shows_both_as_current("- 我之前住在上海。[1]\n- 我搬到杭州了。[2]", "杭州", "上海")


def test_ended_facts_counts_stored_values_no_longer_current() -> None:
    stored = ["I'm allergic to peanuts.", "I'm also allergic to shellfish."]
    assert ended_facts(stored, stored, ["peanuts", "shellfish"]) == []
    assert ended_facts(stored, stored[1:], ["peanuts", "shellfish"]) == ["peanuts"]
    assert ended_facts(stored[1:], stored[1:], ["peanuts", "shellfish"]) == []  # never stored: not ended


# --------------------------------------------------------------------------- against the test database


def test_measure_a_stale_only_memory(memory: Memory) -> None:
    record = _by_id("en-update-000")  # Berlin → Munich; write only the first statement
    memory.add(record["turns"][0]["content"], user_id="u1", valid_at=record["turns"][0]["timestamp"])
    scores = measure(memory, record, "u1")
    assert scores == {
        "current@1": 0.0,
        "stale>current": 1.0,
        "prompt current": 0.0,
        "prompt both": 0.0,
        "may have changed": 0.0,
        "true as earlier": 0.0,
        "stale live": 1.0,
        "current stored": 0.0,
        "stale stored": 1.0,
        "queued": 0.0,
    }
    assert failed(scores) and cause(scores) == "new value kept only as a turn"


def test_measure_counts_a_kept_fact_that_was_ended(memory: Memory) -> None:
    record = _by_id("en-unrelated-001")  # I work at Siemens / My wife works at Allianz
    assert write(memory, record, "add", "u2") == 2
    for m in memory.get_all(user_id="u2"):
        if "Siemens" in m.content:
            memory.delete(m.id, user_id="u2")
    scores = measure(memory, record, "u2")
    assert scores["wrongly ended"] == 1.0 and scores["facts ended"] >= 1.0
    assert "stale live" not in scores and "prompt both" not in scores
    assert scores["facts stored"] == 2.0  # Siemens (deleted, still stored) and Allianz


ENDED = {"wrongly ended", "facts ended", "facts stored", "may have changed", "true as earlier"}
METRICS_OF = {
    "update": {
        "current@1",
        "stale>current",
        "prompt current",
        "prompt both",
        "may have changed",
        "true as earlier",
        "stale live",
        "current stored",
        "stale stored",
        "queued",
    },
    "addition": ENDED,
    "restatement": {"current@1", *ENDED},
    "unrelated": {"current@1", *ENDED},
}


@pytest.mark.parametrize("path", ["add", "ingest"])
def test_run_path_on_a_small_mix(memory: Memory, path: str) -> None:
    records = select(RECORDS, limit=8)
    run = run_path(memory, records, path)
    sent = sum(len([t for t in r["turns"] if path == "ingest" or t["role"] == "user"]) for r in records)
    assert run.turns == sent and run.write_seconds > 0 and run.turns_per_s > 0
    assert set(run.scores) == {r["id"] for r in records}
    for r in records:
        assert set(run.scores[r["id"]]) == METRICS_OF[r["label"]]
        assert all(0.0 <= v <= max(1, len(r["keep"])) for v in run.scores[r["id"]].values())
    assert set(run.top) == set(run.scores) and all(len(t) <= 3 for t in run.top.values())
    missed = [r["id"] for r in records if r["label"] == "update" and run.scores[r["id"]]["current@1"] == 0]
    assert [line.split()[1] for line in misses(run, records, 10).splitlines()] == missed
    report = failures(run, records, 5).splitlines()
    assert (
        report[0] == f"{sum(r['label'] == 'update' for r in records)} updates, "
        f"{sum(failed(run.scores[r['id']]) for r in records if r['label'] == 'update')} failed"
    )
    assert all(line.startswith("- ") and ": " in line for line in report[1:])
    by_gap = table(run, records, by="gap")
    assert "| label | gap | n |" in by_gap and "| addition | all | 2 |" in by_gap
    rendered = table(run, records)
    assert "| update | en | 1 |" in rendered and "| unrelated | all | 2 |" in rendered


@pytest.mark.parametrize(
    ("args", "named"),
    [(["--paths", "add,bogus"], "--paths"), (["--data", "tests/data/no_such_pairs.jsonl"], "--data")],
)
def test_the_command_rejects_bad_arguments_before_starting_a_server(args: list[str], named: str) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"}
    done = subprocess.run(
        [sys.executable, "-m", "bench.updates", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and named in done.stderr


def _scores(**given: float) -> dict[str, float]:
    base = {
        "current@1": 1.0,
        "stale>current": 0.0,
        "prompt both": 0.0,
        "stale live": 0.0,
        "current stored": 1.0,
        "stale stored": 1.0,
        "queued": 0.0,
    }
    return {**base, **given}


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"current stored": 0.0, "current@1": 0.0}, "new value kept only as a turn"),
        ({"stale stored": 0.0, "stale>current": 1.0}, "old value kept only as a turn"),
        ({"stale live": 1.0, "queued": 1.0, "prompt both": 1.0}, "slot found, arity unknown: review queue"),
        ({"stale live": 1.0, "current@1": 0.0}, "slot not found at write time"),
        ({"stale>current": 1.0}, "old value ended, ranking wrong"),
        ({"prompt both": 1.0}, "ranking right, prompt shows both"),
    ],
)
def test_a_failed_update_gets_the_first_cause_that_explains_it(
    given: dict[str, float], expected: str
) -> None:
    scores = _scores(**given)
    assert failed(scores) and cause(scores) == expected
    assert not failed(_scores())


def test_half_splits_the_file_by_position() -> None:
    rows = [{"id": str(i)} for i in range(5)]
    assert [r["id"] for r in half(rows, "dev")] == ["0", "2", "4"]
    assert [r["id"] for r in half(rows, "heldout")] == ["1", "3"]
    assert half(rows, "all") == rows
    with pytest.raises(ValueError, match="half must be"):
        half(rows, "test")


def test_a_may_have_changed_line_is_found_by_the_words_it_starts_with() -> None:
    """In both languages, from the labels of ``recall.prompt_truth`` (not a copy of them)."""
    assert UNDECIDED_MARKERS == ("may have changed:", "可能已变：")
    for lang, marker in zip(PROMPT_LABELS, UNDECIDED_MARKERS, strict=True):
        line = PROMPT_LABELS[lang]["undecided"].format(old="A", old_date="d1", new="B", new_date="d2")
        assert line.startswith(marker) and marker not in PROMPT_LABELS[lang]["conflict"]
