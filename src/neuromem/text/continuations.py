"""A statement that leans on what its speaker said just before (issue 21: updates that arrive as the answer to an
assistant's question the memory never saw). "Yes, it was approved yesterday", "They postponed it to 22 January",
"Finally switched to electric", 做完了，昨天出院: the thing it speaks of is in the statement before, so its words
alone are far from any question about that thing.

:func:`leans_on_what_was_said` tells such a statement by its opening: an answer word, a pronoun for a thing or a
person, a verb with no subject, a value with "now" ("Kinsale now — …"), or a correction. :func:`answers_back`
tells the answer words, which say the statement gives the latest word on what was asked."""

from __future__ import annotations

import re
from functools import lru_cache

from ._scripts import CJK_CHAR, nfkc_casefold
from .corrections import opens_with_a_correction, opens_with_a_denial

#: en: an answer to a question ("Yes, …", "Nope, …", "Not any more, …", "Sadly not …")
_ANSWER_EN = r"(?:yes|yeah|yep|yup|no|nope|nah|not\s+any\s?more|not\s+these\s+days|sadly|unfortunately|luckily|thankfully)\b"
#: zh: 是的, 对, 嗯, 没有, 还没, 早就…
_ANSWER_ZH = r"(?:是的|是啊|对的?|嗯|没有?|还没|早就|已经)"
_ANSWERS_EN = re.compile(rf"^\W*{_ANSWER_EN}", re.IGNORECASE)
_ANSWERS_ZH = re.compile(rf"^\W*{_ANSWER_ZH}")
#: en: a pronoun for what was said before, as the subject ("It's …", "They postponed it …", "She's awake …") or its
#: owner ("Her visa fell through, so she's gone to Colombia instead"); a
#: verb in the past with no subject, before what it acts on ("Finally switched to electric", "Smashed it already",
#: "Upgraded to …"; not "Unrelated note …", nor "Changed my Amazon login email to …", which names its own thing)
_LEANS_EN = re.compile(
    rf"^\W*(?:{_ANSWER_EN}"
    r"|(?:it|they|she|he|that|this)(?:'s|'re|'ve|'d|'ll)?\s"
    r"|(?:her|his|their|its)\s+[a-z]"
    r"|(?:(?:finally|just|already|eventually|recently|then)\s+)?[a-z]+ed\s+"
    r"(?:to|it|them|him|her|up|off|out|in|on|onto|into|over|back|down|with)\b)",
    re.IGNORECASE,
)
#: zh: 他/她/它 as the subject, or a verb of done and over with no subject (做完了, 办好了, 拿到了)
_LEANS_ZH = re.compile(rf"^\W*(?:{_ANSWER_ZH}|他|她|它|[\u4e00-\u9fff]{{1,2}}(?:完|好|到|掉)了)")


#: en: a value and "now", elliptical, before a dash, colon or comma: "Kinsale now — she's bought a cottage …",
#: "Tuesdays now, since the rota changed" (a name or a number: "I'm happy now, thanks" has a subject)
_VALUE_NOW_EN = re.compile(r"^\W*[A-Z0-9£$€][\w'’-]*(?:\s+[A-Z0-9][\w'’-]*){0,2}\s+now\s*[—–:;,-]")


@lru_cache(maxsize=4096)
def leans_on_what_was_said(text: str) -> bool:
    """``text`` opens as the continuation of what its speaker said before (module docstring), or takes it back
    (``text.corrections``: "My bad, it's Tuesday at 3:30", "Sorry, not Hampton Manor — Hampton Court House")."""
    folded = nfkc_casefold(text)
    if opens_with_a_correction(text) or opens_with_a_denial(text):
        return True
    if CJK_CHAR.search(folded):
        return _LEANS_ZH.match(folded) is not None
    if _VALUE_NOW_EN.match(text):
        return True
    return _LEANS_EN.match(folded) is not None and not _NAMED_THING_EN.match(text)


#: en: a past verb that opens on a name it acts on is no continuation ("Installed Fedora …" still leans; "Ed …" and
#: "Ted's …", a name that ends in -ed, are a subject)
_NAMED_THING_EN = re.compile(r"^\W*[A-Z][a-z]*ed(?:'s)?\s+(?:is|was|has|and|said|says|'s)\b")


def answers_back(text: str) -> bool:
    """``text`` opens with an answer word ("Yes, it's 7702 now", 是的，…)."""
    folded = nfkc_casefold(text)
    return bool((_ANSWERS_ZH if CJK_CHAR.search(folded) else _ANSWERS_EN).match(folded))
