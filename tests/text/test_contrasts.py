"""Two things of one kind told apart by a pair of contrasting words (``text.contrasts``): a question that names
one of the pair asks about the statement that says it."""

from __future__ import annotations

import pytest

from neuromem.text.contrasts import contrasted


@pytest.mark.parametrize(
    ("query", "old", "new", "apart"),
    [
        (
            "What's wrong with the downstairs loo?",
            "The tap in the downstairs loo drips.",
            "The upstairs shower leaks.",
            True,
        ),
        ("我大女儿在学校当什么？", "我大女儿在学校当升旗手。", "我小女儿在幼儿园当小值日生。", True),
        ("我们镇上逢几赶集？", "我们镇上的集是逢三逢八。", "隔壁镇的集是逢五逢十。", True),
        ("我们家狗叫什么？", "我们家狗狗叫旺财。", "隔壁家的狗叫来福。", True),
        ("我左眼近视多少度？", "我左眼近视三百度。", "我右眼近视四百五。", True),
        # the query names neither word: it says nothing of which is meant
        ("Which seats do we have?", "We're in the front row.", "We're in the back row now.", False),
        # a change told: the thing asked may have its new value
        (
            "Are we still in the front row?",
            "We're in the front row.",
            "They moved us to the back row.",
            False,
        ),
        # 大概 / 小时: no noun after both words
        ("我大概几点下班？", "我大概六点下班。", "最近小时工都七点走。", False),
        # the newer one says the query's word too
        (
            "What's wrong with the downstairs loo?",
            "The downstairs loo drips.",
            "The upstairs and downstairs loos both leak.",
            False,
        ),
    ],
)
def test_a_query_that_names_one_of_two_contrasting_words_asks_about_the_statement_that_says_it(
    query: str, old: str, new: str, apart: bool
) -> None:
    assert contrasted(query, new, old) is apart
