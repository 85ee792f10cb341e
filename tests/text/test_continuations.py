"""``text.continuations``: a statement that leans on what its speaker said just before."""

from __future__ import annotations

import pytest

from neuromem.text.continuations import answers_back, leans_on_what_was_said


@pytest.mark.parametrize(
    ("text", "leans"),
    [
        ("Yes, it was approved yesterday.", True),
        ("They postponed it to 22 January, the registrar is off sick.", True),
        ("She's awake and trundling about on the lawn.", True),
        ("Finally switched to electric, a Braun Series 7.", True),
        ("Smashed it already, so I've set a new target of £800.", True),
        ("做完了，昨天出院，医生说恢复得不错。", True),
        ("是的，已经批下来了。", True),
        ("他上周搬去深圳了。", True),
        ("Not any more, I quit after the row about the parking permits.", True),  # an answer: "still on it?"
        ("Not anymore.", True),
        # a pronoun for the owner of what it speaks of, said before
        ("Her visa fell through, so she's gone to Colombia instead.", True),
        ("Their flat is in Leith now.", True),
        ("Heron Foods opened on the high street.", False),  # a name, not "her"
        ("Nothing much happened at work today.", False),
        # a value and "now", elliptical: the thing it is the value of was said before
        ("Cheltenham now — they sold the house in Bath last month.", True),
        ("Fridays now, since the rota changed.", True),
        # a correction takes back what was just said
        ("My bad, it's the 14th, I was looking at the wrong month.", True),
        ("不对，是五楼。", True),
        # a statement that names what it speaks of stands on its own
        ("I'm happy now, thanks for asking.", False),  # a subject before "now"
        ("Now, about the trip to Rome.", False),
        ("I got it deferred to 9 September.", False),
        ("The airline rebooked me onto May 6.", False),
        ("Unrelated note about groceries and the bus timetable.", False),  # an adjective, not a verb
        ("Ted is my brother.", False),  # a name ending in -ed
        ("Changed my Amazon login email to margaret.hale@outlook.com.", False),  # names its own thing
        ("我爸的手术做完了。", False),
    ],
)
def test_a_statement_leans_on_what_was_said_by_its_opening(text: str, leans: bool) -> None:
    assert leans_on_what_was_said(text) is leans


def test_answers_back_reads_the_answer_words() -> None:
    assert answers_back("Yes, it's 7702 now.")
    assert answers_back("Nope, still waiting.")
    assert answers_back("是的，已经批下来了。")
    assert not answers_back("They postponed it to 22 January.")
    assert not answers_back("Nobody told me.")
