"""``text.whose``: whom a statement or a question is about."""

from __future__ import annotations

import pytest

from neuromem.text.whose import SPEAKER, about_another, about_the_asked, opens_on_someone, whose


@pytest.mark.parametrize(
    ("text", "people"),
    [
        ("Where did I park?", {SPEAKER}),
        ("I parked on level 3, bay 58.", {SPEAKER}),
        ("When does my flight to Madrid land?", {SPEAKER}),  # the speaker's thing, no person
        ("My mum's parked round the back on level 1.", {"mother"}),
        ("My boss moved me to the Leeds office.", {"boss", SPEAKER}),  # a person acts on the speaker
        ("She's moved to Leeds.", set()),  # whose "she" is, the words alone do not say
        ("When does the big Tesco close?", set()),  # impersonal
        ("我老婆用什么记账App？", {"老婆"}),
        ("我用的记账App是鲨鱼记账。", {SPEAKER}),
        ("我表姐夫在青岛港开吊车。", {"姐夫"}),  # 姐夫 is not 姐
        ("今晚我老公去机场接我婆婆。", {"老公", "婆婆"}),
    ],
)
def test_whose_reads_the_people_and_the_speaker(text: str, people: set[str]) -> None:
    assert whose(text) == frozenset(people)


@pytest.mark.parametrize(
    ("text", "query", "another"),
    [
        ("My mum's parked round the back on level 1.", "Where did I park?", True),
        ("My daughter's into snow globes — she's got about forty.", "What's my collection?", True),
        ("我表弟报了今年的公务员考试。", "我最近在备考什么？", True),
        ("我用的记账App是鲨鱼记账。", "我老婆用什么记账App？", True),  # the speaker's, asked of the wife
        ("我表姐在青岛一家医院当护士。", "我表姐夫做什么工作？", True),
        # a person named in passing: the statement opens on the speaker's booking
        (
            "Actually, make it three — my sister's decided to come along.",
            "How many places am I down for?",
            False,
        ),
        ("I parked on level 3, bay 58.", "Where did I park?", False),
        ("My boss moved me to the Leeds office.", "Where do I work?", False),  # about the speaker too
        ("She's moved to Leeds.", "Where do I live?", False),  # cannot tell
        ("The Tesco Express closes at 11.", "When does the big Tesco close?", False),  # asks of no one
    ],
)
def test_about_another_needs_other_people_and_an_opening_on_them(
    text: str, query: str, another: bool
) -> None:
    assert about_another(text, query) is another


def test_about_the_asked_and_the_opening() -> None:
    assert about_the_asked("我老婆用的是随手记。", "我老婆用什么记账App？")
    assert not about_the_asked("我用的记账App是鲨鱼记账。", "我老婆用什么记账App？")
    assert opens_on_someone("Gran's hairdresser is Sheila.")
    assert opens_on_someone("今晚我表弟去接机。")
    assert not opens_on_someone("The new couple at number 9 dropped theirs round.")
