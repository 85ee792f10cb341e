"""Resolve time expressions (Chinese and English) to absolute intervals.

Seed 003 R2G-4: "相对时间需解析到绝对时间并记录原表达" — relative time must be
resolved to absolute time, keeping the original expression. Everything here is
resolved against an explicit ``reference`` (the turn's timestamp), never
``datetime.now()`` (STYLE.md habit 10). The reference must be timezone-aware;
results are in the reference's timezone, as half-open intervals ``[start, end)``.

Readings chosen where language is ambiguous (all tested):

- Weeks start on Monday. "this week"/这周 is the week containing the reference.
- A bare weekday ("Monday", "on Monday", 周一, 星期一) is the most recent such
  day not after the reference (today if today is that day): memories mostly
  talk about the past.
- "last Monday" is the most recent Monday strictly before today (reference Wed
  2024-03-13 → Mon 03-11); 上周一 is always the Monday of the previous week
  (→ 03-04). "next Monday" is the first Monday strictly after today (→ 03-18);
  下周一 is the Monday of the next week (→ 03-18). "this Monday"/这周一/本周一 is
  the Monday of the current week.
- Bare weekend ("the weekend", 周末) is the most recent weekend that has started
  by the reference; "last weekend"/上周末 is the previous week's Sat–Sun.
- A month without a year ("in May", 5月) is the most recent such month not
  after the reference's month; a month and day without a year ("May 5", 5月5日)
  is the occurrence nearest to the reference (ties to the past), because dates
  are also used for plans. A bare day ("5号") is in the reference's month.
- "05/06/2023" is US month/day/year.
- Vague expressions get a wide window: "recently"/"lately"/最近/近来/近期 = the
  last 30 days up to the end of today (granularity "month"); "a couple of" =
  2–3, "a few"/"几" = 2–5, "several" = 3–7 units; "the other day"/前几天 = 2–7
  days ago. The window covers the whole span, at the unit's granularity.
- "the last/past N days", 过去N天, 最近N天 = from the start of the day N days ago to
  the end of today (N weeks/months/years likewise, aligned to the unit).
- Parts of the day: morning/上午/早上 06–12, 中午 11–14, afternoon/下午 12–18,
  傍晚 17–19, evening/night/晚上 18–24, 凌晨 00–06 (granularity "hour").
- Open intervals (from :func:`time_constraint`) use :data:`OPEN_START` and
  :data:`OPEN_END` moved into the reference's timezone (year 1 / year 9999);
  test with :attr:`TimeExpression.open_start` / :attr:`TimeExpression.open_end`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from neuromem.errors import InvalidInputError
from neuromem.text._calendar import (
    Granularity,
    Interval,
    at_midnight,
    day_interval,
    hours_of_day,
    monday_of,
    month_interval,
    most_recent_month,
    nearest_date,
    shift,
    unit_interval,
    week_interval,
    year_interval,
)
from neuromem.text._scripts import fold_width
from neuromem.text._timewords import (
    _EN_NUM,
    _EN_UNIT,
    _EN_UNITS,
    _MONTH,
    _MONTHS,
    _PARTS,
    _PM_PARTS,
    _WEEKDAY,
    _WEEKDAYS,
    _ZH_NUM,
    _ZH_REL_DAYS,
    _ZH_REL_YEARS,
    _ZH_UNITS,
    _ZH_WEEKDAYS,
    _count,
    zh_number,
)

__all__ = ["OPEN_END", "OPEN_START", "TimeExpression", "resolve_time_expressions", "time_constraint"]

#: Naive bounds of an open interval; results carry them in the reference's timezone.
OPEN_START = datetime(1, 1, 2)
OPEN_END = datetime(9999, 12, 30)


@dataclass(frozen=True, slots=True)
class TimeExpression:
    """A time expression found in text, resolved to ``[start, end)``."""

    text: str
    start: datetime
    end: datetime
    granularity: Granularity
    span: tuple[int, int]

    @property
    def open_start(self) -> bool:
        """True when the interval has no lower bound ("before X")."""
        return self.start.replace(tzinfo=None) <= OPEN_START

    @property
    def open_end(self) -> bool:
        """True when the interval has no upper bound ("after X", "since X")."""
        return self.end.replace(tzinfo=None) >= OPEN_END


# ---------------------------------------------------------------- rules


@dataclass(frozen=True, slots=True)
class _Hit:
    span: tuple[int, int]
    interval: Interval


_Handler = Callable[[re.Match[str], datetime], "Interval | tuple[tuple[int, int], Interval] | None"]
_RULES: list[tuple[re.Pattern[str], _Handler]] = []


def _rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[_Handler], _Handler]:
    def register(handler: _Handler) -> _Handler:
        _RULES.append((re.compile(pattern, flags), handler))
        return handler

    return register


def _today(ref: datetime) -> date:
    return ref.date()


def _relative_units(ref: datetime, unit: str, low: int, high: int, sign: int) -> Interval:
    """The unit ``low``..``high`` units before (sign -1) or after (+1) the reference."""
    first = unit_interval(shift(ref, unit, sign * (high if sign < 0 else low)), unit)
    last = unit_interval(shift(ref, unit, sign * (low if sign < 0 else high)), unit)
    return first[0], last[1], first[2]


def _window(ref: datetime, unit: str, n: int) -> Interval:
    """From the start of the unit ``n`` units ago to the end of today (or to ``ref`` for sub-day units)."""
    if unit in ("minute", "hour"):
        return shift(ref, unit, -n), ref, unit  # type: ignore[return-value]
    start = unit_interval(shift(ref, unit, -n), unit)[0]
    if unit == "day":
        start = at_midnight(ref.date() - timedelta(days=n), ref.tzinfo)
    return start, day_interval(ref.date(), ref.tzinfo)[1], unit  # type: ignore[return-value]


def _recent(ref: datetime) -> Interval:
    return _window(ref, "day", 30)[0], day_interval(ref.date(), ref.tzinfo)[1], "month"


def _weekday_in_week(ref: datetime, week_offset: int, weekday: int) -> Interval:
    d = monday_of(ref.date()) + timedelta(weeks=week_offset, days=weekday)
    return day_interval(d, ref.tzinfo)


def _weekend(ref: datetime, week_offset: int) -> Interval:
    saturday = monday_of(ref.date()) + timedelta(weeks=week_offset, days=5)
    return at_midnight(saturday, ref.tzinfo), at_midnight(saturday + timedelta(days=2), ref.tzinfo), "day"


def _date(year: int, month: int, day: int, tz: tzinfo | None) -> Interval | None:
    try:
        return day_interval(date(year, month, day), tz)
    except ValueError:
        return None


def _month(year: int, month: int, tz: tzinfo | None) -> Interval | None:
    if not (1 <= month <= 12 and 1 <= year <= 9998):
        return None
    return month_interval(year, month, tz)


# -- English ---------------------------------------------------------------


@_rule(r"\b(?:the\s+)?day\s+before\s+yesterday\b")
def _en_before_yesterday(m: re.Match[str], ref: datetime) -> Interval:
    return day_interval(_today(ref) - timedelta(days=2), ref.tzinfo)


@_rule(r"\b(?:the\s+)?day\s+after\s+tomorrow\b")
def _en_after_tomorrow(m: re.Match[str], ref: datetime) -> Interval:
    return day_interval(_today(ref) + timedelta(days=2), ref.tzinfo)


@_rule(r"\b(?P<day>today|yesterday|tomorrow)\b")
def _en_day(m: re.Match[str], ref: datetime) -> Interval:
    offset = {"today": 0, "yesterday": -1, "tomorrow": 1}[m["day"].lower()]
    return day_interval(_today(ref) + timedelta(days=offset), ref.tzinfo)


@_rule(
    r"\b(?:(?P<day>today|yesterday|tomorrow|this)\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night)"
    r"|(?P<tonight>tonight)|(?P<lastnight>last\s+night))\b"
)
def _en_part_of_day(m: re.Match[str], ref: datetime) -> Interval:
    if m["tonight"]:
        return hours_of_day(_today(ref), ref.tzinfo, 18, 24)
    if m["lastnight"]:
        return hours_of_day(_today(ref) - timedelta(days=1), ref.tzinfo, 18, 24)
    offset = {"today": 0, "this": 0, "yesterday": -1, "tomorrow": 1}[m["day"].lower()]
    first, last = _PARTS[m["part"].lower()]
    return hours_of_day(_today(ref) + timedelta(days=offset), ref.tzinfo, first, last)


@_rule(r"\b(?P<rel>last|this|next|the\s+previous|the\s+following)\s+(?P<unit>week|month|year)\b")
def _en_rel_unit(m: re.Match[str], ref: datetime) -> Interval:
    rel = m["rel"].lower()
    offset = -1 if rel in ("last", "the previous") else 1 if rel in ("next", "the following") else 0
    return unit_interval(shift(ref, m["unit"].lower(), offset), m["unit"].lower())


@_rule(r"\b(?:(?P<rel>last|this|next|coming|on|past)\s+)?" + _WEEKDAY + r"s?\b")
def _en_weekday(m: re.Match[str], ref: datetime) -> Interval | None:
    word = m["wd"].lower()
    rel = (m["rel"] or "").lower()
    if len(word) <= 3 and not rel and not m.group().istitle():  # "sun", "sat", "wed" as ordinary words
        return None
    weekday = _WEEKDAYS[word]
    today = _today(ref)
    back = (today.weekday() - weekday) % 7
    if rel in ("last", "past"):
        return day_interval(today - timedelta(days=back or 7), ref.tzinfo)
    if rel in ("next", "coming"):
        ahead = (weekday - today.weekday()) % 7
        return day_interval(today + timedelta(days=ahead or 7), ref.tzinfo)
    if rel == "this":
        return _weekday_in_week(ref, 0, weekday)
    return day_interval(today - timedelta(days=back), ref.tzinfo)


@_rule(r"\b(?:(?P<rel>last|this|next|the)\s+)?weekend\b")
def _en_weekend(m: re.Match[str], ref: datetime) -> Interval:
    rel = (m["rel"] or "").lower()
    if rel == "last":
        return _weekend(ref, -1)
    if rel == "next":
        return _weekend(ref, 1)
    if rel == "this" or ref.weekday() >= 5:
        return _weekend(ref, 0)
    return _weekend(ref, -1)


@_rule(r"\b" + _EN_NUM + r"\s+" + _EN_UNIT + r"\s+(?P<dir>ago|before|earlier|from\s+now|later|hence)\b")
def _en_units_ago(m: re.Match[str], ref: datetime) -> Interval | None:
    bounds = _count(m["n"])
    if bounds is None:
        return None
    unit = _EN_UNITS.get(m["unit"].lower(), m["unit"].lower())
    sign = -1 if m["dir"].lower() in ("ago", "before", "earlier") else 1
    return _relative_units(ref, unit, *bounds, sign)


@_rule(r"\bin\s+" + _EN_NUM + r"\s+" + _EN_UNIT + r"(?:'s|s')?(?:\s+time)?\b")
def _en_in_units(m: re.Match[str], ref: datetime) -> Interval | None:
    bounds = _count(m["n"])
    if bounds is None:
        return None
    unit = _EN_UNITS.get(m["unit"].lower(), m["unit"].lower())
    return _relative_units(ref, unit, *bounds, 1)


@_rule(r"\b(?:(?:in|over|during|for)\s+)?the\s+(?:last|past)\s+(?:" + _EN_NUM + r"\s+)?" + _EN_UNIT + r"\b")
def _en_last_n(m: re.Match[str], ref: datetime) -> Interval | None:
    bounds = _count(m["n"]) if m["n"] else (1, 1)
    if bounds is None:
        return None
    unit = _EN_UNITS.get(m["unit"].lower(), m["unit"].lower())
    return _window(ref, unit, bounds[1])


@_rule(r"\b(?P<when>earlier|later)\s+this\s+(?P<unit>week|month|year)\b")
def _en_earlier_this(m: re.Match[str], ref: datetime) -> Interval:
    start, end, _ = unit_interval(ref, m["unit"].lower())
    today_start, today_end, _ = day_interval(_today(ref), ref.tzinfo)
    if m["when"].lower() == "later":
        return today_end, end, "day"
    return start, (today_start if today_start > start else today_end), "day"


@_rule(r"\b(?:recently|lately|these\s+days|of\s+late)\b")
def _en_recently(m: re.Match[str], ref: datetime) -> Interval:
    return _recent(ref)


@_rule(r"\bthe\s+other\s+day\b")
def _en_other_day(m: re.Match[str], ref: datetime) -> Interval:
    return _relative_units(ref, "day", 2, 7, -1)


@_rule(
    r"\b(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?:[T\s](?P<H>\d{1,2}):(?P<M>\d{2})(?::\d{2}(?:\.\d+)?)?)?(?![\d:])"
)
def _iso_date(m: re.Match[str], ref: datetime) -> Interval | None:
    day = _date(int(m["y"]), int(m["m"]), int(m["d"]), ref.tzinfo)
    if day is None or m["H"] is None:
        return day
    hour, minute = int(m["H"]), int(m["M"])
    if hour > 23 or minute > 59:
        return day
    start = day[0] + timedelta(hours=hour, minutes=minute)
    return start, start + timedelta(minutes=1), "minute"


@_rule(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])")
def _us_date(m: re.Match[str], ref: datetime) -> Interval | None:
    year = int(m["y"])
    if year < 100:
        year += 2000 if year <= (ref.year % 100) + 10 else 1900
    return _date(year, int(m["m"]), int(m["d"]), ref.tzinfo)


def _month_day_year(mon: str, day: str, year: str | None, ref: datetime) -> Interval | None:
    month = _MONTHS[mon.lower()]
    if year:
        return _date(int(year), month, int(day), ref.tzinfo)
    found = nearest_date(month, int(day), _today(ref))
    return None if found is None else day_interval(found, ref.tzinfo)


@_rule(r"\b" + _MONTH + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{4}))?\b(?!:)")
def _en_month_day(m: re.Match[str], ref: datetime) -> Interval | None:
    return _month_day_year(m["mon"], m["d"], m["y"], ref)


@_rule(r"\b(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+(?P<y>\d{4}))?\b")
def _en_day_month(m: re.Match[str], ref: datetime) -> Interval | None:
    return _month_day_year(m["mon"], m["d"], m["y"], ref)


@_rule(r"\b" + _MONTH + r",?\s+(?:of\s+)?(?P<y>\d{4})\b")
def _en_month_year(m: re.Match[str], ref: datetime) -> Interval | None:
    return _month(int(m["y"]), _MONTHS[m["mon"].lower()], ref.tzinfo)


@_rule(
    r"\b(?:(?P<prep>in|during|since|before|after|until|till|by)|(?P<rel>last|this|next))\s+" + _MONTH + r"\b"
)
def _en_month(m: re.Match[str], ref: datetime) -> tuple[tuple[int, int], Interval] | None:
    month = _MONTHS[m["mon"].lower()]
    if m["mon"].islower() and len(m["mon"]) <= 3:  # "in mar", "by may" are not dates
        return None
    today = _today(ref)
    rel = (m["rel"] or "").lower()
    year = most_recent_month(month, today)
    if rel == "last":
        year = today.year - 1 if month >= today.month else today.year
    elif rel == "this":
        year = today.year
    elif rel == "next":
        year = today.year + 1 if month <= today.month else today.year
    interval = _month(year, month, ref.tzinfo)
    if interval is None:
        return None
    span = m.span("mon") if m["prep"] else m.span()
    return span, interval


@_rule(
    r"\b(?:in|during|since|before|after|until|till|by|of|year)\s+(?P<y>1[6-9]\d\d|2[01]\d\d)\b(?![-/.:]\d)"
)
def _en_year(m: re.Match[str], ref: datetime) -> tuple[tuple[int, int], Interval]:
    return m.span("y"), year_interval(int(m["y"]), ref.tzinfo)


# -- Chinese ---------------------------------------------------------------


@_rule("(?P<rel>" + "|".join(sorted(_ZH_REL_DAYS, key=len, reverse=True)) + ")", 0)
def _zh_day(m: re.Match[str], ref: datetime) -> Interval:
    return day_interval(_today(ref) + timedelta(days=_ZH_REL_DAYS[m["rel"]]), ref.tzinfo)


@_rule(r"(?P<rel>今|昨|明)(?P<part>早|晨|晚|夜)", 0)
def _zh_short_part(m: re.Match[str], ref: datetime) -> Interval:
    offset = {"今": 0, "昨": -1, "明": 1}[m["rel"]]
    first, last = (18, 24) if m["part"] in "晚夜" else (6, 12)
    return hours_of_day(_today(ref) + timedelta(days=offset), ref.tzinfo, first, last)


@_rule(
    r"(?:(?P<rel>上上|上|这|本|下下|下)个?|(?<![一二三四五六七八九十两几每\d个]))(?:周|星期|礼拜)(?P<wd>[一二三四五六日天七])?(?!末)",
    0,
)
def _zh_week(m: re.Match[str], ref: datetime) -> Interval | None:
    rel = m["rel"]
    offset = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}.get(rel or "", 0)
    if m["wd"] is None:
        return None if rel is None else week_interval(_today(ref) + timedelta(weeks=offset), ref.tzinfo)
    weekday = _ZH_WEEKDAYS[m["wd"]]
    if rel is None:  # bare 周三: most recent not after the reference
        back = (_today(ref).weekday() - weekday) % 7
        return day_interval(_today(ref) - timedelta(days=back), ref.tzinfo)
    return _weekday_in_week(ref, offset, weekday)


@_rule(r"(?P<rel>上|这|本|下)?个?(?:周末|星期末)", 0)
def _zh_weekend(m: re.Match[str], ref: datetime) -> Interval:
    rel = m["rel"]
    if rel == "上":
        return _weekend(ref, -1)
    if rel == "下":
        return _weekend(ref, 1)
    if rel in ("这", "本") or ref.weekday() >= 5:
        return _weekend(ref, 0)
    return _weekend(ref, -1)


@_rule(r"(?P<rel>上上|上|这|本|下下|下)个?月(?!份?[\d一二三四五六七八九十]+[日号])", 0)
def _zh_rel_month(m: re.Match[str], ref: datetime) -> Interval:
    offset = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}[m["rel"]]
    return unit_interval(shift(ref, "month", offset), "month")


_ZH_YEAR = r"(?:(?P<y>\d{4})年|(?P<ry>大前年|前年|去年|今年|明年|后年))"


@_rule(_ZH_YEAR + r"?(?P<m>" + _ZH_NUM + r")月份?(?:(?P<d>" + _ZH_NUM + r")[日号])?", 0)
def _zh_date(m: re.Match[str], ref: datetime) -> Interval | None:
    month = zh_number(m["m"])
    day = zh_number(m["d"]) if m["d"] else None
    if month is None or not 1 <= month <= 12 or (m["d"] and day is None):
        return None
    if m["y"]:
        year: int | None = int(m["y"])
    elif m["ry"]:
        year = ref.year + _ZH_REL_YEARS[m["ry"]]
    else:
        year = None
    if day is None:
        return _month(year if year is not None else most_recent_month(month, _today(ref)), month, ref.tzinfo)
    if year is not None:
        return _date(year, month, day, ref.tzinfo)
    found = nearest_date(month, day, _today(ref))
    return None if found is None else day_interval(found, ref.tzinfo)


@_rule(_ZH_YEAR + r"(?![\d一二三四五六七八九十]+月|级|代)", 0)
def _zh_year(m: re.Match[str], ref: datetime) -> Interval | None:
    year = int(m["y"]) if m["y"] else ref.year + _ZH_REL_YEARS[m["ry"]]
    return year_interval(year, ref.tzinfo) if 1 <= year <= 9998 else None


@_rule(r"(?<![\d月一二三四五六七八九十])(?P<d>" + _ZH_NUM + r")号(?![楼线房院床门桌位码机])", 0)
def _zh_day_of_month(m: re.Match[str], ref: datetime) -> Interval | None:
    day = zh_number(m["d"])
    return None if day is None else _date(ref.year, ref.month, day, ref.tzinfo)


_ZH_UNIT = r"(?P<unit>分钟|个?小时|个?钟头|天|日|个?星期|个?礼拜|周|个月|年)"


@_rule(r"(?P<n>" + _ZH_NUM + r"|几)" + _ZH_UNIT + r"(?P<dir>以前|之前|前|以后|之后|后)", 0)
def _zh_units_ago(m: re.Match[str], ref: datetime) -> Interval | None:
    bounds = _count(m["n"])
    if bounds is None:
        return None
    unit = _ZH_UNITS[m["unit"].lstrip("个")]
    sign = -1 if "前" in m["dir"] else 1
    return _relative_units(ref, unit, *bounds, sign)


@_rule(r"(?:过去|最近|近|这|前)(?:的)?(?P<n>" + _ZH_NUM + r"|几)" + _ZH_UNIT + r"(?:里|内|中|以来)?", 0)
def _zh_last_n(m: re.Match[str], ref: datetime) -> Interval | None:
    bounds = _count(m["n"])
    if bounds is None:
        return None
    unit = _ZH_UNITS[m["unit"].lstrip("个")]
    if m.group().startswith("前"):  # 前几天 / 前三天: a few days ago, not including today
        return _relative_units(ref, unit, 2 if m["n"] == "几" else 1, bounds[1] if m["n"] != "几" else 7, -1)
    return _window(ref, unit, bounds[1])


@_rule(r"最近|近来|近期|近日|这阵子|这段时间|最近一段时间", 0)
def _zh_recently(m: re.Match[str], ref: datetime) -> Interval:
    return _recent(ref)


# ---------------------------------------------------------------- time of day

_EN_CLOCK = re.compile(
    r"\s*,?\s*(?:at\s+|@\s*)?(?:(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?!\w)"
    r"|(?P<h24>\d{1,2}):(?P<mi24>\d{2})(?![\d:]))"
    r"|\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night)\b",
    re.IGNORECASE,
)
_ZH_CLOCK = re.compile(
    r"(?P<part>凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间)?"
    r"(?:(?P<h>" + _ZH_NUM + r")[点點时](?:(?P<half>半)|(?P<q>[一三])刻|(?P<mi>" + _ZH_NUM + r")分?)?)?"
)


def _clock(day: date, tz: tzinfo | None, hour: int, minute: int | None) -> Interval | None:
    if not (0 <= hour <= 24 and (minute is None or 0 <= minute <= 59)):
        return None
    start = at_midnight(day, tz) + timedelta(hours=hour, minutes=minute or 0)
    if minute is None:
        return start, start + timedelta(hours=1), "hour"
    return start, start + timedelta(minutes=1), "minute"


def _refine_time_of_day(text: str, pos: int, day: date, tz: tzinfo | None) -> tuple[int, Interval] | None:
    """A clock time or part of the day right after ``pos`` narrowing ``day``: (new end, interval)."""
    zh = _ZH_CLOCK.match(text, pos)
    if zh and zh.end() > pos:
        part = zh["part"]
        if zh["h"] is None:
            first, last = _PARTS[part]
            return zh.end(), hours_of_day(day, tz, first, last)
        hour = zh_number(zh["h"])
        if hour is None:
            return None
        if (part in _PM_PARTS and hour < 12) or (part == "中午" and hour < 3):
            hour += 12
        minute = 30 if zh["half"] else (15 if zh["q"] == "一" else 45) if zh["q"] else None
        if zh["mi"]:
            minute = zh_number(zh["mi"])
            if minute is None:
                return None
        found = _clock(day, tz, hour, minute)
        return None if found is None else (zh.end(), found)
    en = _EN_CLOCK.match(text, pos)
    if en is None:
        return None
    if en["part"]:
        first, last = _PARTS[en["part"].lower()]
        return en.end(), hours_of_day(day, tz, first, last)
    if en["h24"] is not None:
        found = _clock(day, tz, int(en["h24"]), int(en["mi24"]))
    else:
        hour = int(en["h"]) % 12 + (12 if en["ap"].lower().startswith("p") else 0)
        found = _clock(day, tz, hour, int(en["mi"]) if en["mi"] else None)
    return None if found is None else (en.end(), found)


# ---------------------------------------------------------------- API


def _check_reference(reference: datetime) -> None:
    if reference.tzinfo is None or reference.utcoffset() is None:
        raise InvalidInputError("reference datetime must be timezone-aware")


def _find_hits(text: str, ref: datetime) -> list[_Hit]:
    candidates: list[_Hit] = []
    for pattern, handler in _RULES:
        for m in pattern.finditer(text):
            if m.end() == m.start():
                continue
            result = handler(m, ref)
            if result is None:
                continue
            if isinstance(result[0], tuple):
                span, interval = result  # type: ignore[misc]
            else:
                span, interval = m.span(), result
            candidates.append(_Hit(span, interval))  # type: ignore[arg-type]
    candidates.sort(key=lambda h: (h.span[0], -(h.span[1] - h.span[0])))
    chosen: list[_Hit] = []
    for hit in candidates:
        if chosen and hit.span[0] < chosen[-1].span[1]:
            continue
        chosen.append(hit)
    return chosen


def _standalone_clock(text: str, ref: datetime, taken: list[tuple[int, int]]) -> list[_Hit]:
    """Clock times with no day ("下午三点", "at 3pm") mean today."""
    hits = []
    pattern = re.compile(
        r"(?:凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间)?"
        + _ZH_NUM
        + r"[点點](?:半|[一三]刻|"
        + _ZH_NUM
        + r"分?)?"
        r"|\b(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)",
        re.IGNORECASE,
    )
    for m in pattern.finditer(text):
        if any(m.start() < end and start < m.end() for start, end in taken):
            continue
        refined = _refine_time_of_day(text, m.start(), ref.date(), ref.tzinfo)
        if refined is not None and refined[0] == m.end():
            hits.append(_Hit(m.span(), refined[1]))
    return hits


def resolve_time_expressions(text: str, reference: datetime) -> list[TimeExpression]:
    """All time expressions in ``text``, resolved against ``reference``, in text order.

    Overlapping candidates are resolved leftmost-longest ("上周三" beats "周三",
    "2023年5月5日" beats "5月"). A day followed by a part of the day or a clock
    time is narrowed ("今天下午" → 12:00–18:00, "tomorrow at 3pm" → 15:00–16:00).
    Raises :class:`~neuromem.errors.InvalidInputError` for a naive ``reference``.
    """
    _check_reference(reference)
    scan = fold_width(text)
    hits = _find_hits(scan, reference)
    refined: list[_Hit] = []
    for index, hit in enumerate(hits):
        start, end, granularity = hit.interval
        if granularity == "day" and end - start <= timedelta(days=1, hours=1):
            narrowed = _refine_time_of_day(scan, hit.span[1], start.date(), start.tzinfo)
            next_start = hits[index + 1].span[0] if index + 1 < len(hits) else len(scan)
            if narrowed is not None and narrowed[0] <= next_start:
                hit = _Hit((hit.span[0], narrowed[0]), narrowed[1])
        refined.append(hit)
    refined.extend(_standalone_clock(scan, reference, [h.span for h in refined]))
    refined.sort(key=lambda h: h.span)
    return [
        TimeExpression(text[s:e], iv[0], iv[1], iv[2], (s, e))
        for (s, e), iv in ((h.span, h.interval) for h in refined)
    ]


_BEFORE = re.compile(r"\b(?:before|prior\s+to|until|till|up\s+to|earlier\s+than)\s*$", re.IGNORECASE)
_AFTER = re.compile(r"\b(?:after|later\s+than)\s*$", re.IGNORECASE)
_SINCE = re.compile(r"(?:\b(?:since|from|starting(?:\s+from)?)\s*|自从|自|从)$", re.IGNORECASE)
_ZH_BEFORE = re.compile(r"^\s*(?:之前|以前|前)")
_ZH_AFTER = re.compile(r"^\s*(?:之后|以后|后)")
_ZH_SINCE = re.compile(r"^\s*(?:以来|开始|起)")
_BETWEEN = re.compile(r"^\s*(?:and|to|until|till|through|-|–|~|到|至|和|与)\s*$", re.IGNORECASE)


def time_constraint(query: str, reference: datetime) -> TimeExpression | None:
    """The time constraint of a search query, or None when it has none.

    The first time expression wins, widened by its context:

    - "before X", "X之前/以前" → ``[OPEN_START, X.start)``;
    - "after X", "X之后/以后" → ``[X.end, OPEN_END)``;
    - "since X", "from X", "自从X", "X以来/开始/起" → ``[X.start, OPEN_END)``;
    - "between X and Y", "from X to Y", "X到Y" → ``[X.start, Y.end)``.

    Open ends are :data:`OPEN_START`/:data:`OPEN_END` in the reference's timezone
    (see :attr:`TimeExpression.open_start`). The granularity is the anchor's.
    """
    found = resolve_time_expressions(query, reference)
    if not found:
        return None
    first = found[0]
    tz = reference.tzinfo
    open_start, open_end = OPEN_START.replace(tzinfo=tz), OPEN_END.replace(tzinfo=tz)
    before_text = query[: first.span[0]]
    after_text = query[first.span[1] :]
    if len(found) > 1:
        second = found[1]
        if _BETWEEN.match(query[first.span[1] : second.span[0]]) and second.end > first.start:
            span = (first.span[0], second.span[1])
            prefix = re.search(r"(?:\bbetween|\bfrom|从)\s*$", before_text, re.IGNORECASE)
            if prefix:
                span = (prefix.start(), span[1])
            return TimeExpression(query[span[0] : span[1]], first.start, second.end, first.granularity, span)
    prefix_m = _BEFORE.search(before_text) or _AFTER.search(before_text) or _SINCE.search(before_text)
    if prefix_m:
        span = (prefix_m.start(), first.span[1])
        if prefix_m.re is _BEFORE:
            start, end = open_start, first.start
        elif prefix_m.re is _AFTER:
            start, end = first.end, open_end
        else:
            start, end = first.start, open_end
        return TimeExpression(query[span[0] : span[1]], start, end, first.granularity, span)
    for pattern, interval in (
        (_ZH_BEFORE, (open_start, first.start)),
        (_ZH_AFTER, (first.end, open_end)),
        (_ZH_SINCE, (first.start, open_end)),
    ):
        suffix = pattern.match(after_text)
        if suffix:
            span = (first.span[0], first.span[1] + suffix.end())
            return TimeExpression(query[span[0] : span[1]], interval[0], interval[1], first.granularity, span)
    return first
