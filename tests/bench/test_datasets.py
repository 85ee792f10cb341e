"""bench.datasets on tiny synthetic files in the real formats (plus one optional real-data check)."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from bench.datasets import (
    ENV_VAR,
    LME_S_DEV,
    data_root,
    evidence_session_ids,
    evidence_turn_ids,
    has_user_evidence,
    is_abstention,
    lme_corpus,
    load_longmemeval,
    load_madial,
    parse_lme_date,
    retrieval_eligible,
    session_of_turn,
)


def _turn(role: str, content: str, has_answer: bool | None = None) -> dict[str, Any]:
    t: dict[str, Any] = {"role": role, "content": content}
    if has_answer is not None:
        t["has_answer"] = has_answer
    return t


FILLER = [_turn("user", "how do I bake bread?"), _turn("assistant", "knead, rise, bake.")]
Q_NORMAL: dict[str, Any] = {
    "question_id": "q1",
    "question_type": "multi-session",
    "question": "How many appointments did I have?",
    "answer": 2,
    "question_date": "2023/03/27 (Mon) 23:35",
    "haystack_session_ids": ["sharegpt_f_0", "answer_x_1", "answer_x_2", "sharegpt_f_0"],
    "haystack_dates": [
        "2023/03/01 (Wed) 08:00",
        "2023/03/02 (Thu) 09:15",
        "2023/03/28 (Tue) 10:00",  # after the question date: kept
        "2023/03/20 (Mon) 12:00",
    ],
    "haystack_sessions": [
        FILLER,
        [
            _turn("user", "I saw Dr. Lee today.", True),
            _turn("assistant", "Hope it went well.", False),
            _turn("user", "Also my dentist.", True),
        ],
        [_turn("user", "Thanks!", False), _turn("assistant", "You went twice.", True)],
        FILLER,
    ],
    "answer_session_ids": ["answer_x_1", "answer_x_2"],
}
Q_ABS = {**Q_NORMAL, "question_id": "q1_abs", "question": "How many vet visits?", "answer": "unknown"}
Q_ASSISTANT_ONLY: dict[str, Any] = {
    "question_id": "q2",
    "question_type": "single-session-assistant",
    "question": "What did you recommend?",
    "answer": "Rye bread",
    "question_date": "2023/05/01 (Mon) 00:00",
    "haystack_session_ids": ["answer_y_1"],
    "haystack_dates": ["2023/04/01 (Sat) 00:00"],
    "haystack_sessions": [[_turn("user", "Bread?", False), _turn("assistant", "Rye bread.", True)]],
    "answer_session_ids": ["answer_y_1"],
}


@pytest.fixture
def lme_file(tmp_path: Path) -> Path:
    path = tmp_path / "lme.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for q in (Q_NORMAL, Q_ABS, Q_ASSISTANT_ONLY):
            f.write(json.dumps(q) + "\n")
    return path


def test_parse_lme_date_is_aware_utc() -> None:
    assert parse_lme_date("2023/04/10 (Mon) 23:07") == dt.datetime(2023, 4, 10, 23, 7, tzinfo=dt.UTC)


def test_load_longmemeval_fields(lme_file: Path) -> None:
    qs = list(load_longmemeval(lme_file))
    assert [q.question_id for q in qs] == ["q1", "q1_abs", "q2"]
    q = qs[0]
    assert q.question_type == "multi-session"
    assert q.answer == "2"  # ints are normalised to str
    assert q.question_date == dt.datetime(2023, 3, 27, 23, 35, tzinfo=dt.UTC)
    assert q.answer_session_ids == ("answer_x_1", "answer_x_2")
    assert [s.session_id for s in q.sessions] == ["sharegpt_f_0", "answer_x_1", "answer_x_2", "sharegpt_f_0"]
    assert q.sessions[2].date > q.question_date
    assert [s.is_answer_session for s in q.sessions] == [False, True, True, False]
    s1 = q.sessions[1]
    assert [(t.turn_id, t.index, t.role, t.has_answer) for t in s1.turns] == [
        ("answer_x_1_1", 1, "user", True),
        ("answer_x_1_2", 2, "assistant", False),
        ("answer_x_1_3", 3, "user", True),
    ]
    assert q.sessions[0].turns[0].has_answer is False  # missing key → False
    assert sum(1 for _ in q.turns()) == 9


def test_limit_and_json_array(lme_file: Path, tmp_path: Path) -> None:
    assert [q.question_id for q in load_longmemeval(lme_file, limit=1)] == ["q1"]
    assert list(load_longmemeval(lme_file, limit=0)) == []
    array = tmp_path / "oracle.json"
    array.write_text(json.dumps([Q_ASSISTANT_ONLY]), encoding="utf-8")
    assert [q.question_id for q in load_longmemeval(array)] == ["q2"]
    plain = tmp_path / "lme.jsonl"
    plain.write_text(json.dumps(Q_NORMAL) + "\n\n", encoding="utf-8")
    assert len(list(load_longmemeval(plain))) == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError):
        list(load_longmemeval(bad))


def test_evidence_and_eligibility(lme_file: Path) -> None:
    q, q_abs, q_asst = load_longmemeval(lme_file)
    assert evidence_turn_ids(q) == {"answer_x_1_1", "answer_x_1_3"}
    assert evidence_turn_ids(q, user_only=False) == {"answer_x_1_1", "answer_x_1_3", "answer_x_2_2"}
    # official: a session counts only if one of its user turns has the answer
    assert evidence_session_ids(q) == {"answer_x_1"}
    assert evidence_session_ids(q, user_only=False) == {"answer_x_1", "answer_x_2"}
    assert is_abstention(q_abs) and q_abs.is_abstention and not is_abstention(q)
    assert has_user_evidence(q) and not has_user_evidence(q_asst)
    assert retrieval_eligible(q)
    assert not retrieval_eligible(q_abs)
    assert not retrieval_eligible(q_asst)
    assert retrieval_eligible(q_asst, user_only=False)
    assert session_of_turn("answer_x_1_3") == "answer_x_1"


def test_corpora(lme_file: Path) -> None:
    q = next(load_longmemeval(lme_file))
    user_turns = lme_corpus(q)
    assert [d.doc_id for d in user_turns] == [
        "sharegpt_f_0_1",
        "answer_x_1_1",
        "answer_x_1_3",
        "answer_x_2_1",
    ]
    assert all(d.role == "user" for d in user_turns)
    assert user_turns[1].session_id == "answer_x_1" and user_turns[1].text == "I saw Dr. Lee today."
    assert user_turns[1].date == dt.datetime(2023, 3, 2, 9, 15, tzinfo=dt.UTC)

    all_turns = lme_corpus(q, user_only=False)
    assert len(all_turns) == 2 + 3 + 2  # the repeated filler session is indexed once
    assert len(lme_corpus(q, user_only=False, keep_duplicates=True)) == 9

    sessions = lme_corpus(q, "session")
    assert [d.doc_id for d in sessions] == ["sharegpt_f_0", "answer_x_1", "answer_x_2"]
    assert sessions[1].text == "I saw Dr. Lee today. Also my dentist."
    assert sessions[1].role is None
    full = lme_corpus(q, "session", user_only=False)
    assert full[2].text == "user: Thanks!\nassistant: You went twice."
    with pytest.raises(ValueError):
        lme_corpus(q, "paragraph")  # type: ignore[arg-type]
    # every gold id is in the matching corpus
    assert evidence_turn_ids(q) <= {d.doc_id for d in user_turns}
    assert evidence_turn_ids(q, user_only=False) <= {d.doc_id for d in all_turns}


def test_empty_turns_are_not_documents(tmp_path: Path) -> None:
    """A few real haystacks hold an empty turn; it is no document (an embedder refuses empty text)."""
    blank = {
        **Q_ASSISTANT_ONLY,
        "haystack_sessions": [
            [
                _turn("user", "  ", False),
                _turn("user", "Bread?", False),
                _turn("assistant", "Rye bread.", True),
            ]
        ],
    }
    path = tmp_path / "blank.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(json.dumps(blank) + "\n")
    q = next(load_longmemeval(path))
    assert [d.text for d in lme_corpus(q)] == ["Bread?"]
    assert [d.text for d in lme_corpus(q, user_only=False)] == ["Bread?", "Rye bread."]


def test_data_root_override(tmp_path: Path) -> None:
    assert data_root({ENV_VAR: str(tmp_path)}) == tmp_path
    default = data_root({})
    assert default.parts[-2:] == ("shared", "data")


# --------------------------------------------------------------------------- MADial-Bench


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


@pytest.fixture
def madial_root(tmp_path: Path) -> Path:
    zh = tmp_path / "madial" / "zh"
    en = tmp_path / "madial" / "en"
    mem = [
        ("1", 1, "Bart在圣诞节晚会上跳舞。", "Bart danced at the Christmas party."),
        ("3", 1, "Bart获得一百米第一名。", "Bart won the 100 meters."),
        ("7", 2, "Lisa养了一只猫。", "Lisa adopted a cat."),
        ("9", 2, "她学会了游泳。", "She learned to swim."),  # no name in the English text
    ]
    _write_jsonl(
        zh / "MADial-Bench-zh-memory.json",
        [
            {
                mid: {
                    "time": "2023-12-25",
                    "scene": "活动类",
                    "emotion": "开心",
                    "event": ev,
                    "user-id": u,
                    "id": mid,
                }
            }
            for mid, u, ev, _ in mem
        ],
    )
    _write_jsonl(
        en / "MADial-Bench-en-memory.json",
        [
            {mid: {"time": "2023-12-25", "scene": "Activity", "emotion": "Happy", "event": ev}}
            for mid, _, _, ev in mem
        ],
    )
    _write_jsonl(
        zh / "MADial-Bench-zh-dialogue.json",
        [
            {
                "dialogue": [
                    "<BOD>\n",
                    '<Bart>:"我要表演魔术！"\n',
                    '<Assistant>:"太棒了！"\n',
                    '<Bart>:"好紧张"\n',
                    '<Assistant>:"记得圣诞节你跳舞吗？"\n',
                    "<EOD>\n",
                ],
                "test-turn": [4],
                "relevant-id": [1, 3],
                "user-id": 1,
                "id": 0,
            },
            {
                "dialogue": ["<BOD>\n", ' <Lisa>: "我的猫病了"\n', '<Assistant>:"别担心"\n', "<EOD>\n"],
                "test-turn": [2],
                "relevant-id": [7],
                "user-id": 2,
                "id": 1,
            },
        ],
    )
    _write_jsonl(
        en / "MADial-Bench-en-dialogue.json",
        [
            {
                "dialogue": [
                    "<BOD>\n",
                    '<Bart>: "I will do magic!"\n',
                    '"Great!"\n',
                    '<Bart>: "I am nervous"\n',
                    "<Remember your dance?>\n",
                    "<EOD>\n",
                ],
                "test-turn": [4],
                "relevant-id": [1, 3],
                "user-id": 1,
            },
            {
                "dialogue": [
                    "<BOD>\n",
                    '<Lisa>: "My cat is sick"\n',
                    '<Assistant>: "Don\'t worry"\n',
                    "<EOD>\n",
                ],
                "test-turn": [2],
                "relevant-id": [7],
                "user-id": 2,
            },
        ],
    )
    return tmp_path


def test_load_madial_zh(madial_root: Path) -> None:
    bench = load_madial("zh", root=madial_root)
    assert bench.lang == "zh"
    assert [m.memory_id for m in bench.memories] == ["1", "3", "7", "9"]
    assert bench.memories[0].date == dt.date(2023, 12, 25)
    assert bench.memories[0].scene == "活动类" and bench.memories[0].emotion == "开心"
    assert [m.memory_id for m in bench.memories_for_user(2)] == ["7", "9"]
    d0, d1 = bench.dialogues
    assert (d0.dialogue_id, d0.user_id, d0.test_turns, d0.relevant_ids) == (0, 1, (4,), ("1", "3"))
    assert [(u.index, u.role, u.speaker, u.content) for u in d0.utterances] == [
        (1, "user", "Bart", "我要表演魔术！"),
        (2, "assistant", "Assistant", "太棒了！"),
        (3, "user", "Bart", "好紧张"),
        (4, "assistant", "Assistant", "记得圣诞节你跳舞吗？"),
    ]
    assert [u.index for u in d0.context] == [1, 2, 3]
    assert d0.query_text() == "Bart: 我要表演魔术！\nAssistant: 太棒了！\nBart: 好紧张"
    assert (
        d0.query_text(upstream=True)
        == '<BOD>\n<Bart>:"我要表演魔术！"\n<Assistant>:"太棒了！"\n<Bart>:"好紧张"\n'
    )
    assert d1.utterances[0].speaker == "Lisa" and d1.utterances[0].content == "我的猫病了"
    assert bench.memory_by_id["7"].user_id == 2


def test_load_madial_en_fills_missing_fields(madial_root: Path) -> None:
    bench = load_madial("en", root=madial_root)
    owners = {m.memory_id: m.user_id for m in bench.memories}
    assert owners == {"1": 1, "3": 1, "7": 2, "9": 2}  # "9" resolved through the zh archive
    d0, d1 = bench.dialogues
    assert (d0.dialogue_id, d1.dialogue_id) == (0, 1)  # line numbers
    assert [(u.role, u.speaker, u.content) for u in d0.utterances] == [
        ("user", "Bart", "I will do magic!"),
        ("assistant", "Assistant", "Great!"),  # untagged line
        ("user", "Bart", "I am nervous"),
        ("assistant", "Assistant", "Remember your dance?"),  # text wrapped in <…>
    ]


def test_load_madial_errors(madial_root: Path) -> None:
    with pytest.raises(ValueError):
        load_madial("fr", root=madial_root)  # type: ignore[arg-type]
    (madial_root / "madial" / "zh" / "MADial-Bench-zh-memory.json").unlink()
    with pytest.raises(ValueError, match="memory 9"):
        load_madial("en", root=madial_root)


# --------------------------------------------------------------------------- real data (optional)

REAL = data_root()


@pytest.mark.skipif(not (REAL / LME_S_DEV).exists(), reason="shared benchmark data not available")
def test_real_longmemeval_two_questions() -> None:
    qs = list(load_longmemeval(limit=2))
    assert len(qs) == 2
    for q in qs:
        assert 30 <= len(q.sessions) <= 60
        assert set(q.answer_session_ids) <= {s.session_id for s in q.sessions}
        if retrieval_eligible(q):
            corpus_ids = {d.doc_id for d in lme_corpus(q)}
            assert evidence_turn_ids(q) <= corpus_ids


@pytest.mark.skipif(not (REAL / "madial" / "en").exists(), reason="shared benchmark data not available")
def test_real_madial_gold_belongs_to_the_dialogue_user() -> None:
    for lang in ("zh", "en"):
        bench = load_madial(lang)  # type: ignore[arg-type]
        by_id = bench.memory_by_id
        assert len(bench.dialogues) == 160
        for d in bench.dialogues:
            assert all(by_id[r].user_id == d.user_id for r in d.relevant_ids)
