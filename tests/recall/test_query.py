"""Query analysis that needs no database: the user's own lines of a conversation-shaped query."""

from __future__ import annotations

import pytest

from neuromem.recall.query import user_lines


def test_user_lines_leave_out_the_assistant_and_keep_continuations() -> None:
    query = "Bart: 嘿，我要表演魔术！\nAssistant: 真是太棒了！\nBart: 我有点紧张\n  还想换件衣服\n助手：深呼吸就好"
    assert user_lines(query) == "Bart: 嘿，我要表演魔术！\nBart: 我有点紧张\n还想换件衣服"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "AI assistant: hello\nMary Ann Lee: my cat is ill",
            "Mary Ann Lee: my cat is ill",
        ),  # label's last word
        ("USER: a\nBOT: b\nUSER: c", "USER: a\nUSER: c"),  # labels are case-insensitive
        ("system: be kind\nuser: my cat is ill", "user: my cat is ill"),
    ],
)
def test_user_lines_recognise_assistant_labels(query: str, expected: str) -> None:
    assert user_lines(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "how many tanks do I have?",  # not a conversation
        "Bart: hello",  # one labelled line is not a conversation either
        "A: hi\nB: hello",  # no assistant line: the view would be the query itself
        "Assistant: hi\nAssistant: anything else?",  # nothing of the user's
        "see https://example.com/a\nAssistant: done",  # "https" is no speaker label: one labelled line
    ],
)
def test_user_lines_is_none_when_there_is_no_separate_user_view(query: str) -> None:
    assert user_lines(query) is None
