"""General means of finding a value change (issue 21 item 1): relation classes, states, appointments,
Chinese 把 / time / lead shapes, a short answer framed by the assistant's question.

The examples are written for these tests (not taken from ``tests/data/update_pairs.jsonl``)."""

from __future__ import annotations

import pytest

from neuromem.text.slots import answer_frame, canonical_attribute, claim_of
from neuromem.text.value_changes import value_change


def _single(new: str, old: str) -> bool:
    change = value_change(new, old)
    return change is not None and change.arity == "single"


@pytest.mark.parametrize(
    ("attribute", "zh", "canonical"),
    [
        ("boss", False, "manager"),
        ("line manager", False, "manager"),
        ("mobile number", False, "phone"),
        ("annual salary", False, "salary"),
        ("gitlab account", False, "gitlab handle"),
        ("apartment number", False, "apartment number"),  # a bare "number" head is no phone
        ("年薪", True, "工资"),
        ("直属领导", True, "经理"),
        ("车牌号", True, "车牌号"),
    ],
)
def test_relation_classes_name_one_attribute(attribute: str, zh: bool, canonical: str) -> None:
    assert canonical_attribute(attribute, zh=zh) == canonical


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # synonyms of one relation, in templates and relation verbs
        ("My boss is Ingrid Holm.", "Since the merger I report to Tomas Berg."),
        ("My yearly salary is 71,000.", "After the promotion I earn 80,000 a year."),
        ("My cell number is 0172 444 1010.", "New mobile number: 0160 777 2323."),
        ("My Steam handle is quietfox.", "I renamed my Steam account to loudfox."),
        # a state that holds one value: no word in common
        ("I'm married.", "I got divorced in spring."),
        ("I work from home.", "We're back in the office four days a week."),
        # an appointment names the slot and its new holder
        ("The captain of the rowing team is Felix.", "The rowing team elected Greta captain."),
        # a subject-less report, and "<verb> the X to Y" as a change
        ("I work at Zeiss.", "Started my new job at Leica on Monday!"),
        ("Our kickoff is planned for March 3.", "We moved the kickoff back to April 9."),
        # Chinese: 把-construction, a time between subject and verb, an appointment, a lead word
        ("我保险柜的密码是5521。", "我把保险柜密码改成了9034。"),
        ("小周是副经理。", "小周三月份晋升为经理了。"),
        ("摄影社的社长是阿芳。", "摄影社选了小林当社长。"),
        ("我最喜欢的演员是梁朝伟。", "说实话，我现在最喜欢的演员是周迅。"),
        ("我的邮箱是mei@126.com。", "以后请用我的新邮箱mei.work@outlook.com。"),
        # a later clause states the value; a clause without a subject is the speaker's
        ("我们村的村长是李大爷。", "李大爷退下来了，现在的村长是张叔。"),
        ("我住在合肥。", "又搬家了，现在住在芜湖。"),
    ],
)
def test_general_shapes_find_the_update(old: str, new: str) -> None:
    assert _single(new, old), (old, new, value_change(new, old))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My boss is Ingrid Holm.", "My boss is Ingrid Holm, as before."),
        ("My apartment number is 12C.", "My phone number is 0151 000 111."),  # another slot
        ("I'm married.", "I'm married, for ten years now."),
        ("The captain of the rowing team is Felix.", "The chess club elected Greta president."),
        ("我保险柜的密码是5521。", "我把邮箱密码改成了9034。"),  # another thing's password
        ("I'm allergic to cats.", "Turns out I'm also allergic to dogs."),
    ],
)
def test_no_update_between_distinct_facts_or_the_same_value(old: str, new: str) -> None:
    assert not _single(new, old), (old, new, value_change(new, old))


@pytest.mark.parametrize(
    ("question", "frame"),
    [
        ("What's your new work email?", "my new work email is "),
        ("So who is your dentist now?", "my dentist is "),
        ("Where do you live these days?", "I live in "),
        ("你的新车牌号是多少？", "我的车牌号是"),
        ("那你现在住哪儿？", "我住在"),
        ("How was the trip?", None),
        ("你今天开心吗？", None),
    ],
)
def test_an_assistant_question_gives_the_frame_of_a_short_answer(question: str, frame: str | None) -> None:
    assert answer_frame(question) == frame
    if frame is not None:
        claim = claim_of(frame + ("Elm Road 4" if frame.isascii() else "杭州"))
        assert claim is not None and claim.value
