"""Language detection for routing text to the Chinese or English pipeline.

The rule is a character ratio, not a model: Chinese text is recognised by its
Han ideographs, English by ASCII letters. Mixed text counts as Chinese as soon
as Han characters are a substantial share (:data:`ZH_THRESHOLD`) of the letters,
because one Han character carries roughly the content of a short English word
(seed 003 treats Chinese and English as first-class; a Chinese sentence with a
product name in it must still be segmented with jieba).
"""

from __future__ import annotations

import re
from typing import Literal

from neuromem.text._scripts import is_cjk

Language = Literal["zh", "en", "other"]

#: Han characters / (Han characters + Latin letters / 4) above which text is "zh".
#: Latin letters are divided by 4 (≈ letters per English word) so the comparison
#: is roughly words against words.
ZH_THRESHOLD = 0.3

#: Share of ASCII letters among all letters required for "en".
EN_THRESHOLD = 0.6

_ASCII_LETTER = re.compile("[A-Za-z]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def detect_language(text: str) -> Language:
    """Return ``"zh"``, ``"en"`` or ``"other"`` for ``text``.

    - ``"zh"`` when Han ideographs make up at least :data:`ZH_THRESHOLD` of the
      word-weighted letters (so "我在用 PostgreSQL 数据库" is Chinese);
    - ``"en"`` when the rest is mostly ASCII letters;
    - ``"other"`` otherwise, including empty text, digits/punctuation only, and
      other scripts (Cyrillic, Japanese kana…).
    """
    latin = len(_ASCII_LETTER.findall(text))  # counted in C: a long English text costs no Python loop
    han = other = 0
    for ch in _NON_ASCII.findall(text):
        if is_cjk(ch):
            han += 1
        elif ch.isalpha():
            other += 1
    if han == 0 and latin == 0:
        return "other"
    if han and han / (han + latin / 4 + other) >= ZH_THRESHOLD:
        return "zh"
    if latin and latin / (latin + other + han * 4) >= EN_THRESHOLD:
        return "en"
    return "other"
