"""A speaker correcting what they said just before (issue 21, build 1: updates of any shape).

"Put us down for the 7:30 table" … "Actually make that 8:15, Ravi's stuck at work"; 4S店报价一千八 …
哦不对，是两千八. A correction says its value and little else: it names no slot ("make that 8:15"), so the
templates and the statement frames of ``text.slot_frames`` cannot pair it with the statement it corrects.
What pairs them is that it opens by taking back what was just said. ``conflicts`` ends the statement said
just before (:data:`CORRECTION_WINDOW`) when the correction gives a value of the same kind or shares
a word with it.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from functools import lru_cache

from ._scripts import nfkc_casefold
from .spans import is_question
from .tokenize import tokenize

#: A correction takes back the statement its speaker made at most this long before it: one sitting of a
#: conversation
CORRECTION_WINDOW = dt.timedelta(hours=1)
#: Interjections a correction may open with: "Oh, actually …", "Sorry, I misread …", 哦不对, 哎呀我记错了
_LEAD_EN = r"^\W*(?:(?:oh|oops|sorry|no|hmm|ah|argh|ugh|damn)\b\W*)*"
_LEAD_ZH = r"^\W*(?:(?:哦|噢|啊|呃|嗯|哎|唉|哎呀|啊呀|诶)\W*)*"
#: A day of the week, in English
_DAY_EN = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
#: "Make that …" with the value that replaces: "make that 8:15", "make it Thursday", not "make it a table" (a
#: request to the assistant)
_MAKE_THAT_EN = (
    r"make (?:that|it)\s+(?=[\d£$€]|"
    + _DAY_EN
    + r"|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|midnight)\b)"
)
#: The opening words that take back what was just said: a mistake owned ("I misread", 我记错了) or a plan
#: changed ("Change of plan — he can only do Friday now", 还是十寸吧, 改周四吧, 计划有变). "Actually", "wait" and "hang
#: on" open much else ("Actually, can you …", "Actually I love hiking too"): only before the value that replaces
#: ("Actually it's £5.40", "Actually 41", "Wait, make that Thursday"); "Wait, no, I meant …" sets the listener
#: right, not the fact
CORRECTION_EN = re.compile(
    _LEAD_EN
    + r"(?:scrap that|correction|no wait|change of plans?|plans? (?:have|has) changed|"
    + _MAKE_THAT_EN
    + r"|i was wrong|my (?:mistake|bad)|(?:that was a )?typo\b|i typed (?:that|it) wrong"
    r"|i got (?:that|it|them|those) (?:wrong|muddled|mixed up|confused)|i misread|i misspoke|i misremembered"
    r"|i (?:mixed|muddled) (?:them|those|it|that) up"
    r"|(?:actually|wait|hang on)\W+(?:no\W+)?(?:it'?s|it is|it was|that'?s|that is|"
    + _MAKE_THAT_EN
    + r"|[\d£$€]))",
    re.IGNORECASE,
)
CORRECTION_ZH = re.compile(
    _LEAD_ZH
    + r"(?:不对|错了|我?(?:刚才|之前)?(?:弄|说|搞|记|看|写|打|听|算)错了?|更正(?:一下)?|纠正(?:一下)?"
    r"|计划有变|计划变了|(?:还是|改|换)(?=[^，,。；;！!？?]{1,12}吧))"
)

#: After the opening, what was said said again with its new value: "Scrap that — it's at Dom and Priya's", "Sorry,
#: I got that muddled, it was the spaniel", 不对，是五楼: of what was just said, not of another thing ("Scrap that,
#: let's talk about the holiday")
_RESTATED = re.compile(
    r"^\W*(?:it|that|they|it'?s|that'?s|they'?re)(?:'s|'re|\s+(?:is|are|was|were))?\b|^\W*是"
)

#: A value and, beside it, the one it is not, as the statement opens: "Oops — it's the little garage on Mill Street,
#: not Halfords", "Sorry, typo — it's at the White Horse, not the Black Horse", "Sorry, not Hampton Manor — Hampton
#: Court House", 是十八，不是初六, 不是初六，是十八 (what is denied: group 1, 2, 3 or 4). A comma before "not": "it's not
#: just a passing trend" denies nothing said
_DENIED = re.compile(
    r"^\W*(?:(?:oh|oops|sorry|no|nope|ah|wait|hang on|actually|hmm|typo)\b\W*)*"
    r"(?:it'?s|it is|that'?s|that is|they'?re|they are)\b[^.;!?,]{1,60},\s*not\s+(?:at |in |on |the |with )*"
    r"([^,.;!?—–-]{1,40}?)\s*(?=[,.;!?—–-]|$)"
    r"|^\W*(?:(?:oh|oops|sorry|no|nope|ah|wait|hang on|actually|hmm|typo|my bad)\b\W*)+"
    r"not\s+(?:at |in |on |the |with )*([^,.;!?—–-]{1,40}?)\s*[,;—–-]\s*(?:it'?s\s+|that'?s\s+)?\w"
    r"|^\W*(?:(?:哦|噢|啊|哎|哎呀|不对|错了)\W*)*"
    r"(?:是[^，,。；;！!？?]{1,15}[，,]\s*(?:而)?不是([^，,。；;！!？?]{1,10})|不是([^，,。；;！!？?]{1,10})[，,]\s*(?:而)?是)"
)

#: Kinds of value a correction gives in place of the one said before: an amount, a time of day, a day of
#: the week, a month
_VALUE_KINDS = (
    re.compile(r"\d|[二两三四五六七八九十百千万亿]"),
    re.compile(
        r"\b\d{1,2}\s*(?:am|pm|o'clock)\b|上午|下午|中午|晚上|早上|凌晨|[一二三四五六七八九十两]点",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b" + _DAY_EN + r"|(?:周|星期|礼拜)[一二三四五六日天]|今天|明天|后天|昨天",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b"
        r"|[一二三四五六七八九十\d]月",
        re.IGNORECASE,
    ),
)


@lru_cache(maxsize=4096)
def opens_with_a_correction(text: str) -> bool:
    """``text`` opens by taking back what its speaker just said, and asks nothing ("Wait, is it today?")."""
    folded = nfkc_casefold(text).strip()
    if not folded or is_question(folded):
        return False
    return bool(CORRECTION_EN.search(folded) or CORRECTION_ZH.search(folded))


def opens_with_a_denial(text: str) -> bool:
    """``text`` opens by giving a value beside the one it is not (:data:`_DENIED`: "Sorry, not Hampton Manor —
    Hampton Court House"), and asks nothing."""
    folded = nfkc_casefold(text).strip()
    return not is_question(folded) and _DENIED.match(folded) is not None


def corrects(new: str, old: str) -> bool:
    """``new`` is a correction (:func:`opens_with_a_correction`) of ``old``, the statement said just before:
    it gives a value of a kind ``old`` has (an amount, a time, a day, a month), shares a word with it
    ("Scrap that, they redid the draw, so I'm buying for Yusuf now" / "I drew Gareth in the Secret Santa"), or says
    it again with its new value (:data:`_RESTATED`: "Scrap that — it's at Dom and Priya's"); or, whatever it opens
    with, it says its value is not the one ``old`` gave (:func:`denies_what_was_said`)."""
    if denies_what_was_said(new, old) and not is_question(nfkc_casefold(new)):
        return True
    if not opens_with_a_correction(new):
        return False
    if any(kind.search(new) and kind.search(old) for kind in _VALUE_KINDS):
        return True
    body = nfkc_casefold(without_correction_opening(new))
    return bool(_RESTATED.match(body)) or bool(set(tokenize(body)) & set(tokenize(old)))


def denies_what_was_said(new: str, old: str) -> bool:
    """``new`` gives a value and says it is not the one ``old``, said just before, gave: "Oops — it's the little
    garage on Mill Street, not Halfords" after "… booked in for its service at Halfords on Tuesday?"; 是十八号，不是
    初六. Every word of what it denies is in ``old``, so "It's decaf, not that I mind" denies nothing said."""
    folded = nfkc_casefold(new).strip()
    denied = [m.group(1) or m.group(2) or m.group(3) or m.group(4) for m in _DENIED.finditer(folded)]
    said = set(tokenize(nfkc_casefold(old)))
    return any((words := set(tokenize(d))) and words <= said for d in denied if d)


def without_correction_opening(text: str) -> str:
    """``text`` (NFKC) without the words that open a correction ("My bad, it's Friday" → "it's Friday"): what the
    correction says of the thing."""
    said = unicodedata.normalize("NFKC", text).strip()
    return CORRECTION_ZH.sub("", CORRECTION_EN.sub("", said, count=1), count=1)


def restated_value(text: str) -> str:
    """What a correction says again with its new value, without the opening ("My bad, it's Friday at 9:15" → "it's
    Friday at 9:15", :data:`_RESTATED`); any other ``text`` as it is ("Sorry, I misread his quote, it's £85" names
    the quote)."""
    body = re.sub(r"^\W+", "", without_correction_opening(text))
    return body if opens_with_a_correction(text) and _RESTATED.match(nfkc_casefold(body)) else text
