"""Whom a statement or a question is about, as its words tell (issue 21: a later statement about another person's
thing is no answer about the speaker's): the people it names ("My mum's parked round the back", 我表弟报了公务员考试),
the speaker (:data:`SPEAKER`) when it speaks in the first person of anything but the people it names ("I parked on
level 3", "My flight to Madrid lands at 14:20", 我在准备教资面试), or no one it can tell (an impersonal statement,
or one whose "she" or 他 may stand for anyone).

"Where did I park?" asks of the speaker; "我老婆用什么记账App？" of 老婆, not of the speaker who owns her."""

from __future__ import annotations

import re
from functools import lru_cache

from ._scripts import CJK_CHAR
from .slot_frames import _THIRD_PERSON_EN, _THIRD_PERSON_ZH, _people
from .slots import PEOPLE_EN, PEOPLE_ZH

#: Who "I", "my", "we" and 我 stand for
SPEAKER = "I"

_PEOPLE_EN = "|".join(sorted((re.escape(w) for w in PEOPLE_EN), key=len, reverse=True))
#: en: the speaker's person, a possessive that names another ("my mum's", "our eldest", "my little sister")
_MY_PERSON_EN = re.compile(
    rf"\b(?:my|our)\s+(?:[a-z-]+\s+){{0,2}}?(?:{_PEOPLE_EN})(?:'s|s'|')?(?![a-z-])", re.IGNORECASE
)
_FIRST_PERSON_EN = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours|ourselves)\b",
    re.IGNORECASE,
)
_PEOPLE_ZH = "|".join(sorted(PEOPLE_ZH, key=len, reverse=True))
#: zh: 我老婆, 我们家老大, 我的表弟, 我二姨: the speaker's person
_MY_PERSON_ZH = re.compile(rf"我们?(?:家)?(?:的)?[\u4e00-\u9fff]{{0,2}}?(?:{_PEOPLE_ZH})")
_FIRST_PERSON_ZH = re.compile(r"我|咱")


@lru_cache(maxsize=4096)
def whose(text: str) -> frozenset[str]:
    """The people ``text`` is about (module docstring): the words for people it names, with :data:`SPEAKER` when
    it also speaks in the first person of something else; :data:`SPEAKER` alone when it names no one and speaks in
    the first person; empty when it cannot tell (no person, or only a pronoun for one)."""
    zh = CJK_CHAR.search(text) is not None
    people = _people(text, zh)
    rest = (_MY_PERSON_ZH if zh else _MY_PERSON_EN).sub(" ", text)
    first = (_FIRST_PERSON_ZH if zh else _FIRST_PERSON_EN).search(rest) is not None
    if people:
        return people | {SPEAKER} if first else people
    if (_THIRD_PERSON_ZH if zh else _THIRD_PERSON_EN).search(text):
        return frozenset()  # "She's moved to Leeds": whose "she" is, the words alone do not say
    return frozenset({SPEAKER}) if first else frozenset()


def about_another(text: str, query: str) -> bool:
    """``text`` is about people the ``query`` does not ask of (:func:`whose`), and opens on one of them
    (:func:`opens_on_someone`): "My mum's flight into Madrid lands at 16:05", asked "When does my flight to Madrid
    land?"; 我用的记账App是鲨鱼记账, asked 我老婆用什么记账App？; not "Actually, make it three — my sister's decided to
    come along", which speaks of the speaker's booking. False when either cannot tell."""
    if not opens_on_someone(text):  # first: anchored at the start, it reads a few words, not the whole text
        return False
    asked, about = whose(query), whose(text)
    return bool(asked and about and not asked & about)


#: en: a statement that opens on a person ("My mum's …", "Our eldest …", "Gran's …") or on the speaker ("I …", "My
#: flight …", "We …")
_OPENS_ON_SOMEONE_EN = re.compile(
    rf"^\W*(?:(?:my|our)\s+(?:[a-z-]+\s+){{0,2}}?)?(?:{_PEOPLE_EN})(?:'s|s'|')?(?![a-z-])"
    r"|^\W*(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our)\b",
    re.IGNORECASE,
)
#: zh: 我老婆…, 我们家老大…, 今晚我表弟…, 我用的…: a time may come first
_OPENS_ON_SOMEONE_ZH = re.compile(
    rf"^\W*(?:今天|今晚|昨天|昨晚|明天|最近|现在|这周|上周|周末)?(?:我|咱|{_PEOPLE_ZH})"
)


def opens_on_someone(text: str) -> bool:
    """``text`` opens on a word for a person or on the speaker ("My mum's parked round the back", 我表弟报了…,
    "I parked on level 3")."""
    zh = CJK_CHAR.search(text) is not None
    return (_OPENS_ON_SOMEONE_ZH if zh else _OPENS_ON_SOMEONE_EN).match(text) is not None


def about_the_asked(text: str, query: str) -> bool:
    """``text`` is about someone the ``query`` asks of (:func:`whose`)."""
    return bool(whose(query) & whose(text))
