"""Words and numbers of time expressions, English and Chinese (private to timeparse)."""

from __future__ import annotations

import re

_EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_VAGUE = {"couple": (2, 3), "few": (2, 5), "several": (3, 7), "几": (2, 5)}
_EN_NUM = r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several)"
_EN_UNIT = r"(?P<unit>minute|min|hour|hr|day|week|month|year)s?"
_EN_UNITS = {"min": "minute", "hr": "hour"}

_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_WEEKDAY = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)"
_PARTS = {
    "morning": (6, 12),
    "afternoon": (12, 18),
    "evening": (18, 24),
    "night": (18, 24),
    "凌晨": (0, 6),
    "早上": (6, 12),
    "早晨": (6, 12),
    "清晨": (6, 9),
    "上午": (6, 12),
    "中午": (11, 14),
    "下午": (12, 18),
    "傍晚": (17, 19),
    "晚上": (18, 24),
    "夜里": (18, 24),
    "夜间": (18, 24),
}
_PM_PARTS = {"下午", "傍晚", "晚上", "夜里", "夜间"}

_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_NUM = r"[\d零〇一二两三四五六七八九十]{1,4}"
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "七": 6}
_ZH_REL_DAYS = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "今天": 0,
    "今日": 0,
    "明天": 1,
    "明日": 1,
    "后天": 2,
    "大后天": 3,
}
_ZH_REL_YEARS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}
_ZH_UNITS = {
    "分钟": "minute",
    "小时": "hour",
    "钟头": "hour",
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


def zh_number(text: str) -> int | None:
    """Parse 0–9999 written with digits or Chinese numerals (三, 十五, 二十三, 两); None otherwise."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        head, _, tail = text.partition("十")
        if "十" in tail or len(head) > 1 or len(tail) > 1:
            return None
        tens = _ZH_DIGITS.get(head, -1) if head else 1
        ones = _ZH_DIGITS.get(tail, -1) if tail else 0
        return None if tens < 0 or ones < 0 else tens * 10 + ones
    value = 0
    for ch in text:
        if ch not in _ZH_DIGITS:
            return None
        value = value * 10 + _ZH_DIGITS[ch]
    return value


def _count(word: str) -> tuple[int, int] | None:
    """(low, high) count for an English or Chinese quantity word."""
    word = re.sub(r"\s+", " ", word.lower().strip())
    for vague, bounds in _VAGUE.items():
        if vague in word:
            return bounds
    if word in _EN_NUMBERS:
        return _EN_NUMBERS[word], _EN_NUMBERS[word]
    n = zh_number(word)
    return None if n is None else (n, n)
