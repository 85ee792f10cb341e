"""Rule-based entity extraction (the offline fallback of the LLM extractor).

Seed 003 R2G-2: extract entities, times and keywords from each turn; the
graph links memories through shared entities, so names are normalised with
:func:`normalize_entity_name` before they are compared.

- Chinese: ``jieba.posseg`` tags — ``nr`` person, ``ns`` place, ``nt``
  organisation, ``nz`` other proper noun (with HMM, so unseen names are found).
- English: sequences of capitalised words. A capitalised word at the start of a
  sentence is only taken when it continues into a multi-word name ("New York
  is…") or the sequence holds a type cue ("Inc", "University", "Street"…);
  pronouns, weekdays and months are never entities. Types are guessed from
  cues (organisation suffixes, place words, honorifics) and default to
  "other".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from neuromem.text._jieba import posseg_module
from neuromem.text._scripts import CJK_RUN, fold_width

EntityType = Literal["person", "place", "organization", "other"]


@dataclass(frozen=True, slots=True)
class Entity:
    """A named entity: its surface name, a guessed type and its span in the text."""

    name: str
    type: EntityType
    span: tuple[int, int]


_POS_TYPES: dict[str, EntityType] = {
    "nr": "person",
    "nrfg": "person",
    "nrt": "person",
    "ns": "place",
    "nt": "organization",
    "nz": "other",
}

# Common Chinese surnames: jieba's HMM sometimes tags verb phrases as names ("喝咖啡" → nr);
# a person name must start with a surname (or be a known dictionary name of 2+ chars with one).
_SURNAMES = set(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施"
    "文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷"
    "盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏"
    "席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
#: How people are called by their surname: 老王, 小陈 — as jieba cuts them: one word of two characters, or 老/小
#: and the surname apart. A longer word holding them is another word (小时候, 小区, 老师傅)
_ADDRESS_PREFIXES = ("老", "小")
#: Two-character words of that shape that name no one
_NOT_ADDRESSED = frozenset(
    {"老师", "小时", "小米", "小于", "老成", "小康", "小费", "小车", "老路", "小路", "小钱"}
)
_COMPOUND_SURNAMES = (
    "欧阳",
    "司马",
    "上官",
    "诸葛",
    "东方",
    "皇甫",
    "尉迟",
    "公孙",
    "慕容",
    "长孙",
    "令狐",
    "司徒",
)

_ORG_CUES = {
    "inc",
    "corp",
    "corporation",
    "ltd",
    "llc",
    "company",
    "co",
    "group",
    "university",
    "college",
    "institute",
    "school",
    "bank",
    "foundation",
    "association",
    "agency",
    "department",
    "ministry",
    "labs",
    "lab",
    "technologies",
    "systems",
    "hospital",
    "club",
    "team",
    "committee",
}
_PLACE_CUES = {
    "city",
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "river",
    "lake",
    "mountain",
    "mount",
    "park",
    "island",
    "county",
    "state",
    "province",
    "bay",
    "beach",
    "valley",
    "airport",
    "station",
}
_PERSON_CUES = {"mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam", "uncle", "aunt"}
_KNOWN_PLACES = {
    "china",
    "beijing",
    "shanghai",
    "shenzhen",
    "hangzhou",
    "guangzhou",
    "hong kong",
    "taiwan",
    "japan",
    "tokyo",
    "korea",
    "seoul",
    "singapore",
    "india",
    "london",
    "paris",
    "berlin",
    "france",
    "germany",
    "england",
    "britain",
    "uk",
    "usa",
    "america",
    "canada",
    "new york",
    "california",
    "texas",
    "boston",
    "seattle",
    "chicago",
    "san francisco",
    "los angeles",
    "europe",
    "asia",
    "africa",
    "australia",
    "sydney",
    "moscow",
    "russia",
    "italy",
    "rome",
    "spain",
    "madrid",
    "mexico",
    "brazil",
}
_NEVER = {
    "i",
    "i'm",
    "i've",
    "i'd",
    "i'll",
    "the",
    "a",
    "an",
    "my",
    "we",
    "you",
    "he",
    "she",
    "they",
    "it",
    "this",
    "that",
    "these",
    "those",
    "there",
    "here",
    "what",
    "when",
    "where",
    "why",
    "how",
    "who",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "today",
    "yesterday",
    "tomorrow",
    "yes",
    "no",
    "ok",
    "okay",
    "hi",
    "hello",
    "thanks",
    "please",
    "and",
    "but",
    "or",
    "so",
    "if",
    "also",
    "then",
    "oh",
    # a question's auxiliary never starts a name: "Do I take sertraline?", "Did I book …?"
    "do",
    "does",
    "did",
    "am",
    "is",
    "are",
    "was",
    "were",
    "can",
    "could",
    "should",
    "would",
    "shall",
    "must",
    "have",
    "has",
    "had",
}
_CONNECTORS = {"of", "the", "de", "van", "von", "and", "&"}

_CAP_SEQ = re.compile(
    r"\b(?:Mr|Mrs|Ms|Dr|Prof|St)\.?\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*"
    r"|\b[A-Z][\w'’&.-]*(?:\s+(?:(?:of|the|de|van|von|and|&)\s+)?[A-Z][\w'’&.-]*)*"
)
#: The possessive ending of a name ("Mark's", "Anna’s"), not a part of it
_POSSESSIVE = re.compile(r"['’]s$")
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？\n]\s*|[\"“(]\s*)$")


def _guess_type(words: list[str]) -> EntityType:
    lowered = [w.lower().rstrip(".") for w in words]
    if lowered[0] in _PERSON_CUES:
        return "person"
    if lowered[-1] in _ORG_CUES or any(w in ("university", "bank", "institute") for w in lowered):
        return "organization"
    if lowered[-1] in _PLACE_CUES or " ".join(lowered) in _KNOWN_PLACES:
        return "place"
    if len(words) in (2, 3) and all(w[:1].isupper() and w[1:].islower() and w.isalpha() for w in words):
        return "person"  # "Alice Smith": two or three plain capitalised words
    return "other"


def _runs(m: re.Match[str]) -> list[tuple[str, int]]:
    """The capitalised run ``m`` cut after each possessive ("Oscar's Cub pack" → "Oscar's", "Cub"): whose, then
    what — two names, not one. With the offset of each part."""
    parts, start = [], m.start()
    for word in re.finditer(r"\S+", m.group()):
        if _POSSESSIVE.search(word.group()) and word.end() < len(m.group().rstrip()):
            parts.append((m.group()[start - m.start() : word.end()], start))
            start = m.start() + word.end() + 1
    parts.append((m.group()[start - m.start() :], start))
    return [(value, at) for value, at in parts if value.strip()]


def _english_entities(text: str) -> list[Entity]:
    found: list[Entity] = []
    for value, offset in (run for m in _CAP_SEQ.finditer(text) for run in _runs(m)):
        value = value.rstrip(".’'-&")
        words = value.split()
        # Drop leading words that can never start a name ("The", "I", "Monday").
        while words and words[0].lower().rstrip(".") in _NEVER | _CONNECTORS:
            offset = text.index(words[1], offset + len(words[0])) if len(words) > 1 else offset
            words = words[1:]
        while words and words[-1].lower() in _CONNECTORS:
            words = words[:-1]
        if words and _POSSESSIVE.search(words[-1]) and len(words[-1]) > 2:
            words[-1] = _POSSESSIVE.sub("", words[-1])  # "Mark's girlfriend": the name is Mark
        if not words:
            continue
        name = " ".join(words)
        at_start = _SENTENCE_START.search(text[:offset]) is not None
        kind = _guess_type(words)
        if at_start and len(words) == 1 and kind == "other" and name.lower() not in _KNOWN_PLACES:
            continue  # "Coffee is great." — capitalised only because it starts the sentence
        if any(ch.isdigit() for ch in name) and not any(ch.isalpha() for ch in name):
            continue
        end = offset + len(text[offset:].split(words[-1], 1)[0]) + len(words[-1])
        found.append(Entity(text[offset:end], kind, (offset, end)))
    return found


def _chinese_entities(text: str) -> list[Entity]:
    runs = list(CJK_RUN.finditer(text))
    if not runs:  # no Chinese: do not load jieba's dictionaries (a second of a CLI query)
        return []
    posseg = posseg_module()
    found: list[Entity] = []
    for run in runs:
        pos = run.start()
        words: list[str] = []
        for pair in posseg.cut(run.group()):
            word, flag = pair.word, pair.flag
            words.append(word)
            kind = _POS_TYPES.get(flag)
            if kind == "person" and not (word[0] in _SURNAMES or word.startswith(_COMPOUND_SURNAMES)):
                kind = None
            if kind is not None and len(word) > 1:
                found.append(Entity(word, kind, (pos, pos + len(word))))
            pos += len(word)
        found += _addressed(words, run.start(), {e.span for e in found})
    return found


def _addressed(words: list[str], offset: int, taken: set[tuple[int, int]]) -> list[Entity]:
    """People called by their surname (老王, 小陈, 老欧) among jieba's ``words`` of a run of Han characters starting
    at ``offset``, which it tags as something else or cuts in two."""
    out, pos = [], offset
    for i, word in enumerate(words):
        pair = (
            word if len(word) == 2 else word + words[i + 1] if i + 1 < len(words) and len(word) == 1 else ""
        )
        if (
            len(pair) == 2
            and pair[0] in _ADDRESS_PREFIXES
            and pair[1] in _SURNAMES
            and (len(word) == 2 or len(words[i + 1]) == 1)
            and pair not in _NOT_ADDRESSED
            and (pos, pos + 2) not in taken
        ):
            out.append(Entity(pair, "person", (pos, pos + 2)))
        pos += len(word)
    return out


def extract_entities(text: str) -> list[Entity]:
    """Named entities of ``text`` (Chinese and English), in text order, duplicates kept."""
    entities = _chinese_entities(text) + _english_entities(text)
    return sorted(entities, key=lambda e: e.span)


def normalize_entity_name(name: str) -> str:
    """Canonical form of an entity name for deduplication.

    Full-width → half-width, NFKC, case fold, strip, inner whitespace collapsed
    ("  ＯｐｅｎＡＩ  Inc " → "openai inc").
    """
    folded = unicodedata.normalize("NFKC", fold_width(name)).casefold()
    return re.sub(r"\s+", " ", folded).strip()
