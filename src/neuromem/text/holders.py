"""Who holds a role, as the words tell (issue 21: a person-valued slot, seed 004 §4.1 UPDATE): the people a
statement names (:func:`holders`), and whether a newer statement tells that another person now holds the role an
older one gives the holder of (:func:`new_holder`): 我们楼的管家是小郑 / 楼栋管家换人了，新来的叫小冉; "Wilf plays top
board for the chess club" / "Wilf's been bumped off top board by a twelve-year-old called Ottilie".

Read only by recall, and only when a question asks who (:func:`asks_who`): the newer statement names a new person,
which everywhere else says it speaks of another person's thing ("My manager is Dana" / "Mei's manager is Tom").
Asked who, the person is the value."""

from __future__ import annotations

import re
from functools import lru_cache

from ._scripts import CJK_CHAR
from .entities import _SURNAMES, extract_entities
from .slot_frames import _people, one_statement_long, qualified_apart, replacement_evidence
from .slots import _align_tokens, _fold
from .stopwords import EN_STOPWORDS

#: A question that asks for a person: "Who runs …?", "Who's leading …?", 谁当楼长？
_WHO = re.compile(r"\bwho(?:'s|m|se)?\b|谁", re.IGNORECASE)

#: en: a title and the name after it ("Mr Oduya", "Reverend Howe"); a name after "called"/"named"
_TITLED_EN = re.compile(
    r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof|Reverend|Rev|Father|Sister|Coach|Uncle|Auntie|Aunt)\.?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
)
_CALLED_EN = re.compile(r"\b(?:called|named)\s+([A-Z][a-z]+)")
#: en: a name after a word for a person, as who that is ("his niece Carys", "her son, Conor")
_APPOSITIVE_EN = re.compile(
    r"\b(?:son|daughter|niece|nephew|brother|sister|wife|husband|partner|cousin|friend|neighbou?r|colleague|"
    r"mum|mom|dad|aunt|uncle|grandson|granddaughter),?\s+([A-Z][a-z]+)\b"
)
#: en: a capitalised word that opens the statement and is its subject: a verb or "'s" and a verb's form follow
#: ("Wilf plays …", "Conor's moved to Dubai", "Bilal's gone top"); "Wilf's bike" is an owner, not a subject
_OPENING_NAME_EN = re.compile(
    r"^([A-Z][a-z]+)(?:'s\s+(?=been\b|gone\b|got\b|just\b|now\b|off\b|[a-z]+ed\b|[a-z]+ing\b)"
    r"|\s+(?!(?:is|was|has|does)\b)(?=[a-z]+s\b|[a-z]+ed\b))"  # "Instagram is owned by …": no one acts
)
#: en: a name before "'s" and a noun: whose thing it is ("Ava's class teacher"), not who holds it
_OWNER_EN = re.compile(
    r"\b([A-Z][a-z]+)'s\s+(?!(?:been|gone|got|just|now|not|off|back|on|in|out|left|also|still|taking|the)\b)"
    r"(?![a-z]+(?:ed|ing)\b)[a-z]"
)
#: zh: 杨老师, 王阿姨, 钱师傅 (a surname and how one addresses its bearer); a name after 叫 or 姓
_TITLES_ZH = "老师|阿姨|师傅|医生|大夫|经理|主任|叔叔?|大爷|大妈|奶奶|爷爷|姐|哥|总|工|教练|律师"
_TITLED_ZH = re.compile(rf"[{''.join(sorted(_SURNAMES))}](?:{_TITLES_ZH})")
_CALLED_ZH = re.compile(r"(?:叫|姓)(?:他|她)?([\u4e00-\u9fff]{1,3}?)(?=[，,。.！!；;]|$)")
#: zh: a name before 的: whose thing it is (小王的师傅), not who holds it
_OWNER_ZH = "的"

#: Words that tell a role changed hands without a word of change: "took over", "handed … over", 换人, 新来的, 接任
_HANDOVER_EN = re.compile(
    r"\b(?:took over|taking over|takes over|handed (?:\w+ ){0,3}over|stepped (?:down|up|in)|replaced|"
    r"appointed|elected|voted in|licensed as|bumped off|new)\b",
    re.IGNORECASE,
)
_HANDOVER_ZH = re.compile(r"换人|新来的|接任|接替|接手|推选|选了|当选|上任|顶替|交给|换成|换了")


def asks_who(query: str) -> bool:
    """The ``query`` asks for a person ("Who plays top board …?", 现在谁开孩子的校车？)."""
    return bool(_WHO.search(query))


def _zh(text: str) -> bool:
    return CJK_CHAR.search(text) is not None


@lru_cache(maxsize=4096)
def holders(text: str) -> frozenset[str]:
    """The people ``text`` names: ``text.entities``'s people and its names of no known kind that qualify no noun
    after them (:func:`_stands_as_a_name`: "Lucinda from the club", not "Origin beans"), titled names (Mr Oduya,
    杨老师), a name after "called" or 叫/姓 or after a word for a person ("his niece Carys"), and a name the statement
    opens on as the one who acts ("Wilf plays …")."""
    folded = _fold(text)
    found = {
        e.name
        for e in extract_entities(folded)
        if e.type == "person" or (e.type == "other" and _stands_as_a_name(folded, e.name, e.span[1]))
    }
    if _zh(folded):
        found.update(m.group() for m in _TITLED_ZH.finditer(folded))
        found.update(m.group(1) for m in _CALLED_ZH.finditer(folded))
    else:
        found.update(m.group() for m in _TITLED_EN.finditer(folded))
        found.update(m.group(1) for m in _CALLED_EN.finditer(folded))
        found.update(m.group(1) for m in _APPOSITIVE_EN.finditer(folded))
        opening = _OPENING_NAME_EN.match(folded)
        if opening and opening.group(1).casefold() not in EN_STOPWORDS:
            found.add(opening.group(1))
    return frozenset(found)


#: en: days and months, which ``text.entities`` may take for names
_CALENDAR_EN = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|may|june|july|august|september|"
    r"october|november|december",
    re.IGNORECASE,
)


def _stands_as_a_name(text: str, name: str, end: int) -> bool:
    """An English name of no known kind (``text.entities``: "other") stands for someone when no common noun it
    qualifies follows it ("Lucinda from the club", "… is Graham.", not "Origin beans"), and it is no day or month."""
    if _zh(text) or _CALENDAR_EN.fullmatch(name):
        return False
    after = re.match(r"\s+([a-z]+)", text[end:])
    return not text[end:].startswith("'") and (after is None or after.group(1) in EN_STOPWORDS)


def _named_in(name: str, text: str) -> bool:
    """``name`` or, for a titled English name, its last word ("Mrs Delaney" in "Delaney's") is in ``text``."""
    return name in text or (" " in name and name.split()[-1] in text)


def _owners(text: str) -> frozenset[str]:
    """The names and words for people ``text`` says as whose thing it speaks of ("Ava's class teacher", "my kids'
    dentist", 小王的师傅, 我儿子的老师)."""
    zh = _zh(text)
    kin = _people(text, zh)
    if zh:
        return frozenset(n for n in holders(text) | kin if n + _OWNER_ZH in text)
    folded = text.casefold()
    kin_owners = {w for w in kin if re.search(rf"\b{re.escape(w)}(?:'s|s'|')\s", folded)}
    return frozenset(m.group(1) for m in _OWNER_EN.finditer(text)) | kin_owners


def opens_on_the_holder(new: str, old: str) -> bool:
    """``new`` opens on a person ``old`` names as a holder (:func:`holders`): 覃老师休产假去了… after
    我女儿她们班主任是教数学的覃老师, "Alun's retired; …" after "… is run by an old boy called Alun"."""
    opening = _fold(new).lstrip()
    return any(
        opening.startswith(n) or (" " in n and opening.startswith(n.split()[-1])) for n in holders(old)
    )


def new_holder(new: str, old: str) -> bool:
    """``new`` tells that another person holds the role ``old`` names the holder of:

    - ``old`` is one statement (``text.slot_frames.one_statement_long``) that names a person (:func:`holders`);
    - ``new`` names a person ``old`` does not, and no owner ``old`` does not name (:func:`_owners`: "Ava's class
      teacher is Mr Ross" is another child's);
    - the two share a word of the role, beside the names (管家, "top board", "group");
    - and ``new`` says a change (``text.slot_frames.replacement_evidence``), that the role changed hands
      (:data:`_HANDOVER_EN`: "took over", 换人, 新来的), or names the older holder as well: what became of them
      (老周退休了，…小严)."""
    if not one_statement_long(old):
        return False
    old_f, new_f = _fold(old), _fold(new)
    before, after = holders(old), holders(new_f)
    if not before:
        return False
    added = frozenset(
        n for n in after if not _named_in(n, old_f) and not any(_named_in(b, n) for b in before)
    )
    another_owner = any(not _named_in(n, old_f) for n in _owners(new_f))
    if not added or another_owner or qualified_apart(new, old):
        return False
    names = {w.casefold() for n in before | after for w in re.split(r"\W+", n) if w}
    capitalised = {w.casefold() for w in re.findall(r"\b[A-Z][a-z]+", old_f + " " + new_f)}
    owning = {w.casefold() for w in re.findall(r"\b([a-z]+)'s\b", old_f)}
    role = (_align_tokens(old)[0] & _align_tokens(new)[0]) - names - capitalised - owning  # "The surgery's …"
    if _zh(old):  # nor whose the role is (丽娜的老公 / 丽娜的老板)
        role = frozenset(
            w
            for w in role
            if not any(w in n or n in w for n in before | after) and w + _OWNER_ZH not in old + new
        )
    if not role:
        return False
    handover = (_HANDOVER_ZH if _zh(new_f) else _HANDOVER_EN).search(new_f)
    return (
        replacement_evidence(new) is not None
        or handover is not None
        or any(_named_in(b, new_f) for b in before)
    )
