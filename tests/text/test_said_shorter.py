"""A later statement that names the slot more briefly, a replacement told without a word of change, and someone
acting on the speaker (issue 21 item 2, ``text.slots.said_shorter``, ``text.slot_frames``).

The examples are written for these tests (not taken from ``tests/data/update_pairs*.jsonl``). Each pair that is
one slot was read as two before session 19; each pair of two things must stay two. These rules order what recall
found; none of them ends a fact at write time (``value_change`` decides as before)."""

from __future__ import annotations

import pytest

from neuromem.recall.truth import says_a_change, slots_apart, tells_a_change
from neuromem.text.slot_frames import (
    ends_what_it_repeats,
    names_another_thing,
    one_thing,
    replacement_evidence,
)
from neuromem.text.slots import claim_of, said_shorter
from neuromem.text.value_changes import value_change

SHORTER = [  # (old, new): the newer one names the older one's slot with some of its words left out
    ("My bike lock code is 4471.", "The code is 9012 now."),
    ("Our sprint review deadline is Friday.", "The deadline moved to Monday."),
    ("The coach of our chess club is Mr. Varga.", "Our coach is now Ms. Lind."),
    ("My library card number is 55012.", "The card number changed to 77120."),
    ("我的借书证号是8812。", "证号改成了9920。"),
    ("我们小区的物业经理是老陈。", "物业经理换成了小吴。"),
]

NOT_SHORTER = [  # (old, new): the newer one adds a modifier, or leaves out a person: another thing
    ("My phone number is 0176 1111.", "My office phone number is 0176 2222."),
    ("My sister's phone number is 0151 9999.", "My phone number is 0176 1234."),
    ("My laptop password is Kestrel-5.", "My router password is Falcon-8."),
    ("我的血型是A型。", "我女儿的血型是O型。"),
]


@pytest.mark.parametrize(("old", "new"), SHORTER)
def test_a_newer_statement_may_name_the_slot_more_briefly(old: str, new: str) -> None:
    a, b = claim_of(new), claim_of(old)
    assert a is not None and b is not None, (a, b)
    assert said_shorter(a, b, old)
    assert not slots_apart(new, old)


@pytest.mark.parametrize(("old", "new"), NOT_SHORTER)
def test_a_modifier_added_or_a_person_left_out_names_another_slot(old: str, new: str) -> None:
    a, b = claim_of(new), claim_of(old)
    assert a is not None and b is not None, (a, b)
    assert not said_shorter(a, b, old)
    assert slots_apart(new, old)


def test_the_shorter_name_is_never_read_the_other_way() -> None:
    """The older one said briefly, the newer one with a modifier: two things ("my phone" / "my office phone")."""
    old, new = claim_of("My card number is 1234."), claim_of("My library card number is 5678.")
    assert old is not None and new is not None
    assert not said_shorter(new, old, "My card number is 1234.")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My asthma inhaler is Ventolin.", "The nurse took me off it and put me on Symbicort."),
        ("I have an old Dell laptop.", "I threw it out and got a ThinkPad."),
        ("我在杭州分部上班。", "三月份我调去了深圳总部。"),
        ("我的花呗额度是五千。", "支付宝给我提额到八千了。"),
    ],
)
def test_a_replacement_told_without_a_word_of_change_is_a_change_for_ranking(old: str, new: str) -> None:
    assert replacement_evidence(new) is not None
    assert tells_a_change(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("孩子9月1日开学。", "孩子转学去了育才小学。"),  # the child's school, not the start of term
        ("我周一去深圳出差。", "三月份我调去了深圳总部。"),  # a posting, not a trip
        ("I put the kids to bed at 8.", "The nurse took me off it and put me on Symbicort."),
    ],
)
def test_replacement_words_end_nothing_at_write_time(old: str, new: str) -> None:
    """Replacement words are read only to order what recall found: as evidence at write time they join too much."""
    assert value_change(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I take metformin for my blood sugar.", "My doctor switched me to insulin."),
        ("我在吃降压药缬沙坦。", "医生让我停了那个药，改吃氨氯地平。"),
        ("我的信用卡额度是一万。", "银行给我提额到两万了。"),
    ],
)
def test_someone_acting_on_the_speaker_names_no_other_thing(old: str, new: str) -> None:
    assert not names_another_thing(new, old)


def test_a_person_both_statements_name_is_whom_they_are_about_not_a_value_of_many() -> None:
    """孩子 holds many values as a relation ("my children"), but here it is whose kindergarten it is."""
    assert one_thing("孩子转学去了育才幼儿园。", "我家孩子在蓝天幼儿园。")
    assert not one_thing("我还有一个孩子叫小宇。", "我有一个孩子叫小乐。")  # another child: many values


@pytest.mark.parametrize(
    "new",
    [
        "New goal: a full marathon under four hours.",
        "Since switching teams I start at 8.",
        "Lately I'm sleeping seven hours a night.",
        "I withdrew from the MBA program and I'm doing a coding bootcamp.",
        "网球不打了，改练羽毛球。",
        "我们把装修预算压到了五十万。",
    ],
)
def test_more_ways_of_telling_a_replacement(new: str) -> None:
    assert replacement_evidence(new) is not None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My cousin Ana is a student.", "Ana graduated and now works as an architect."),
        ("我哥哥住在西安。", "我哥哥因为工作调动搬去了郑州。"),
        ("My uncle's car is a Ford.", "Uncle Ben got a new car, a Volvo."),
    ],
)
def test_a_person_named_by_a_word_in_one_and_a_name_in_the_other_is_whom_both_are_about(
    old: str, new: str
) -> None:
    """ "cousin", 哥哥 may hold many values as relations; here they say whose the statement is."""
    assert one_thing(new, old)


def test_a_word_for_a_person_followed_by_another_name_is_another_person() -> None:
    assert not one_thing("Uncle Ben got a new car, a Volvo.", "My uncle Tom's car is a Ford.")


@pytest.mark.parametrize(
    ("old", "new", "apart"),
    [
        (
            "My home address is 7 Mill Lane.",
            "I moved to 22 Harbour Road.",
            False,
        ),  # a verb says where: one slot
        ("My pharmacy is the one on King Street.", "I switched to the chemist by the station.", False),
        ("I work at Siemens.", "I now live in Erlangen.", True),  # two relations the verbs name: two slots
        ("My sister's address is 7 Mill Lane.", "I moved to 22 Harbour Road.", True),  # another owner
    ],
)
def test_a_relation_a_verb_implies_is_not_apart_from_an_attribute_of_the_same_owner(
    old: str, new: str, apart: bool
) -> None:
    assert slots_apart(new, old) is apart


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My son's school is Hillview Primary.", "We moved him to Greenfield Academy in March."),  # a pronoun
        ("我女儿在阳光小学上学。", "我们把她转到了实验小学。"),
        (
            "My grandmother lives in Leeds.",
            "Grandma moved into a care home in York.",
        ),  # one person, two words
        (
            "My flat is on Elm Street in Leeds.",
            "We moved to another flat in Leeds, on Park Road.",
        ),  # replaced
        ("我不吃肉。", "我现在又开始吃肉了。"),
    ],
)
def test_one_person_or_a_replacement_said_another_way_is_one_thing(old: str, new: str) -> None:
    assert one_thing(new, old)


def test_one_more_value_is_still_an_addition() -> None:
    assert not one_thing("I got another cat, Pixel.", "I have a cat named Miso.")
    assert not one_thing("我又养了一只猫。", "我养了一只猫。")


def test_a_replacement_word_of_recall_ends_nothing_at_write_time() -> None:
    assert value_change("我现在不吃素了，又开始吃鱼和鸡肉。", "从下周开始我改上下午三点的班。") is None


@pytest.mark.parametrize(
    ("old", "new", "ends"),
    [
        ("I'm preparing for the GMAT.", "I withdrew from the GMAT, I'm taking the GRE instead.", True),
        ("Our dog is called Pepper.", "We renamed the dog Rusty, Pepper didn't suit him.", True),
        ("我在Shopee上班。", "我不在Shopee了，现在在Lazada上班。", True),
        (
            "I take 20 mg of Lipitor.",
            "I take 20 mg of Lipitor every night now.",
            False,
        ),  # said again: a restatement
    ],
)
def test_an_old_value_named_to_say_it_is_over_is_a_change(old: str, new: str, ends: bool) -> None:
    assert ends_what_it_repeats(new, old) is ends
    assert says_a_change(new, old) is ends
