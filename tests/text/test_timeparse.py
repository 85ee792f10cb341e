from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from neuromem.errors import InvalidInputError
from neuromem.text.timeparse import resolve_time_expressions, time_constraint, zh_number

CST = timezone(timedelta(hours=8))
# Wednesday 2024-03-13 15:00 +08:00
REF = datetime(2024, 3, 13, 15, 0, tzinfo=CST)


def _d(*args: int) -> datetime:
    return datetime(*args, tzinfo=CST)  # type: ignore[misc]


CASES = [
    # English — days
    ("I met her today", "today", _d(2024, 3, 13), _d(2024, 3, 14), "day"),
    ("yesterday was rough", "yesterday", _d(2024, 3, 12), _d(2024, 3, 13), "day"),
    ("see you tomorrow", "tomorrow", _d(2024, 3, 14), _d(2024, 3, 15), "day"),
    ("the day before yesterday", "the day before yesterday", _d(2024, 3, 11), _d(2024, 3, 12), "day"),
    ("day after tomorrow", "day after tomorrow", _d(2024, 3, 15), _d(2024, 3, 16), "day"),
    ("tonight we eat", "tonight", _d(2024, 3, 13, 18), _d(2024, 3, 14), "hour"),
    ("this morning I ran", "this morning", _d(2024, 3, 13, 6), _d(2024, 3, 13, 12), "hour"),
    ("this evening", "this evening", _d(2024, 3, 13, 18), _d(2024, 3, 14), "hour"),
    ("last night", "last night", _d(2024, 3, 12, 18), _d(2024, 3, 13), "hour"),
    ("yesterday afternoon", "yesterday afternoon", _d(2024, 3, 12, 12), _d(2024, 3, 12, 18), "hour"),
    ("tomorrow at 3pm", "tomorrow at 3pm", _d(2024, 3, 14, 15), _d(2024, 3, 14, 16), "hour"),
    ("today at 9:30 am", "today at 9:30 am", _d(2024, 3, 13, 9, 30), _d(2024, 3, 13, 9, 31), "minute"),
    # English — weeks, weekdays
    ("last week", "last week", _d(2024, 3, 4), _d(2024, 3, 11), "week"),
    ("this week", "this week", _d(2024, 3, 11), _d(2024, 3, 18), "week"),
    ("next week", "next week", _d(2024, 3, 18), _d(2024, 3, 25), "week"),
    ("last Monday", "last Monday", _d(2024, 3, 11), _d(2024, 3, 12), "day"),
    ("last Wednesday", "last Wednesday", _d(2024, 3, 6), _d(2024, 3, 7), "day"),
    ("next Monday", "next Monday", _d(2024, 3, 18), _d(2024, 3, 19), "day"),
    ("next Friday", "next Friday", _d(2024, 3, 15), _d(2024, 3, 16), "day"),
    ("on Friday", "on Friday", _d(2024, 3, 8), _d(2024, 3, 9), "day"),
    ("Wednesday", "Wednesday", _d(2024, 3, 13), _d(2024, 3, 14), "day"),
    ("this Monday", "this Monday", _d(2024, 3, 11), _d(2024, 3, 12), "day"),
    ("last weekend", "last weekend", _d(2024, 3, 9), _d(2024, 3, 11), "day"),
    ("this weekend", "this weekend", _d(2024, 3, 16), _d(2024, 3, 18), "day"),
    ("earlier this week", "earlier this week", _d(2024, 3, 11), _d(2024, 3, 13), "day"),
    # English — months, years
    ("last month", "last month", _d(2024, 2, 1), _d(2024, 3, 1), "month"),
    ("next month", "next month", _d(2024, 4, 1), _d(2024, 5, 1), "month"),
    ("last year", "last year", _d(2023, 1, 1), _d(2024, 1, 1), "year"),
    ("this year", "this year", _d(2024, 1, 1), _d(2025, 1, 1), "year"),
    # English — counts
    ("3 days ago", "3 days ago", _d(2024, 3, 10), _d(2024, 3, 11), "day"),
    ("two weeks ago", "two weeks ago", _d(2024, 2, 26), _d(2024, 3, 4), "week"),
    ("a month ago", "a month ago", _d(2024, 2, 1), _d(2024, 3, 1), "month"),
    ("5 years ago", "5 years ago", _d(2019, 1, 1), _d(2020, 1, 1), "year"),
    ("2 hours ago", "2 hours ago", _d(2024, 3, 13, 13), _d(2024, 3, 13, 14), "hour"),
    ("in 3 days", "in 3 days", _d(2024, 3, 16), _d(2024, 3, 17), "day"),
    ("a couple of days ago", "a couple of days ago", _d(2024, 3, 10), _d(2024, 3, 12), "day"),
    ("a few weeks ago", "a few weeks ago", _d(2024, 2, 5), _d(2024, 3, 4), "week"),
    ("in the last 3 days", "in the last 3 days", _d(2024, 3, 10), _d(2024, 3, 14), "day"),
    ("recently", "recently", _d(2024, 2, 12), _d(2024, 3, 14), "month"),
    # English — explicit dates
    ("on May 5, 2023", "May 5, 2023", _d(2023, 5, 5), _d(2023, 5, 6), "day"),
    ("May 5th 2023", "May 5th 2023", _d(2023, 5, 5), _d(2023, 5, 6), "day"),
    ("5 May 2023", "5 May 2023", _d(2023, 5, 5), _d(2023, 5, 6), "day"),
    ("the 5th of May, 2023", "the 5th of May, 2023", _d(2023, 5, 5), _d(2023, 5, 6), "day"),
    ("2023-05-05", "2023-05-05", _d(2023, 5, 5), _d(2023, 5, 6), "day"),
    (
        "at 2023-05-05T14:30:00",
        "2023-05-05T14:30:00",
        _d(2023, 5, 5, 14, 30),
        _d(2023, 5, 5, 14, 31),
        "minute",
    ),
    ("05/06/2023", "05/06/2023", _d(2023, 5, 6), _d(2023, 5, 7), "day"),
    ("March 20", "March 20", _d(2024, 3, 20), _d(2024, 3, 21), "day"),
    ("Dec 25", "Dec 25", _d(2023, 12, 25), _d(2023, 12, 26), "day"),
    ("May 2023", "May 2023", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
    ("in May", "May", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
    ("in March", "March", _d(2024, 3, 1), _d(2024, 4, 1), "month"),
    ("last May", "last May", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
    ("in 2021", "2021", _d(2021, 1, 1), _d(2022, 1, 1), "year"),
    # Chinese — days
    ("今天很冷", "今天", _d(2024, 3, 13), _d(2024, 3, 14), "day"),
    ("昨天", "昨天", _d(2024, 3, 12), _d(2024, 3, 13), "day"),
    ("前天", "前天", _d(2024, 3, 11), _d(2024, 3, 12), "day"),
    ("大前天", "大前天", _d(2024, 3, 10), _d(2024, 3, 11), "day"),
    ("明天", "明天", _d(2024, 3, 14), _d(2024, 3, 15), "day"),
    ("后天", "后天", _d(2024, 3, 15), _d(2024, 3, 16), "day"),
    ("今天下午", "今天下午", _d(2024, 3, 13, 12), _d(2024, 3, 13, 18), "hour"),
    ("昨天晚上", "昨天晚上", _d(2024, 3, 12, 18), _d(2024, 3, 13), "hour"),
    ("昨晚", "昨晚", _d(2024, 3, 12, 18), _d(2024, 3, 13), "hour"),
    ("明天上午十点", "明天上午十点", _d(2024, 3, 14, 10), _d(2024, 3, 14, 11), "hour"),
    ("我昨天下午三点半开会", "昨天下午三点半", _d(2024, 3, 12, 15, 30), _d(2024, 3, 12, 15, 31), "minute"),
    ("下午3点", "下午3点", _d(2024, 3, 13, 15), _d(2024, 3, 13, 16), "hour"),
    # Chinese — weeks
    ("上周三我去了北京", "上周三", _d(2024, 3, 6), _d(2024, 3, 7), "day"),
    ("上周一", "上周一", _d(2024, 3, 4), _d(2024, 3, 5), "day"),
    ("上星期五", "上星期五", _d(2024, 3, 8), _d(2024, 3, 9), "day"),
    ("上个星期天", "上个星期天", _d(2024, 3, 10), _d(2024, 3, 11), "day"),
    ("上礼拜二", "上礼拜二", _d(2024, 3, 5), _d(2024, 3, 6), "day"),
    ("上周", "上周", _d(2024, 3, 4), _d(2024, 3, 11), "week"),
    ("这周", "这周", _d(2024, 3, 11), _d(2024, 3, 18), "week"),
    ("本周五", "本周五", _d(2024, 3, 15), _d(2024, 3, 16), "day"),
    ("下周一", "下周一", _d(2024, 3, 18), _d(2024, 3, 19), "day"),
    ("下周日", "下周日", _d(2024, 3, 24), _d(2024, 3, 25), "day"),
    ("周五", "周五", _d(2024, 3, 8), _d(2024, 3, 9), "day"),
    ("周末", "周末", _d(2024, 3, 9), _d(2024, 3, 11), "day"),
    ("上周末", "上周末", _d(2024, 3, 9), _d(2024, 3, 11), "day"),
    ("这周末", "这周末", _d(2024, 3, 16), _d(2024, 3, 18), "day"),
    # Chinese — months, years
    ("上个月", "上个月", _d(2024, 2, 1), _d(2024, 3, 1), "month"),
    ("这个月", "这个月", _d(2024, 3, 1), _d(2024, 4, 1), "month"),
    ("下个月", "下个月", _d(2024, 4, 1), _d(2024, 5, 1), "month"),
    ("去年", "去年", _d(2023, 1, 1), _d(2024, 1, 1), "year"),
    ("今年", "今年", _d(2024, 1, 1), _d(2025, 1, 1), "year"),
    ("明年", "明年", _d(2025, 1, 1), _d(2026, 1, 1), "year"),
    ("前年", "前年", _d(2022, 1, 1), _d(2023, 1, 1), "year"),
    ("2023年", "2023年", _d(2023, 1, 1), _d(2024, 1, 1), "year"),
    ("2023年5月", "2023年5月", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
    ("2023年5月5日", "2023年5月5日", _d(2023, 5, 5), _d(2023, 5, 6), "day"),
    ("去年十二月", "去年十二月", _d(2023, 12, 1), _d(2024, 1, 1), "month"),
    ("5月5日", "5月5日", _d(2024, 5, 5), _d(2024, 5, 6), "day"),
    ("12月25号", "12月25号", _d(2023, 12, 25), _d(2023, 12, 26), "day"),
    ("五月", "五月", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
    ("5号", "5号", _d(2024, 3, 5), _d(2024, 3, 6), "day"),
    # Chinese — counts and vague
    ("三天前", "三天前", _d(2024, 3, 10), _d(2024, 3, 11), "day"),
    ("3天前", "3天前", _d(2024, 3, 10), _d(2024, 3, 11), "day"),
    ("两周前", "两周前", _d(2024, 2, 26), _d(2024, 3, 4), "week"),
    ("两个月前", "两个月前", _d(2024, 1, 1), _d(2024, 2, 1), "month"),
    ("十年前", "十年前", _d(2014, 1, 1), _d(2015, 1, 1), "year"),
    ("三天后", "三天后", _d(2024, 3, 16), _d(2024, 3, 17), "day"),
    ("过去三天", "过去三天", _d(2024, 3, 10), _d(2024, 3, 14), "day"),
    ("最近", "最近", _d(2024, 2, 12), _d(2024, 3, 14), "month"),
    ("前几天", "前几天", _d(2024, 3, 6), _d(2024, 3, 12), "day"),
    ("２０２３年５月", "２０２３年５月", _d(2023, 5, 1), _d(2023, 6, 1), "month"),
]


@pytest.mark.parametrize(("text", "expr", "start", "end", "granularity"), CASES, ids=[c[0] for c in CASES])
def test_resolves(text: str, expr: str, start: datetime, end: datetime, granularity: str) -> None:
    found = resolve_time_expressions(text, REF)
    assert len(found) == 1, found
    got = found[0]
    assert got.text == expr
    assert text[got.span[0] : got.span[1]] == expr
    assert (got.start, got.end, got.granularity) == (start, end, granularity)


@pytest.mark.parametrize(
    "text",
    [
        "I may go",
        "we march on",
        "it costs 2023 dollars",
        "一周一次",
        "坐3号线",
        "version 1.2.3",
        "the sun is out",
        "good morning",
        "我三年级了",
        "",
    ],
)
def test_no_false_positives(text: str) -> None:
    assert resolve_time_expressions(text, REF) == []


def test_multiple_expressions_in_order() -> None:
    found = resolve_time_expressions("昨天和 last Friday 还有 2023年5月", REF)
    assert [e.text for e in found] == ["昨天", "last Friday", "2023年5月"]


def test_results_in_reference_timezone_and_never_now() -> None:
    tz = ZoneInfo("America/New_York")
    ref = datetime(2020, 1, 1, 23, 30, tzinfo=tz)
    (found,) = resolve_time_expressions("yesterday", ref)
    assert found.start == datetime(2019, 12, 31, tzinfo=tz)
    assert found.start.tzinfo is tz


def test_monday_last_monday_is_a_week_back() -> None:
    monday = datetime(2024, 3, 11, 9, tzinfo=CST)
    (found,) = resolve_time_expressions("last Monday", monday)
    assert found.start == _d(2024, 3, 4)
    (bare,) = resolve_time_expressions("Monday", monday)
    assert bare.start == _d(2024, 3, 11)


def test_month_end_clamping() -> None:
    ref = datetime(2024, 3, 31, 12, tzinfo=CST)
    (found,) = resolve_time_expressions("1个月前", ref)
    assert (found.start, found.end) == (_d(2024, 2, 1), _d(2024, 3, 1))


def test_naive_reference_rejected() -> None:
    with pytest.raises(InvalidInputError):
        resolve_time_expressions("today", datetime(2024, 1, 1))


@pytest.mark.parametrize(
    ("query", "start", "end", "open_start", "open_end"),
    [
        ("what did I do before May 2023", None, _d(2023, 5, 1), True, False),
        ("2023年5月之前的事", None, _d(2023, 5, 1), True, False),
        ("after 2021", _d(2022, 1, 1), None, False, True),
        ("上周以后", _d(2024, 3, 11), None, False, True),
        ("since last week", _d(2024, 3, 4), None, False, True),
        ("去年以来", _d(2023, 1, 1), None, False, True),
        ("between May 1, 2023 and June 3, 2023", _d(2023, 5, 1), _d(2023, 6, 4), False, False),
        ("从去年3月到今年1月", _d(2023, 3, 1), _d(2024, 2, 1), False, False),
        ("what did I eat yesterday", _d(2024, 3, 12), _d(2024, 3, 13), False, False),
    ],
)
def test_time_constraint(
    query: str, start: datetime | None, end: datetime | None, open_start: bool, open_end: bool
) -> None:
    found = time_constraint(query, REF)
    assert found is not None
    assert found.open_start is open_start
    assert found.open_end is open_end
    if start is not None:
        assert found.start == start
    if end is not None:
        assert found.end == end
    assert found.start.tzinfo == CST and found.end.tzinfo == CST
    assert found.start < found.end


def test_time_constraint_none() -> None:
    assert time_constraint("what is my favourite food", REF) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("三", 3),
        ("十", 10),
        ("十五", 15),
        ("二十", 20),
        ("二十三", 23),
        ("两", 2),
        ("12", 12),
        ("十十", None),
    ],
)
def test_zh_number(text: str, value: int | None) -> None:
    assert zh_number(text) == value


@given(
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(CST)),
    st.sampled_from(
        ["yesterday", "last week", "上周三", "三个月前", "next Monday", "去年", "recently", "周末", "in May"]
    ),
)
def test_intervals_are_well_formed(reference: datetime, text: str) -> None:
    (found,) = resolve_time_expressions(text, reference)
    assert found.start < found.end
    assert found.start.tzinfo is reference.tzinfo
