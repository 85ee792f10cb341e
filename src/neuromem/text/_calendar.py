"""Calendar arithmetic for :mod:`neuromem.text.timeparse` (private, pure).

All intervals are half-open ``[start, end)`` and timezone-aware in the given tz.
Weeks start on Monday (ISO 8601, and the Chinese 周一 convention).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, tzinfo
from typing import Literal

Granularity = Literal["minute", "hour", "day", "week", "month", "year"]
Interval = tuple[datetime, datetime, Granularity]


def at_midnight(d: date, tz: tzinfo | None) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=tz)


def day_interval(d: date, tz: tzinfo | None) -> Interval:
    return at_midnight(d, tz), at_midnight(d + timedelta(days=1), tz), "day"


def monday_of(d: date) -> date:
    return d - timedelta(days=d.weekday())


def week_interval(d: date, tz: tzinfo | None) -> Interval:
    monday = monday_of(d)
    return at_midnight(monday, tz), at_midnight(monday + timedelta(days=7), tz), "week"


def add_months(year: int, month: int, n: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + n
    return index // 12, index % 12 + 1


def month_interval(year: int, month: int, tz: tzinfo | None) -> Interval:
    ny, nm = add_months(year, month, 1)
    return datetime(year, month, 1, tzinfo=tz), datetime(ny, nm, 1, tzinfo=tz), "month"


def year_interval(year: int, tz: tzinfo | None) -> Interval:
    return datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz), "year"


def shift(ref: datetime, unit: str, n: int) -> datetime:
    """``ref`` moved by ``n`` units (calendar-aware for months and years, day clamped)."""
    if unit == "minute":
        return ref + timedelta(minutes=n)
    if unit == "hour":
        return ref + timedelta(hours=n)
    if unit == "day":
        return ref + timedelta(days=n)
    if unit == "week":
        return ref + timedelta(weeks=n)
    months = n * 12 if unit == "year" else n
    y, m = add_months(ref.year, ref.month, months)
    last_day = (date(*add_months(y, m, 1), 1) - timedelta(days=1)).day
    return ref.replace(year=y, month=m, day=min(ref.day, last_day))


def unit_interval(moment: datetime, unit: str) -> Interval:
    """The calendar unit (minute … year) containing ``moment``."""
    tz = moment.tzinfo
    if unit == "minute":
        start = moment.replace(second=0, microsecond=0)
        return start, start + timedelta(minutes=1), "minute"
    if unit == "hour":
        start = moment.replace(minute=0, second=0, microsecond=0)
        return start, start + timedelta(hours=1), "hour"
    if unit == "day":
        return day_interval(moment.date(), tz)
    if unit == "week":
        return week_interval(moment.date(), tz)
    if unit == "month":
        return month_interval(moment.year, moment.month, tz)
    return year_interval(moment.year, tz)


def hours_of_day(d: date, tz: tzinfo | None, first: int, last: int) -> Interval:
    """Hours ``[first, last)`` of day ``d`` (``last`` may be 24)."""
    midnight = at_midnight(d, tz)
    return midnight + timedelta(hours=first), midnight + timedelta(hours=last), "hour"


def nearest_date(month: int, day: int, today: date) -> date | None:
    """The date with this month/day nearest to ``today`` (ties go to the past)."""
    best: date | None = None
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if best is None or abs((candidate - today).days) < abs((best - today).days):
            best = candidate
    return best


def most_recent_month(month: int, today: date) -> int:
    """The year of the most recent ``month`` that is not after ``today``'s month."""
    return today.year if month <= today.month else today.year - 1
