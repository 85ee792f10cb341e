"""The rule-based extractor and raw chunking on their own (no database)."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem.ingest.rules import classify, extract_with_rules
from neuromem.ingest.turns import Turn
from neuromem.store.raw_chunks import chunk_turn
from neuromem.text.spans import split_sentences
from neuromem.types import FactCategory, MemoryType

T0 = dt.datetime(2024, 3, 13, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))  # a Wednesday, UTC+8


def one(text: str, role: str = "user"):  # type: ignore[no-untyped-def]
    out = extract_with_rules([Turn(role, text, T0)], ("user",))
    assert len(out.candidates) == 1, (out.candidates, out.dropped)
    return out.candidates[0]


def test_sentences_split_on_both_punctuations_and_keep_abbreviations() -> None:
    text = "我喜欢茶。你呢？I saw Dr. Smith today! Fine"
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "我喜欢茶。",
        "你呢？",
        "I saw Dr. Smith today!",
        "Fine",
    ]


def test_a_semicolon_joins_the_clauses_of_one_statement_for_the_extractor() -> None:
    """The shared splitter ends a sentence at a semicolon; the extractor keeps the clauses together, so the clause
    that ends the old value is not a memory without the new one (issue 21)."""
    text = "Alun's retired; his niece Carys has taken the van on. 店换人了；现在是小周在管。"
    assert [text[a:b] for a, b in split_sentences(text)][:2] == [
        "Alun's retired;",
        "his niece Carys has taken the van on.",
    ]
    assert [text[a:b] for a, b in split_sentences(text, semicolons=False)] == [
        "Alun's retired; his niece Carys has taken the van on.",
        "店换人了；现在是小周在管。",
    ]
    said = [
        c.content
        for c in extract_with_rules(
            [Turn("user", "Jonas and I broke up; I'm seeing Felix now.", T0)], ("user",)
        ).candidates
    ]
    assert said == ["Jonas and I broke up; I'm seeing Felix now."]


@pytest.mark.parametrize("text", ["办公室无线密码是Heron!512。", "My wifi password is Orca?Blue;77 now."])
def test_punctuation_inside_a_word_splits_no_sentence(text: str) -> None:
    """A password or a name with "!", "?" or ";" inside is one word: the memory keeps it whole (issue 21 §5)."""
    assert [text[a:b] for a, b in split_sentences(text)] == [text]
    assert "Heron!512" in one(text).content or "Orca?Blue;77" in one(text).content


@pytest.mark.parametrize("text", ["hi", "Thanks a lot!", "ok, thanks", "好的，谢谢！", "哈哈哈", "嗯嗯"])
def test_small_talk(text: str) -> None:
    assert classify(text)[0] == "small_talk"


@pytest.mark.parametrize(
    "text", ["What should I cook tonight?", "你觉得怎么样？", "Can you recommend a book"]
)
def test_questions_are_not_memories(text: str) -> None:
    assert classify(text)[0] == "question"


@pytest.mark.parametrize(
    ("text", "start", "expression"),
    [
        ("Yesterday I ran a half marathon.", dt.datetime(2024, 3, 12, tzinfo=T0.tzinfo), "Yesterday"),
        ("我上周三去了上海。", dt.datetime(2024, 3, 6, tzinfo=T0.tzinfo), "上周三"),
        (
            "Next month I will start a new job at Apple.",
            dt.datetime(2024, 4, 1, tzinfo=T0.tzinfo),
            "Next month",
        ),
        ("我明年要去日本留学。", dt.datetime(2025, 1, 1, tzinfo=T0.tzinfo), "明年"),
    ],
)
def test_times_resolve_against_the_turn_not_now(text: str, start: dt.datetime, expression: str) -> None:
    c = one(text)
    assert c.time is not None and c.time.start == start and c.time.text == expression
    assert c.time.granularity in ("day", "month", "year")


def test_categories_slots_and_languages() -> None:
    job = one("我在字节跳动上班")
    assert (job.category, job.slot, job.value, job.language) == (
        FactCategory.IDENTITY,
        "employer",
        "字节跳动",
        "zh",
    )
    assert job.relation is not None and job.relation.predicate == "works_at"
    home = one("I live in San Francisco.")
    assert (
        home.relation is not None and home.relation.object.type == "place" and home.value == "san francisco"
    )
    dislike = one("I don't like spicy food.")
    assert (dislike.category, dislike.polarity, dislike.slot) == (
        FactCategory.PREFERENCE,
        "negative",
        "likes:spicy",
    )
    like = one("我特别喜欢吃火锅")
    assert like.polarity == "positive" and like.slot is not None and like.slot.startswith("likes:")
    assert one("My sister Anna is a nurse.").category is FactCategory.RELATIONSHIP
    assert one("提醒我周五交报告").category is FactCategory.TASK
    assert one("I usually go swimming every morning.").category is FactCategory.PROCEDURE
    trip = one("Last weekend we visited my parents in Boston.")
    assert trip.memory_type is MemoryType.EPISODIC and {e.name for e in trip.entities} >= {"Boston"}


def test_assistant_turns_and_hedges_give_no_memory() -> None:
    out = extract_with_rules(
        [
            Turn("assistant", "I love helping you with that.", T0),
            Turn("user", "I'm curious about black holes.", T0),
        ],
        ("user",),
    )
    assert out.candidates[0].importance < 0.3 and len(out.candidates) == 1


def test_emotion_and_sensitive_tags() -> None:
    c = one("I'm so anxious about my surgery next week.")
    assert c.emotion is not None and c.emotion.label == "anxious" and c.emotion.valence < 0
    assert "health" in c.sensitive and c.metadata()["trait_eligible"] is False


def test_long_turns_are_cut_into_chunks_and_refs_point_inside_them() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(100))
    chunks = chunk_turn(text, 300)
    assert len(chunks.pieces) > 1 and all(len(c.text) <= 300 for _, c in chunks.pieces)
    assert "".join(c.text for _, c in chunks.pieces).replace(" ", "") == text.replace(" ", "")
    start = text.index("Sentence number 57")
    span = (start, start + len("Sentence number 57 is here."))
    ref = chunks.ref(span)
    piece = next(c for _, c in chunks.pieces if c.sha256 == ref["sha256"])
    assert piece.text[ref["offset"] : ref["offset"] + ref["length"]] == "Sentence number 57 is here."


def test_chinese_clauses_without_subject_become_their_own_memories() -> None:
    text = "我在阿里巴巴工作，住在杭州，不喜欢香菜。"
    out = extract_with_rules([Turn("user", text, T0)], ("user",))
    got = [(c.content, c.slot, text[c.span[0] : c.span[1]]) for c in out.candidates]
    assert got == [
        ("我在阿里巴巴工作", "employer", "我在阿里巴巴工作"),
        (
            "我住在杭州",
            "residence",
            "住在杭州",
        ),  # the implied subject is written, the span is the spoken words
        ("我不喜欢香菜。", "likes:香菜", "不喜欢香菜。"),
    ]
    other = extract_with_rules([Turn("user", "我今天很忙，他住在上海。", T0)], ("user",))
    assert len(other.candidates) == 1  # someone else's residence is not the user's


@pytest.mark.parametrize(
    ("text", "category", "min_importance"),
    [
        ("我对花生过敏，吃了会起疹子。", "identity", 0.9),
        ("I'm allergic to shellfish.", "identity", 0.9),
        ("I'm training for the Hangzhou half marathon and I run three times a week.", "procedure", 0.5),
        ("我最近在学习日语，每天早上用 Anki 背 30 个单词。", "procedure", 0.5),
    ],
)
def test_allergies_and_habits_are_recognised(text: str, category: str, min_importance: float) -> None:
    found = extract_with_rules([Turn("user", text, T0)], ("user",)).candidates[0]
    assert found.category == category and found.importance >= min_importance


@pytest.mark.parametrize(
    "text",
    [
        "The capital of Australia is Canberra.",
        "Our CTO is Dana.",
        "Mei's husband works at Apple.",
        "I speak French.",
        "公司的CTO是王磊。",
        "Dana Whitfield runs the marketing team at Initech.",
        "Ashoka is affiliated with the religion of Islam.",  # a name opens it: no entity by itself
        "IKEA was founded in the city of Stockholm.",
        "The genre of Hamlet is tragedy.",  # named things of no known type
        "Max is a golden retriever, and he's about 3 years old.",
    ],
)
def test_plain_declarative_statements_are_kept(text: str) -> None:
    """Issue 21 item 4: a statement about a person, an organisation or a thing is a fact, not below_threshold."""
    c = one(text)
    assert c.memory_type is MemoryType.FACT and c.importance >= 0.3


@pytest.mark.parametrize(
    "text",
    [
        "I know SQL.",  # two words of the user's own: a fact (session 19)
        "I'm lactose intolerant.",
        "Sold the Vespa, bought an e-bike.",  # a change reported
        "网球不打了，改练羽毛球。",
        "爷爷在吃降压药。",  # about someone of the user's
        "The quarterly report is due on Friday.",  # a value
        "房租每月4200。",  # an amount
        "Gate B 42.",
    ],
)
def test_short_statements_of_facts_are_kept(text: str) -> None:
    """Issue 21 item 4, the short ones: before session 19 each stayed only a turn (below_threshold)."""
    c = one(text)
    assert c.memory_type is MemoryType.FACT and c.importance >= 0.3


@pytest.mark.parametrize(
    "text",
    [
        "Coffee is great.",
        "Directory is in security.",
        "Netflix is great for Friday nights.",
        "I'm curious about that.",
    ],
)
def test_a_remark_about_a_named_thing_is_no_declarative_fact(text: str) -> None:
    assert one(text).importance < 0.3


def test_hedges_stay_below_the_threshold() -> None:
    assert one("I think the capital of Australia is Sydney.").importance < 0.3
