"""A correction takes back what its speaker said just before (issue 21, build 1): "Actually make that 8:30"
ends "Put us down for the 7:15 table", through ``add`` and ``ingest`` (``text.corrections.CORRECTION_WINDOW``,
``text.corrections``). Nothing else is taken back: a statement said long before, one of another kind of value,
or a "correction" that asks."""

from __future__ import annotations

import datetime as dt

import pytest

from neuromem import Memory, MemoryType, Operation
from neuromem.text.corrections import (
    CORRECTION_WINDOW,
    corrects,
    denies_what_was_said,
    opens_with_a_correction,
    restated_value,
)

T0 = dt.datetime(2025, 6, 2, 18, 0, tzinfo=dt.UTC)

# (what was said, its correction minutes later, the corrected value)
CORRECTIONS = [
    ("Put us down for the 7:15 table at Dishoom.", "Actually make that 8:30, Priya's train is late.", "8:30"),
    ("Our plumber quoted £240 for the boiler service.", "Sorry, I misread the email, it's £320.", "£320"),
    ("我们家宽带是两百兆的。", "我记错了，是三百兆，去年升级过。", "三百兆"),
    ("搬家公司报价一千五。", "哦不对，是两千五，楼层费我没算进去。", "两千五"),
    # a plan changed: the value that replaces, of the kind said before (a day, a size). On ingest, the
    # electrician's valid_at is the Tuesday it names, after the correction: what counts is when it was said
    (
        "The electrician is booked for Tuesday at 10.",
        "Change of plan, he can only come on Wednesday now.",
        "Wednesday",
    ),
    ("我给女儿订的生日蛋糕是六寸的。", "还是八寸吧，我舅舅一家也要来。", "八寸"),
]


def _say(memory: Memory, user: str, text: str, when: dt.datetime, path: str):  # type: ignore[no-untyped-def]
    if path == "add":
        [result] = memory.add(text, user_id=user, valid_at=when)
        return result
    report = memory.ingest(
        [{"role": "user", "content": text, "timestamp": when.isoformat()}], user_id=user, session_id="s"
    )
    [result] = [r for r in report.results if r.memory.content == text]
    return result


@pytest.mark.parametrize("path", ["add", "ingest"])
def test_a_correction_ends_the_statement_said_just_before(memory: Memory, path: str) -> None:
    for n, (said, correction, value) in enumerate(CORRECTIONS):
        user = f"c{n}-{path}"
        first = _say(memory, user, said, T0, path)
        second = _say(memory, user, correction, T0 + dt.timedelta(minutes=10), path)
        assert second.operation is Operation.UPDATE and second.previous_id == first.memory.id, n
        assert "correction" in second.reason and value.casefold() in second.reason.casefold()
        ended = memory.get(first.memory.id, user_id=user)
        assert ended.invalid_at is not None and ended.expired_at is None  # kept in history
        if second.memory.memory_type is MemoryType.FACT:  # an episode's time may be one its words name (去年)
            assert ended.invalid_at == second.memory.valid_at
        assert [r.content for r in memory.get_all(user_id=user)] == [correction]
        [*_, last] = memory.history(first.memory.id, user_id=user)
        assert last.new_metadata is not None and last.new_metadata["why"] == "a correction"


def test_the_corrected_value_is_recalled_first_and_the_old_one_shown_as_earlier(memory: Memory) -> None:
    said, correction, _ = CORRECTIONS[0]
    memory.add(said, user_id="r", valid_at=T0)
    memory.add(correction, user_id="r", valid_at=T0 + dt.timedelta(minutes=3))
    hits = memory.search("What time is our table at Dishoom?", user_id="r").hits
    assert hits and hits[0].memory.content == correction
    block = memory.recall_prompt("What time is our table at Dishoom?", user_id="r").text
    assert correction in block
    assert all(line.lstrip("- ").startswith("earlier") for line in block.splitlines() if said in line)


@pytest.mark.parametrize(
    ("said", "then", "after"),
    [
        # said long before: another sitting, the correction may be of anything said since
        (CORRECTIONS[0][0], CORRECTIONS[0][1], CORRECTION_WINDOW + dt.timedelta(minutes=1)),
        # "actually" that opens no correction, and one that asks
        ("My sister lives in Leeds.", "Actually I love hiking too.", dt.timedelta(minutes=5)),
        ("The dentist is at 3pm.", "Wait, is it 3pm or 4pm?", dt.timedelta(minutes=5)),
        # a correction giving no value of the statement's kind and sharing none of its words
        ("We have 2 kids.", "Scrap that, let's talk about the holiday instead.", dt.timedelta(minutes=5)),
    ],
)
def test_nothing_else_is_taken_back(memory: Memory, said: str, then: str, after: dt.timedelta) -> None:
    first = _say(memory, "k", said, T0, "add")
    [result] = memory.add(then, user_id="k", valid_at=T0 + after)
    assert result.operation is Operation.ADD and result.previous_id is None
    assert memory.get(first.memory.id, user_id="k").invalid_at is None


def test_a_correction_gives_a_value_of_the_kind_said_or_shares_a_word_with_it() -> None:
    assert corrects("Actually make that 8:30.", "Put us down for the 7:15 table.")
    assert not opens_with_a_correction("Actually, can you recommend a good book?")
    assert corrects("我说错了，是周六晚上。", "我订的是周五晚上的火锅。")  # a day for a day
    assert corrects("Scrap that, I'm buying for Yusuf now.", "I'm buying for Gareth in the Secret Santa.")
    assert not corrects("Scrap that, let's talk about the holiday.", "We have 2 kids.")
    # nothing in common but what was said said again, with its new value
    assert corrects(
        "Scrap that — it's at Dom and Priya's, our living room's a mess.", "The Eurovision party's at ours."
    )
    assert corrects("Sorry, I got that muddled — it's the spaniel.", "Auntie Bev's bringing her Labrador.")
    assert corrects("改周四吧，周二那个网点在装修。", "我预约了下周二上午去银行办业务。")  # a day for a day
    assert not corrects("改天吧。", "我预约了下周二上午去银行办业务。")  # no value in its place
    assert not corrects("银行把我的账弄错了，多扣了两百。", "我这个月工资八千。")  # the bank's mistake
    # a typo owned, and a value said beside the one it is not, whatever it opens with
    assert corrects(
        "Sorry, typo — it's at the White Horse; the Black Horse is the one that shut.",
        "My sister-in-law Aoife's surprise party is at the Black Horse.",
    )
    assert corrects(
        "Oops — it's the little garage on Mill Street, not Halfords; Halfords was last year.",
        "Can you remind me the car's booked in for its service at Halfords on Tuesday?",
    )
    assert corrects("不是初六，是十八，二舅重新看了日子。", "上梁酒定在初六。")
    assert not corrects(
        "It's decaf, not that I mind.", "I drink coffee every morning."
    )  # denies nothing said
    assert not corrects("Is it the Red Lion, not the Crown?", "We're meeting at the Crown.")  # asks


def test_denies_what_was_said_needs_every_word_it_denies_in_the_older_statement() -> None:
    assert denies_what_was_said("It's Tuesday, not Wednesday.", "The meeting is on Wednesday.")
    assert denies_what_was_said("是十八号，不是初六。", "上梁定在初六。")
    assert not denies_what_was_said("It's Tuesday, not Wednesday.", "The meeting is on Friday.")
    assert not denies_what_was_said("I'm going, not sure when.", "I'm going to the gym.")
    # the denial first, then the value: "Sorry, not X — Y"
    assert denies_what_was_said(
        "Oops, not the Grand Hotel — the Grand Central, the one by the station.",
        "We're staying at the Grand Hotel.",
    )
    assert not denies_what_was_said("No, not really, I prefer tea.", "I drink coffee every morning.")
    assert not denies_what_was_said(
        "Not the Grand Hotel, we said.", "We're staying at the Grand Hotel."
    )  # no lead


@pytest.mark.parametrize(
    ("text", "opens"),
    [
        ("Actually it's £5.40, I read the old sign.", True),
        ("Actually 41, I forgot the three on Skye.", True),
        ("Hang on, it's Thursday not Tuesday.", True),
        ("Scrap that, we're going to Lisbon.", True),
        ("Correction: the party is on the 16th.", True),
        ("I misremembered, the code is 4471.", True),
        ("Sorry, I got that muddled, it's her daughter's spaniel.", True),
        ("I mixed them up, the blue one is Tom's.", True),
        ("Sorry, typo — it's the White Horse.", True),
        ("My bad, it's Thursday at four.", True),
        ("我打错了，是138开头的。", True),
        ("不对不对，是五楼大会议室。", True),
        ("我记错了，是下周三。", True),
        ("哎呀我看错了，是十二点半的车。", True),
        ("Change of plan — we fly on Sunday.", True),
        ("Plans have changed, the party is at Mo's.", True),
        ("还是十寸吧，人多。", True),
        ("计划有变，改成下周五。", True),
        ("改周四吧，周二那个网点在装修。", True),
        ("改天吧。", True),  # opens as one, but gives no value: corrects nothing said before (below)
        ("The change of plan upset everyone.", False),
        ("还是你说得对，那家店确实不错。", False),
        ("Actually, I have a question about my order.", False),
        ("Wait, is the pharmacy open today?", False),
        ("I got a new job actually.", False),
        ("他说得不对。", False),
        ("这道题我做错了。", False),
    ],
)
def test_a_correction_opens_by_taking_back_what_was_just_said(text: str, opens: bool) -> None:
    assert opens_with_a_correction(text) is opens


def test_a_correction_said_now_takes_back_what_was_said_a_moment_ago(memory: Memory) -> None:
    """Without ``valid_at`` both are said now: the correction still finds what it takes back."""
    [said] = memory.add("Put us down for the 7:15 table at Dishoom.", user_id="now")
    [correction] = memory.add("Actually make that 8:30, Priya's train is late.", user_id="now")
    assert correction.operation is Operation.UPDATE and correction.previous_id == said.memory.id
    assert memory.get(said.memory.id, user_id="now").invalid_at is not None


def test_restated_value_is_what_a_correction_says_again() -> None:
    """Without its opening, a correction that says the value again speaks of the older statement's thing; one that
    names another word for it keeps its words (``text.slot_frames.asked_apart`` reads what it opens on)."""
    assert restated_value("My bad, it's Friday at 9:15, wrong card.") == "it's Friday at 9:15, wrong card."
    assert restated_value("不对，是五楼。") == "是五楼。"
    assert restated_value("Sorry, I misread his quote, it's £85.") == "Sorry, I misread his quote, it's £85."
    assert restated_value("It's Friday at 9:15.") == "It's Friday at 9:15."
