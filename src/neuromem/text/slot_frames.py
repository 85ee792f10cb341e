"""A value change found by the statement frame, for any statement shape (issue 21 item 1).

The templates of :mod:`neuromem.text.slots` read a slot out of statements of known shapes. This
module finds a change of value between two statements of *any* shape by what they share and what
differs between them, aligned word by word (``slots._align_tokens``):

- **the frame agrees** — the statements share a content word or a value ("shift", "shared drive
  password", 女儿, "Olive & Thyme"), or their stored vectors are close (cosine ≥
  :data:`FRAME_COSINE`: "I drink my coffee with milk" / "I take my coffee black now");
- **the subject agrees** — the newer statement names no person the older one does not ("my wife",
  "my kids'", 我姐姐的闺蜜): "My dentist is Dr. Alvarez" and "My kids' dentist is Dr. Moreau" are two
  slots (with no shared word, neither may name a person the other does not);
- **the value differs** — each statement holds a word the other lacks, and not only the wording
  differs around the same numbers (else it is a restatement);
- **the newer one says so** — an explicit change or ending ("switched", "got promoted", "rotated",
  "had the baby", "No, …", 不是了, 升入, 改, 换, 退休, 走了): strong evidence of one slot whose old value
  ends (arity ``single``). Without such words the frames decide nothing (the templates of ``slots``
  may still: "my shift starts at 3pm" is no change by itself).

Never a change: a question, an addition ("also", "too", 也, 还, 又), a statement about the past or a plan,
a request, a wish, a feeling or an opinion ("I'm looking for a new tripod", "I'm excited to start", 推荐),
a text longer than one statement (:data:`FRAME_MAX_WORDS` words, :data:`FRAME_MAX_CHARS_ZH` characters),
a relation that holds many values (allergies, likes, children, languages: ``slots._arity``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .corrections import denies_what_was_said, restated_value
from .slots import (
    _ADDITIVE,
    _CHANGE_ZH,
    _DROPPED_ADJ,
    _ENDING_EN,
    _ENDING_ZH,
    _FROM_TO,
    _LEAD_EN,
    _LEAD_ZH,
    _MULTI_EN,
    _MULTI_ZH,
    _PAST_EN,
    _PAST_ZH,
    _STRONG_CHANGE_EN,
    _UNIT_WORDS,
    PEOPLE_EN,
    PEOPLE_ZH,
    ValueChange,
    _align_tokens,
    _arity,
    _ends_another_subject,
    _ends_something_else,
    _fold,
    _stem,
    moved_from,
    object_said,
    proper_names,
    said_stems,
)
from .spans import is_question
from .stopwords import STOPWORDS
from .tokenize import tokenize

_MULTI_WORDS = frozenset({*_MULTI_EN, *(_stem(w) for w in _MULTI_EN)})

#: Two statements whose stored vectors are at least this close share a frame even without a shared word
FRAME_COSINE = 0.9
#: A frame is one statement: a longer text (a turn of several sentences) is not compared word by word
FRAME_MAX_WORDS = 20
FRAME_MAX_CHARS_ZH = 40

# an event that ends or replaces a state, said without a change word: "got promoted", "had the baby",
# "elected Nadia president", "wiped it and installed …", "shipped 2.4", "after the reorg …"
_EVENT_EN = re.compile(
    r"\b(?:got (?:promoted|demoted|engaged|married|divorced|rotated|reassigned|transferred|fired|laid off|hired)|"
    r"promoted|demoted|rotated|elected|appointed|voted in|pushed (?:back|forward)|brought forward|rescheduled|"
    r"wiped|reinstalled|installed|shipped|released|had (?:the|a|her|his|their) baby|gave birth|graduated|"
    r"after the (?:reorg|raise|move|merger|promotion|restructuring|switch|change)|took over|handed over|"
    r"turns out|finally got|got (?:my|his|her|their) own)\b",
    re.IGNORECASE,
)
_EVENT_ZH = re.compile(
    r"升入|升学|升为|升任|当选|选了|选上|重装|转到|转去|改上|改去|改用|改考|改签|走了|退了|毕业|"
    r"买了新|剪短|剪了|染成|换工作|不是了|没有了|不了(?:[，,。]|$)|提前到|推迟到|延期到|延长到"
)
# a short answer that takes back what was asked: "No, we're back in the office", 不是了，…
_DENIAL = re.compile(
    r"^(?:no|nope|not anymore|not any more)\b[,.!\s]|^(?:不是了|没有了|不了|不是|没有)[，,。！!\s]",
    re.IGNORECASE,
)
_FUTURE_EN = re.compile(
    r"\b(?:will|'ll|going to|gonna|plan(?:ning)? to|about to|hope to|want to|might|thinking (?:of|about)|"
    r"considering|someday|one day)\b",
    re.IGNORECASE,
)
_FUTURE_ZH = re.compile(r"打算|准备|将要|将会|想要|想搬|要搬|考虑")
# a request, a wish, a feeling or an opinion states no value of a slot ("I'm looking for a new tripod",
# "I'm excited to start", "I think …", 我想找…, 推荐); a recommendation someone made ("a friend recommended them")
# is told, not asked for
_NO_VALUE_EN = re.compile(
    r"\b(?:looking (?:for|to|forward)|i'?d (?:like|love)|i would (?:like|love)|i want|i wish|"
    r"i hope|excited|i think|i guess|i feel|feeling|wondering|interested in|curious|"
    r"recommend(?!ed\b)\w*|suggest(?!ed\b)\w*|advice|tips|ideas|help me|can you|could you|please|thanks|"
    r"thank you|let me|let's|i'll|i will)\b"
    # a request that opens on what the assistant should do: "Ok but include facts about her birth …"
    r"|^(?:(?:ok|okay|so|but|and|now|great|also)[,!.]?\s+)*(?:include|write|make|give|tell|show|list|explain|"
    r"describe|create|generate|summari[sz]e|translate|rewrite|find|draft)\b",
    re.IGNORECASE,
)
_NO_VALUE_ZH = re.compile(r"想找|想要|想问|请问|推荐|建议|帮我|能不能|可以吗|谢谢|觉得|希望|感觉|期待")


# words that say when, not what: a statement whose other words are these and units names no thing of its own
_TIME_WORDS = frozenset(
    [
        "今年",
        "去年",
        "明年",
        "今天",
        "昨天",
        "夏天",
        "冬天",
        "春天",
        "秋天",
        "这个",
        "最近",
        "下周",
        "上周",
        "学期",
    ]
)


def change_evidence(text: str) -> str | None:
    """The words of ``text`` that say a value changed or ended, or None."""
    m = _change_match(text)
    return None if m is None else m.group().strip(" ,，")


#: Acts that replace what someone has, said without a word of change: "took me off it and put me on losartan", "threw
#: it out and got …", 转学去了, 调去了上海, 提额到五万, 改打胰岛素, 搬出来; a turn that corrects what was just asked for
#: ("Oh, make it an oat latte", "Actually make that 8:15", 算了，…). Read only to order two statements recall found
#: about as close to a question (:func:`replacement_evidence`): as evidence that ends a fact at write time they join
#: too much (孩子转学去了… / 孩子9月4日开学; 一月份我调去了上海总部 / 我周一去上海出差)
_REPLACING_EN = re.compile(
    r"\b(?:took (?:me|him|her|them|us) off|put (?:me|him|her|them|us) on|threw (?:it|them|that|those) (?:out|away)|"
    r"traded (?:it|them) in|went with|withdrew from|dropped out of|lately|a new|"
    r"since (?:moving|switching|starting|joining|changing|the (?:move|switch|change))\b)"
    r"|\bno more (?!than\b)"  # "no more parkrun for me"
    r"|\b(?:discharged|transferred|seconded) to\b|\bput [a-z]+ on (?:a|an)\b"  # "The vet's put Pickle on a … diet"
    r"|\bshifted (?:me|him|her|them|us|it)\b"
    # "We've gone artificial this year", "I've gone part-time": a way of doing it taken up in place of another
    r"|\b(?:'ve|have|'s|has) gone (?!(?:to|back|out|for|and|off|over|through|up|down|into|on|in|home|away|missing|"
    r"quiet|wrong|well|badly|a|an|the|my|our|by|past|round|around|with|from|again|now|so|too|very)\b)[a-z][a-z-]+\b"
    r"|^new [a-z]+(?: [a-z]+)?:"  # "New goal: …", "New number: …"
    r"|^(?:(?:oh|actually|no|sorry|wait|ok|okay|hmm)\b[,!.]?\s*)*make (?:it|that) (?!to\b|up\b|work\b|happen\b)",
    re.IGNORECASE,
)
_REPLACING_ZH = re.compile(
    r"转学|调去|调往|提额|降额|改(?:打|吃|喝|坐|骑|开|住|在|练|学|做|读|看|送|去|走|用|上)|压到|砍到|缩减到|"
    r"(?:最后|最终)(?:还是)?(?:定了|选了|决定)|"  # 最后还是定了岩板: a choice made at last
    r"不[\u4e00-\u9fff]了|"  # 半马不跑了: a state said to stop
    r"(?:推|延|挪)到|"  # 家长会推到七点半: a time moved
    r"搬出(?:来|去)|"  # 这学期搬出来在学校附近租了个单间: moved out of where one lived
    r"^算了[，,]"  # 算了，…定到七点十分吧: what was asked for taken back
)


def replacement_evidence(text: str) -> str | None:
    """The words of ``text`` that say a value changed (:func:`change_evidence`) or that someone replaced what
    they had (:data:`_REPLACING_EN`, :data:`_REPLACING_ZH`), or None."""
    found = change_evidence(text)
    if found is not None:
        return found
    m = (_REPLACING_ZH if re.search(r"[\u4e00-\u9fff]", text) else _REPLACING_EN).search(_fold(text))
    return None if m is None else m.group()


#: Words that put one value in another's place: "changed it to Mondays", "switched to …", "… instead", 改成, 换成
_SWAPS_EN = re.compile(
    r"\b(?:changed|switched|swapped|moved|shifted)\b(?:\s+[\w'-]+){0,3}?\s+(?:to|for)\b|\binstead\b|\breplaced\b",
    re.IGNORECASE,
)
_SWAPS_ZH = re.compile(r"改成|改为|换成|换为|换到|改到|调到|调成|变成|变为")


def swaps_a_value(text: str) -> bool:
    """``text`` says a value was put in another's place (:data:`_SWAPS_EN`, :data:`_SWAPS_ZH`): the days of a
    schedule, the subjects chosen — a set of values changed as one, which a question for many still asks once."""
    return bool((_SWAPS_ZH if re.search(r"[\u4e00-\u9fff]", text) else _SWAPS_EN).search(_fold(text)))


@lru_cache(maxsize=8192)
def _change_match(text: str) -> re.Match[str] | None:
    """Where in ``_fold(text)`` the words that say a change are (:func:`change_evidence`)."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    patterns = (_CHANGE_ZH, _ENDING_ZH, _EVENT_ZH) if zh else (_STRONG_CHANGE_EN, _ENDING_EN, _EVENT_EN)
    for pattern in (*patterns, _FROM_TO, _DENIAL):
        m = pattern.search(_fold(text))
        if m:
            return m
    return None


#: Words that open a noun phrase: a statement led by one names the thing it speaks of
_DETERMINERS_EN = frozenset(
    {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that", "these", "those"}
)
#: After a change word, the thing a person changed: "our internet", "my dentist appointment", "all my accounts"
#: (lower-case words: a capitalised one is a name, a value: "renamed the cat Biscuit")
_CHANGED_THING_EN = re.compile(
    r"\s*(?:all\s+)?(?:my|our|his|her|their|its|the)\s+(?P<np>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)"
    r"(?=\s+(?:to|for|into|with|over|from|at|on|in|back|up|down)\b|\s*[,.;!]|\s+[A-Z0-9]|\s*$)"
)
#: Someone acting on the speaker, at the end of the words before a change or as the change words themselves:
#: 医生让我 | 停了, 银行给我 | 提额, "my cardiologist | took me off", "my doctor | switched me to …"
_ACTS_ON_SPEAKER = re.compile(
    r"(?:让|给|帮|替|叫|要|把|安排)我们?的?\s*$|^\w+(?:\s+(?:up|down|over|back))?\s+(?:me|us)\b|\b(?:me|us)\s*$",
    re.IGNORECASE,
)
#: Parts of speech (jieba's flags) of the words that name a thing: nouns of every kind, shortened names (j: 工行,
#: 北大) and Latin words
_THING_TAGS_ZH = ("n", "j", "eng")


@lru_cache(maxsize=8192)
def names_another_thing(new: str, old: str) -> bool:
    """``new`` says a change of a thing it names before its change words, and ``old`` names none of that
    thing's words: "Our internet bill went up to 45 a month" speaks of another thing than "The rent is 1,200
    a month", 健身房搬到了人民路 than 我的牙医是吴医生, 去机场的大巴现在6点40发车 than 我去成都的航班8点15起飞.
    A statement led by a pronoun, a verb or its change words names no thing of its own ("I bike to work now",
    "Wiped it and installed Fedora", 不是了，最近都八点才起, 我现在不吃素了): False. So is one whose first words are
    someone acting on the speaker: they name who changed the speaker's thing, not another thing ("My cardiologist
    took me off it …", 医生让我停了那个药, 银行给我提额到五万了: :data:`_ACTS_ON_SPEAKER`)."""
    m = _change_match(new)
    if m is None:
        return False
    folded = _fold(new)
    head = folded[: m.start()]
    if _ACTS_ON_SPEAKER.search(head) or _ACTS_ON_SPEAKER.match(f"{m.group()} {folded[m.end() :].lstrip()}"):
        return False
    content, values = _align_tokens(old)
    said = content | values
    if re.search(r"[\u4e00-\u9fff]", new):
        from ._jieba import posseg_module

        tagged = [(w.word, w.flag) for w in posseg_module().cut(head) if w.word.strip(" ,，。")]
        if tagged and tagged[0][1].startswith("r"):  # 我们公司, 我的车: the thing after the pronoun
            tagged = tagged[1:]
            while tagged and tagged[0][0] == "的":
                tagged = tagged[1:]
            if not tagged or not tagged[0][1].startswith(_THING_TAGS_ZH):
                return False  # 我现在不吃素了, 我把…: a person's own statement
        thing = {w.casefold() for w, flag in tagged if flag.startswith(_THING_TAGS_ZH) and len(w) >= 2}
        folded_old = _fold(old).casefold()
        return bool(thing) and not (thing & said) and not any(w in folded_old for w in thing)
    words = re.findall(r"[\w'’-]+", head.casefold())
    if words and words[0] in _DETERMINERS_EN:  # "Our internet bill went up …"
        thing = set().union(*_align_tokens(head))
        return bool(thing) and not (thing & said)
    # "We switched our internet to …", "I moved my dentist appointment to …": the thing it changes, whose last
    # word (its head) the older statement does not say
    obj = _CHANGED_THING_EN.match(folded[m.end() :])
    if obj is None:
        return False
    heads = _align_tokens(obj.group("np").split()[-1])[0]
    return bool(heads) and not (heads & said)


#: zh: a state said to stop, 不 + a verb + 了 ("公司前台不收了", "那家店不开了"), beside the endings of ``slots``
_STOPPED_ZH = re.compile(r"不[\u4e00-\u9fff]{1,2}了")
#: An older statement that lists values ("peanuts and shellfish", 花生和海鲜): an ending of one is no end of it
_LIST_EN = re.compile(r"\w,\s*\w[^.]*\band\b|\b\w+\s+(?:and|&)\s+\w+", re.IGNORECASE)
_LIST_ZH = re.compile(r"[\u4e00-\u9fffA-Za-z](?:和|、|跟|以及|还有)[\u4e00-\u9fffA-Za-z]")
#: Tokens on either side of a zh ending where the thing it ends may stand (公司前台 | 不收了, 不再 | 用 | Windows)
ENDED_THING_REACH_ZH = 3


@lru_cache(maxsize=8192)
def ends_its_value(new: str, old: str) -> ValueChange | None:
    """``new`` ends what ``old`` says by naming it right at its ending words — the thing of ``old`` is the
    object of the ending ("Cancelled the Times, I read the Guardian online now" / "I'm subscribed to the
    Times"; "I quit smoking" / "I smoke a pack a day"; "I stopped going to FitOne" / "My gym is FitOne") or, in
    Chinese, stands beside it in its clause (公司前台不收了 / 快递都寄到公司前台; 我不再用Windows了). The negation
    of issue 21 item 1: the older fact ends (arity ``single``), whatever its relation — it names the value that
    ends — unless it lists several ("I'm allergic to peanuts and shellfish": one of them may end), the newer one
    adds ("also") or the two name other people (:func:`same_people`, strict), or either holds no value
    (:func:`states_a_value`)."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    if (
        not states_a_value(new, old)
        or not same_people(new, old, strict=True)
        or _ADDITIVE.search(_fold(new))
        or (_LIST_ZH if zh else _LIST_EN).search(_fold(old))
    ):
        return None
    folded = _fold(new)
    ending = (_ENDING_ZH.search(folded) or _STOPPED_ZH.search(folded)) if zh else _ENDING_EN.search(folded)
    if ending is None:
        return None
    # en: "Cancelled the Times" ends the Times, when the older one says it
    thing = _ended_thing_zh(folded, ending, old) if zh else object_said(new, ending, old)
    if thing is None:
        return None
    return ValueChange(thing, thing, "", "single", f"'{ending.group().strip()}' ends {thing!r}")


def _ended_thing_zh(folded: str, ending: re.Match[str], old: str) -> str | None:
    """The thing beside a zh ending in its clause (a noun or a Latin word, at most
    :data:`ENDED_THING_REACH_ZH` tokens away) that ``old`` says too."""
    from ._jieba import posseg_module

    start = max(folded.rfind(p, 0, ending.start()) for p in "，,。；;！!") + 1
    stop = min((i for p in "，,。；;！!" if (i := folded.find(p, ending.end())) >= 0), default=len(folded))
    before = [w for w in posseg_module().cut(folded[start : ending.start()]) if w.word.strip()]
    after = [w for w in posseg_module().cut(folded[ending.end() : stop]) if w.word.strip()]
    near = before[-ENDED_THING_REACH_ZH:] + after[:ENDED_THING_REACH_ZH]
    folded_old = _fold(old).casefold()
    for w in near:
        word = w.word.casefold()
        if (
            w.flag.startswith(_THING_TAGS_ZH)
            and (len(word) >= 2 or w.flag == "eng")
            and (word in folded_old or _abbreviated_in(word, old))
        ):
            return w.word
    return None


def _abbreviated_in(short: str, text: str) -> bool:
    """``short``, two characters, is the usual shortening of a name of four or more in ``text``: its first character
    and one of the later ones (工行 for 工商银行, 北大 for 北京大学, 农行 for 农业银行)."""
    return len(short) == 2 and any(w[0] == short[0] and short[1] in w[1:] for w in _long_words_zh(text))


@lru_cache(maxsize=4096)
def _long_words_zh(text: str) -> tuple[str, ...]:
    """The words of four characters or more in ``text`` (cut once per text: the older statement is read for every
    word beside an ending)."""
    from ._jieba import posseg_module

    return tuple(w.word for w in posseg_module().cut(text) if len(w.word) >= 4)


@lru_cache(maxsize=8192)
def _ends(text: str, zh: bool) -> bool:
    return bool((_ENDING_ZH if zh else _ENDING_EN).search(_fold(text)))


def _multi(word: str, zh: bool) -> bool:
    """A word of a relation that holds many values (the lexicon of ``slots``, not the plural rule: these are stems)."""
    return _arity(word, zh=True) == "multi" if zh else bool({word, _stem(word)} & _MULTI_WORDS)


#: Words for one person said two ways: "grandma" is "grandmother"
_KIN_SYNONYMS_EN = {
    "grandma": "grandmother",
    "grandpa": "grandfather",
    "grandad": "grandfather",
    "granddad": "grandfather",
    "mom": "mother",
    "mum": "mother",
    "dad": "father",
    "auntie": "aunt",
    "nan": "grandmother",
    "gran": "grandmother",
    "granny": "grandmother",
}
_BOTH_PARENTS = frozenset({"mother", "father"})
#: A person named by a pronoun: "We moved her to Oak Park" speaks of the one person the older statement names
_THIRD_PERSON_EN = re.compile(r"\b(?:she|he|her|him|his)\b", re.IGNORECASE)
_THIRD_PERSON_ZH = re.compile(r"[他她](?!们)")


#: A leading clause that dates what the speaker says by someone else's happening: "Since the baby arrived I'm up at
#: 5:30", "After my son was born, I …", 孩子出生后我五点就得起来了. The person in it is a time, not whom it is about
_TIME_CLAUSE_EN = re.compile(
    r"^(?:ever\s+)?(?:since|after|when|once)\b[^,;.]{1,60}?,?\s+(?=i\b|i'm\b|we\b)", re.IGNORECASE
)
_TIME_CLAUSE_ZH = re.compile(r"^[^，,。；;]{1,12}?(?:以后|之后|后|以来)[，,]?(?=我)")


#: zh: one word for a person (:data:`PEOPLE_ZH`), the longest that fits
_PERSON_ZH = re.compile(rf"[二三四五六七八九]?(?:{'|'.join(sorted(PEOPLE_ZH, key=len, reverse=True))})")


@lru_cache(maxsize=8192)
def _people(text: str, zh: bool) -> frozenset[str]:
    """The words for people ``text`` names (``slots.PEOPLE_EN`` / ``PEOPLE_ZH``), but in a leading clause that
    only dates the statement (:data:`_TIME_CLAUSE_EN`)."""
    folded = _undated(_fold(text).casefold(), zh)
    if zh:  # 二姨 and 三姨 are two people: a number before the word is part of it; 姐夫 is not 姐
        return frozenset(m.group() for m in _PERSON_ZH.finditer(folded))
    words = frozenset(
        w.removesuffix("'s").removesuffix("'") for w in re.findall(r"[a-z]+(?:-in-laws?)?(?:'s|')?", folded)
    )  # "my mother-in-law" is not "my mother"
    people = frozenset(_KIN_SYNONYMS_EN.get(w, w) for w in words & PEOPLE_EN)
    return people - _BOTH_PARENTS | {"parents"} if people >= _BOTH_PARENTS else people  # "Mum and Dad"


def _people_meant(new: str, old: str, zh: bool, *, owners: bool = False) -> frozenset[str]:
    """The people ``new`` names, a pronoun standing for the one person ``old`` names when it names none: "We
    moved her to Oak Park Montessori" / "My daughter's school is Lincoln Elementary"; with ``owners``, also the
    people whose thing ``new`` names without saying whose (:func:`_owners_of_what_it_names`)."""
    after, before = _people(new, zh), _people(old, zh) - _people(new, zh)
    if not after and len(before) == 1 and (_THIRD_PERSON_ZH if zh else _THIRD_PERSON_EN).search(_fold(new)):
        return _people(old, zh)
    after = after | _named_by_name(new, old, zh)
    return after | _owners_of_what_it_names(new, old, zh) if owners else after


def _named_by_name(new: str, old: str, zh: bool) -> frozenset[str]:
    """The people ``old`` names with their name ("my cousin Ana", 老公叫志刚) when ``new`` says that name: "我和志刚
    五月份办完了离婚手续" speaks of the husband."""
    folded_new = _fold(new)
    return frozenset(
        _KIN_SYNONYMS_EN.get(kin.casefold(), kin.casefold())
        for kin, name in _kin_and_names(old, zh)
        if name in folded_new
    ) & _people(old, zh)


def _kin_and_names(text: str, zh: bool) -> list[tuple[str, str]]:
    """Each word for a person (or a pet) in ``text`` with the name it goes by: "cousin Ana", "our dog Juno",
    老公叫志刚, 闺蜜小雪."""
    if zh:
        return [(m.group(1), m.group(2) or m.group(3)) for m in _KIN_NAMED_ZH.finditer(_fold(text))]
    return [(kin, name) for kin, name in _KIN_NAMED_EN.findall(_fold(text)) if name[0].isupper()]


def _undated(text: str, zh: bool) -> str:
    """``text`` without a leading clause that only dates it (:data:`_TIME_CLAUSE_EN`)."""
    return (_TIME_CLAUSE_ZH if zh else _TIME_CLAUSE_EN).sub("", text, count=1)


#: A person's thing in Chinese, by its first two characters: 儿子期末考试, 我妈的手机
_OWNED_ZH = re.compile(rf"({'|'.join(PEOPLE_ZH)})的?([\u4e00-\u9fff]{{2}})")
#: A person's thing: "my kid's bedtime", "my son's school"
_OWNED_EN = re.compile(r"\b([a-z]+)'s\s+([a-z]+)")


def _owners_of_what_it_names(new: str, old: str, zh: bool) -> frozenset[str]:
    """The people whose thing ``old`` names ("My kid's bedtime is 8 pm") when ``new`` names that thing ("We moved
    bedtime to 7:30"; 儿子期末考试在7月3号 / 期末考提前到6月28号): ``new`` speaks of their thing without saying
    whose. For recall's ordering only (:func:`one_thing`): at write time it ended "My daughter's school is
    Lincoln Elementary" by "We moved bedtime to 7:30 since school started"."""
    if zh:
        folded_new = _fold(new)
        return frozenset(
            who for who, thing in _OWNED_ZH.findall(_fold(old)) if who in PEOPLE_ZH and thing in folded_new
        )
    words = set(re.findall(r"[a-z]+", _fold(new).casefold()))
    owned = _OWNED_EN.findall(_fold(old).casefold())
    return frozenset(
        _KIN_SYNONYMS_EN.get(who, who) for who, thing in owned if who in PEOPLE_EN and thing in words
    )


def states_a_value(new: str, old: str) -> bool:
    """Both texts are statements that can hold a value (module docstring: not a question, an addition,
    the past, a plan, a request or a feeling, nor longer than one statement)."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    return (
        zh == bool(re.search(r"[\u4e00-\u9fff]", old))
        and not _not_a_claim(new, zh)
        and not _not_a_claim(old, zh)
    )


#: A statement whose subject is the speaker: "I …", "We …", 我…, 我们… (after a leading time word or two)
_SPEAKER_FIRST = re.compile(
    r"^(?:(?:now|today|recently|lately|so|well|actually|and|but),?\s+)*(?:i|we)(?:'m|'ve|'d|'ll)?\b"
    r"|^(?:现在|最近|后来|今年|所以)?[，,]?我(?!的|们的|家)",
    re.IGNORECASE,
)


SPEAKER = "\x00speaker"  # the subject of a statement the speaker makes of themself (``_subject``)
#: A name that opens a statement and then acts ("Sam changed gyms", "Priya's team moved"): its subject. Not a
#: name: a capitalised word that opens most statements without one ("Got promoted", "After the reorg …")
_NAMED_SUBJECT_EN = re.compile(
    r"^(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?P<owner>'s)?\s+(?P<next>[a-z]+)",
)
_NOT_A_NAME_EN = frozenset(
    [
        "got",
        "just",
        "still",
        "also",
        "now",
        "finally",
        "recently",
        "today",
        "yesterday",
        "lately",
        "then",
        "so",
        "but",
        "and",
        "after",
        "since",
        "from",
        "last",
        "next",
        "this",
        "that",
        "every",
        "each",
        "both",
        "all",
        "some",
        "no",
        "yes",
        "sadly",
        "luckily",
        "actually",
        "apparently",
        "turns",
        "my",
        "our",
        "the",
        "a",
        "an",
        "his",
        "her",
        "their",
        "its",
        "your",
        "we",
        "i",
        "they",
        "he",
        "she",
        "it",
        "you",
        "there",
        "here",
        "someone",
        "somebody",
        "everyone",
        "everybody",
        "nobody",
        "people",
        "one",
    ]
)
#: After a name, the words that make it the one who acts (a verb in the past or third person, or one of these);
#: "Dana is our new CTO" names the value, not the subject
_ACTING_EN = frozenset(
    [
        "got",
        "has",
        "had",
        "just",
        "now",
        "finally",
        "recently",
        "also",
        "never",
        "still",
        "went",
        "left",
        "quit",
        "became",
        "began",
        "took",
        "made",
    ]
)
_COPULAS_EN = frozenset({"is", "was", "are", "were", "has", "'s"})


#: A statement that speaks of the speaker's own thing somewhere ("mine is 2298 now", 我的)
_SPEAKS_OF_SPEAKER = re.compile(r"\b(?:i|i'm|i've|me|my|mine|we|our|ours|us)\b|我", re.IGNORECASE)


#: Someone or something of ours, his, hers or theirs that acts ("Our drummer quit …", "Their landlord sold …")
_OWNED_SUBJECT_EN = re.compile(r"^(?:our|his|her|their)\s+(?P<noun>[a-z]+)\s+(?P<next>[a-z]+)", re.IGNORECASE)


#: A first statement about something of "ours" that is no person ("Our band rehearses …", "Our lease runs …")
_OURS_EN = re.compile(r"^our\s+(?P<noun>[a-z]+)\b", re.IGNORECASE)
_WE_EN = re.compile(r"^(?:[a-z]+,?\s+)?we\b", re.IGNORECASE)


def _ours_and_we(new: str, old: str) -> bool:
    """One statement speaks of a thing of ours that is no person, the other of what "we" do: the speaker's group
    both times ("Our band rehearses in Kev's garage" / "We rent a rehearsal room at Soundbox now"). For recall's
    ordering only (:func:`same_people` with ``asides``): at write time it ended "Our office has a branch in
    Dublin" by "I quit smoking"."""
    folded = [_fold(t).casefold() for t in (new, old)]
    ours = [m.group("noun") for t in folded if (m := _OURS_EN.match(t))]
    return (
        len(ours) == 1
        and ours[0] not in PEOPLE_EN
        and not ours[0].endswith(("er", "or", "ist", "ian", "ant", "ent"))  # a manager, a doctor: a person
        and any(_WE_EN.match(t) for t in folded)
    )


def _acts(word: str) -> bool:
    """A word after a subject that makes it the one who acts: a verb in the past or third person (not a copula)."""
    return word in _ACTING_EN or (word.endswith(("ed", "s")) and word not in _COPULAS_EN and len(word) > 3)


@lru_cache(maxsize=8192)
def _subject(text: str, zh: bool) -> str | None:
    """Who a statement is about, when its first words tell: :data:`SPEAKER` ("I …", "My gym …", 我…, 我的…), a
    name that acts (:data:`_NAMED_SUBJECT_EN`; zh: a person's name, jieba's ``nr``, first), else None."""
    folded = _fold(text)
    if _SPEAKER_FIRST.match(folded) or re.match(r"^(?:my\b|我的)", folded, re.IGNORECASE):
        return SPEAKER
    if zh:
        from ._jieba import posseg_module

        first = next((w for w in posseg_module().cut(folded) if w.word.strip()), None)
        return first.word if first is not None and first.flag == "nr" and len(first.word) >= 2 else None
    owned = _OWNED_SUBJECT_EN.match(folded)
    if owned is not None and _acts(owned.group("next")):
        return owned.group("noun").casefold()  # "Our drummer quit the band": the drummer
    m = _NAMED_SUBJECT_EN.match(folded)
    if m is None or m.group("name").split()[0].casefold() in _NOT_A_NAME_EN:
        return None
    acts = _acts(m.group("next"))
    return m.group("name").casefold() if m.group("owner") or acts else None


def _other_subjects(new: str, old: str, zh: bool) -> bool:
    """The two statements are about two subjects: each names its own (the speaker, or a name that acts) and
    neither names the other's ("Sam changed gyms …" / "My gym is FitOne"; "Tom left, Rachel is my manager now" /
    "My manager is Tom" share Tom: one subject)."""
    a, b = _subject(new, zh), _subject(old, zh)
    if a is None or b is None or a == b:
        return False
    other = _fold(new if b == SPEAKER else old)
    if SPEAKER in (a, b) and _SPEAKS_OF_SPEAKER.search(_OWNED_SUBJECT_EN.sub("", other, count=1)):
        return False  # "Facilities reassigned extensions, mine is 2298 now": the speaker's thing after all
    return not any(x != SPEAKER and _names_subject(x, other) for x, other in ((a, old), (b, new)))


def _names_subject(subject: str, text: str) -> bool:
    """``text`` names ``subject``: its words, or its word for a person not followed by another name ("Aunt Rosa" /
    "my aunt's phone", never "my aunt Maria's phone")."""
    folded = _fold(text)
    if subject in folded.casefold():
        return True
    kin = [w for w in subject.split() if w in PEOPLE_EN]
    return bool(kin) and all(re.search(rf"\b(?i:{'|'.join(_said_as(k))})\b(?!\s+[A-Z])", folded) for k in kin)


def _said_as(kin: str) -> list[str]:
    """The words for the person ``kin`` names: "grandma" and "grandmother" (:data:`_KIN_SYNONYMS_EN`)."""
    canonical = _KIN_SYNONYMS_EN.get(kin, kin)
    return [canonical, *(w for w, c in _KIN_SYNONYMS_EN.items() if c == canonical)]


@lru_cache(maxsize=8192)
def same_people(
    new: str, old: str, *, strict: bool = False, owners: bool = False, asides: bool = False
) -> bool:
    """The newer statement names no person the older one does not ("my wife", "my kids'": another
    subject), nor another subject than the older one's (:func:`_other_subjects`); ``strict``, or when the newer
    one's subject is the speaker ("I left Paris" / "My sister lives in Paris"): nor the older one a person the
    newer one does not. ("Mei's husband is Kenji" → "Mei divorced Kenji …" names the husband by his value: the
    subjects agree.) ``owners``: as :func:`_people_meant`; ``asides``: a person the newer one names only after its
    first clause is not counted (:func:`_aside_people`)."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    if _other_subjects(new, old, zh) and not (asides and _ours_and_we(new, old)):
        return False  # "Sam changed gyms, he goes to IronWorks now" says nothing of "My gym is FitOne"
    before, after = _people(old, zh), _people_meant(new, old, zh, owners=owners)
    if asides:
        after -= _aside_people(new, zh)
    missing = before - after
    if strict or (missing and _SPEAKER_FIRST.match(_fold(new)) and missing - _copula_value_people(old, zh)):
        return not before ^ after  # "I left Paris" says nothing of "My sister lives in Paris"
    return not after - before


#: The verb of a statement "X is Y" (X是Y), before the value it gives
_COPULA_EN = re.compile(r"\b(?:is|are|was|were)\b")


def _copula_value_people(text: str, zh: bool) -> frozenset[str]:
    """The people a statement "X is Y" names only as its value, after the verb: "My emergency contact at work is my
    mum" is not of the mum, and "I've changed my emergency contact to my partner" may replace her."""
    parts = re.split("是" if zh else _COPULA_EN, _fold(text).casefold(), maxsplit=1)
    return _people(parts[1], zh) - _people(parts[0], zh) if len(parts) == 2 else frozenset()


#: Where a statement's first clause ends: "Ledgerline is handling my tax return this year, a friend recommended them"
_CLAUSE_END_EN = re.compile(r"[;:—]|,\s(?!\d)|\.\s")
_CLAUSE_END_ZH = re.compile(r"[，,；;：:。]")


#: A leading clause that says who told it: 领导说…, 医生说…, "My boss said …", "The vet told me …"
_REPORTED_ZH = re.compile(r"^[\u4e00-\u9fff]{1,6}?(?:说|告诉我|通知)[，,：:]?")
_REPORTED_EN = re.compile(
    r"^(?:my |the |our |his |her )?[a-z]+ (?:said|says|told me|tells me|mentioned)(?: that)?,?\s+",
    re.IGNORECASE,
)


def _aside_people(text: str, zh: bool) -> frozenset[str]:
    """The people ``text`` names in passing: only after its first clause ("…, a friend recommended them",
    我老公辞职了，跟朋友合伙开了家奶茶店), as who told it (领导说周报提前到每周四), or in its first clause only where
    the thing it speaks of went to or was done with them, not as whose thing it is (:func:`_people_acted_on`: "The
    parcel got delivered to my neighbour", 拆迁款打到我爸卡上了). For recall's ordering only (:func:`one_thing`)."""
    folded = _fold(text)
    told = (_REPORTED_ZH if zh else _REPORTED_EN).match(folded)
    said = folded[told.end() :] if told else folded
    first = (_CLAUSE_END_ZH if zh else _CLAUSE_END_EN).split(said, maxsplit=1)[0]
    return _people(text, zh) - (_people(first, zh) - _people_acted_on(first, zh))


#: en: a person after a preposition, with at most a determiner or an adjective between ("delivered to my
#: neighbour", "swapped with a neighbour"), or after a verb that acts on them, with a determiner ("HR has my
#: neighbour Gwen down as …", "Met our upstairs neighbour …")
_AFTER_PREPOSITION_EN = re.compile(
    r"\b(?:(?:to|with|from|for|by|beside|under)\s+(?:(?:my|our|a|an|the|his|her|their|new|old)\s+){0,2}"
    r"|(?:has|have|had|met|hired|asked|named|made|put)\s+(?:my|our|a|an|the|his|her|their)\s+)"
    r"(?P<who>[a-z]+(?:\s+(?!(?:to|with|from|for|by|beside|under)\b)[a-z]+)?)\b(?!')",  # "with HR to my partner"
    re.IGNORECASE,
)


#: en: a person whose place a thing went to or is at: "shifted the lot into my brother's garage", "at my mum's": the
#: place is the value, the person no owner of the thing
_PLACE_OF_EN = re.compile(
    r"\b(?:in|into|at|to|from)\s+(?:my|our|his|her|their|the)\s+(?P<who>[a-z]+)'s\b", re.IGNORECASE
)


#: zh: the person a cause names, told in passing: 我姐姐因为姐夫工作调动搬去了重庆 is of the sister
_CAUSE_ZH = re.compile(rf"(?:因为|由于)[我你他她]?的?(?P<who>{_PERSON_ZH.pattern})")


def _people_acted_on(clause: str, zh: bool) -> frozenset[str]:
    """The people a statement's first ``clause`` names only after its first verb (zh, jieba's flags: 拆迁款打到我爸卡上了)
    or after a preposition (en: "delivered to my neighbour", "into my brother's garage"), and not before: the thing went to them or was done with
    them; they are not whose thing it is nor who acts (我老公现在坐公交上班, "My son's blood type …")."""
    if zh:
        from ._jieba import posseg_module

        opening = ""
        for w in posseg_module().cut(clause):
            if w.flag.startswith("v") and w.flag != "vn":
                break
            opening += w.word
        cause = frozenset(m.group("who") for m in _CAUSE_ZH.finditer(clause))
        return _people(clause, zh) - (_people(opening, zh) - cause)
    found = [*_AFTER_PREPOSITION_EN.finditer(clause), *_PLACE_OF_EN.finditer(clause)]
    after = " ".join(m.group("who") for m in found)
    rest = _PLACE_OF_EN.sub(" ", _AFTER_PREPOSITION_EN.sub(" ", clause))
    return _people(after, zh) - _people(rest, zh)


#: Words that open a clause of what follows from the one before: "…, so I'm on the afternoon slot now", 所以…
_CONSEQUENCE_EN = re.compile(r"^(?:so|and|but|then|and then|which means)\s+", re.IGNORECASE)
_CONSEQUENCE_ZH = re.compile(r"^(?:所以|于是|结果|但是?|不过)")
#: A clause that tells when or why, not what is: "Before he retired, …", 因为…
_SUBORDINATE_EN = re.compile(
    r"^(?:before|after|when|once|since|until|till|if|because|as|although|though|while)\b", re.IGNORECASE
)
_SUBORDINATE_ZH = re.compile(r"^(?:因为|由于|如果|虽然|等到?|之前|以前)")
#: Where a clause ends, for :func:`change_clauses`: not at the colon of a time ("the 7:50 train")
_CHANGE_CLAUSE_END_EN = re.compile(r"[;—]|:(?!\d)|,\s(?!\d)|\.\s")
#: "Already" says a state holds, not that it changed (又种了两盆小番茄，已经挂果了)
_ALREADY = re.compile(r"已经|\balready\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def change_clauses(text: str) -> tuple[str, ...]:
    """The clauses of ``text``, when it has more than one, that say a change (:func:`replacement_evidence`, not only
    "already": :data:`_ALREADY`), add no value (:func:`adds_a_value`) and do not only tell when or why
    (:data:`_SUBORDINATE_EN`), without the word that ties each to the one before: "The repair firm rang, he's stuck
    on another job, so I'm on the afternoon slot now, 1 to 5" → "I'm on the afternoon slot now, 1 to 5";
    下午班主任打电话说…，给他调到了最后一排. The reason told before a change ("another job", "my dad") is not what
    changed. For recall's ordering only; remembered, since every pair of a search asks it of its newer text."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    clauses = [c.strip() for c in (_CLAUSE_END_ZH if zh else _CHANGE_CLAUSE_END_EN).split(text) if c.strip()]
    if len(clauses) < 2:
        return ()
    lead, subordinate = (_CONSEQUENCE_ZH, _SUBORDINATE_ZH) if zh else (_CONSEQUENCE_EN, _SUBORDINATE_EN)
    out: list[str] = []
    for clause in clauses:
        said = _ALREADY.sub("", clause)
        words = replacement_evidence(said)
        if (
            words is not None
            and _fold(said).replace(words, "").strip(" ,，。.!！")  # more than its change words: not 不用了
            and not subordinate.match(clause)
            and not adds_a_value(clause)
        ):
            out.append(lead.sub("", clause))
    return tuple(out)


def one_statement_long(text: str) -> bool:
    """``text`` is no longer than one statement (:data:`FRAME_MAX_WORDS` words, :data:`FRAME_MAX_CHARS_ZH` characters
    of Chinese): not a turn that tells many things."""
    t = _fold(text)
    zh = bool(re.search(r"[\u4e00-\u9fff]", t))
    return len(t) <= FRAME_MAX_CHARS_ZH if zh else len(t.split()) <= FRAME_MAX_WORDS


@lru_cache(maxsize=8192)
def _not_a_claim(text: str, zh: bool) -> bool:
    return not one_statement_long(_fold(text)) or _says_no_claim(text, zh)


def _says_no_claim(text: str, zh: bool, *, additions: bool = True) -> bool:
    """Whatever its length, ``text`` is a question, an addition (unless not ``additions``), a request or a feeling,
    the past or a plan."""
    t = _fold(text)
    if is_question(t) or (additions and _ADDITIVE.search(t)):
        return True
    if (_NO_VALUE_ZH if zh else _NO_VALUE_EN).search(t):
        return True
    if zh:
        return bool(_PAST_ZH.search(t) or _FUTURE_ZH.search(t))
    return bool(_PAST_EN.search(t) or _FUTURE_EN.search(t))


# the object a Chinese change names: 把X换成…, or X said first and the speaker after it (X我换成了…)
_CHANGED_OBJECT_ZH = re.compile(
    r"把(?P<ba>[^，。！？,!?把]{2,10}?)(?:换|改|调|设|升级|更新|转|挪)"
    r"|^(?P<topic>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)我们?(?:也|又|已经|刚|都|就)*(?:换|改|调|设|升级|更新|转|挪)"
)


def _changes_its_own_object_zh(new: str, old: str, old_content: frozenset[str]) -> bool:
    """``new`` names the thing it changes (:data:`_CHANGED_OBJECT_ZH`), a thing, not the speaker, of which ``old``
    says no word."""
    m = _CHANGED_OBJECT_ZH.search(_fold(new))
    if m is None:
        return False
    obj = re.sub(r"^(?:我们?|你|他|她)的?", "", m.group("ba") or m.group("topic"))
    if len(obj) < 2:
        return False  # 把我改签到了…: the speaker
    from ._jieba import posseg_module

    things = {
        w.word for w in posseg_module().cut(obj) if w.flag.startswith(_THING_TAGS_ZH) and len(w.word) >= 2
    }
    # 从下周开始我改上…: a time, not a thing
    return bool(things) and not (_align_tokens(obj)[0] & old_content) and not any(w in old for w in things)


def _open_on_two_things_zh(new: str, old: str) -> bool:
    """Each statement opens on a thing (:func:`_opening_things_zh`, past the speaker's words that say which one) of
    which the other says no word: 电表箱… / 我家水表…, 小区消防检查… / 我家燃气…安检. Not a newer one that opens on the
    speaker acting or names them acted on (我重装成了Ubuntu / 我的笔记本装的是Windows 10, 公司调整座位，我被安排到了七楼 / 我的
    工位在三楼): what changed is theirs, and may go unsaid."""
    if re.match(r"^我们?(?![家的])", new) or re.search(r"我们?被|[把让给帮替叫将]我", new):
        return False
    mine = _opening_things_zh(_after_which_one_zh(re.sub(r"^我们?(?:家|的)*", "", new)))
    theirs = _opening_things_zh(_after_which_one_zh(re.sub(r"^我们?(?:家|的)*", "", old)))
    return (
        bool(mine)
        and bool(theirs)
        and not any(w in old or _abbreviated_in(w, old) for w in mine)
        and not any(w in new or _abbreviated_in(w, new) for w in theirs)
    )


def _own_things(content: frozenset[str]) -> frozenset[str]:
    """The aligned words that name a thing: neither a time (:data:`_TIME_WORDS`) nor a unit or period."""
    return content - _TIME_WORDS - _UNIT_WORDS


def _amount(text: str) -> bool:
    return bool(re.search(r"\d", text))


@lru_cache(maxsize=8192)
def answers_alike(new: str, old: str) -> bool:
    """Whether ``new`` may give another value of what ``old`` says, as far as the texts tell (recall's
    ``truth.answer_alike`` adds the query's closeness to both): both are statements of a value
    (:func:`states_a_value`), they name the same people both ways (:func:`same_people`, strict), neither
    speaks of a relation that holds many values (allergies, likes, children, languages), and they do not
    qualify a noun both name apart (:func:`qualified_apart`: 我们公司的团建 / 隔壁部门的团建)."""
    return _answers_with_a_value(new, old) and one_thing(new, old) and not qualified_apart(new, old)


def answers_in_turn(new: str, old: str) -> bool:
    """:func:`answers_alike`, whatever the arity of what the two speak of: for putting two statements in time order,
    which ends no value. A relation of many ("I'm a Manchester United fan" / "I switched to supporting Brighton",
    我早上习惯泡一杯龙井 / 早上一杯熟普) may still have one value at a time; when it has many, the newer first leaves
    every one true."""
    return _one_statement_of_the_same(new, old) and _answers_with_a_value(new, old) and not _adds(new)


def _one_statement_of_the_same(new: str, old: str) -> bool:
    """``new`` is one statement long, names the same people as ``old`` (people named in passing aside), and qualifies
    no noun both name apart: what :func:`answers_in_turn` and :func:`answers_one_more` ask of the texts alike."""
    return (
        one_statement_long(new)
        and same_people(new, old, owners=True, asides=True)
        and not qualified_apart(new, old)
    )


def answers_one_more(new: str, old: str) -> bool:
    """:func:`answers_in_turn`, but ``new`` may add one more value ("Another wobbly one came out …, so that's three
    baby teeth gone", 上周又加仓了一千股招行，一共三千股了): a count or a list that grew is newer first; neither is
    marked, since both may still hold. Both one statement long, and they share a word of what grew (扣了6分 /
    一共扣了9分): "I'm also allergic to cats" is no more of "My shift starts at 7am"."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    return (
        zh == bool(re.search(r"[\u4e00-\u9fff]", old))
        and bool(_stems(new) & _stems(old))
        and not _says_no_claim(new, zh, additions=False)
        and not _not_a_claim(old, zh)
        and _one_statement_of_the_same(new, old)
    )


#: A plan made, not one thought about ("I was thinking of listening to audiobooks", 考虑): 打算, 准备, "planning to"
_FIRM_PLAN_EN = re.compile(r"\b(?:plan(?:ning)? to|going to|gonna|about to)\b", re.IGNORECASE)
_FIRM_PLAN_ZH = re.compile(r"打算|准备|计划")


def answers_after_a_plan(new: str, old: str) -> bool:
    """``old`` is a plan made (:data:`_FIRM_PLAN_EN`, :data:`_FIRM_PLAN_ZH`), and ``new``, one statement long, says what became of it or a plan
    made since, of the same people, asking and requesting nothing (我家阳台准备封窗 / 弄好了，装的断桥铝…; 客厅打算铺
    瓷砖 / 看了样板间，又想铺木地板了): a plan is answered by what was said of it later."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    folded_new, folded_old = _fold(new), _fold(old)
    return (
        zh == bool(re.search(r"[\u4e00-\u9fff]", old))
        and bool((_FIRM_PLAN_ZH if zh else _FIRM_PLAN_EN).search(folded_old))
        and one_statement_long(folded_old)
        and not is_question(folded_new)
        and not (_NO_VALUE_ZH if zh else _NO_VALUE_EN).search(folded_new)
        and not _adds(new)
        and _one_statement_of_the_same(new, old)
    )


def _answers_with_a_value(new: str, old: str) -> bool:
    """:func:`states_a_value`, but the newer statement read for recall's ordering: its first clause (zh: sentence) when
    it is longer than one statement but not than two ("All the family photos live on a Synology box in the hall
    cupboard, I got fed up …"; a longer turn tells many things), and without the words that name the value it
    replaced ("the old place went gastro", 之前那个阿姨回老家了: :data:`_REPLACED_VALUE_EN`), which say the older one
    ended, not that the newer one is past."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    said = _REPLACED_VALUE_ZH.sub("", new) if zh else _REPLACED_VALUE_EN.sub("", new)
    if not one_statement_long(said) and _two_statements_long(said, zh):
        if _says_no_claim(said, zh):
            return False  # "I've been researching models, and I think I'll end up getting …": a plan, whole
        said = _fold(said)
        said = (_SENTENCE_END if zh else _CLAUSE_END_EN).split(
            (_LEAD_ZH if zh else _LEAD_EN).sub("", said), maxsplit=1
        )[0]
    return states_a_value(said, old)


def _two_statements_long(text: str, zh: bool) -> bool:
    t = _fold(text)
    return len(t) <= 2 * FRAME_MAX_CHARS_ZH if zh else len(t.split()) <= 2 * FRAME_MAX_WORDS


#: The words of a newer statement that name the value it replaced: "our old walker", "the old place", 之前那个阿姨,
#: 原来那家
_REPLACED_VALUE_EN = re.compile(
    r"\b(?:the|our|my|his|her|their)\s+(?:old|previous|former)\s+[a-z]+(?:'s)?", re.IGNORECASE
)
_REPLACED_VALUE_ZH = re.compile(r"(?:之前|原来|以前)(?:那|的那)[个位家只辆]?")
#: Where a Chinese sentence ends
_SENTENCE_END = re.compile(r"[。！？；;!?]")


@lru_cache(maxsize=8192)
def one_thing(new: str, old: str) -> bool:
    """``new`` and ``old`` may speak of one thing of one value, as far as their words tell: they name the same
    people both ways (:func:`same_people`, strict), ``new`` adds nothing ("also", "too", 也, 还), and neither
    speaks of a relation that holds many values (allergies, likes, children, languages). A person both name is
    whom they are about, not a relation's value (:func:`_whom_both_name`): 我家孩子在阳光幼儿园 /
    孩子转学去了实验小学附属幼儿园, 我姐姐住在成都 / 我姐姐…搬去了重庆, "My cousin Ana is a student" / "Ana graduated …".
    The newer one may leave out whose thing it speaks of: "My kid's bedtime is 8 pm" / "We moved bedtime to
    7:30" (:func:`_owners_of_what_it_names`), and name people in passing after its first clause
    (:func:`_aside_people`)."""
    if not same_people(new, old, owners=True, asides=True) or _adds(new):
        return False
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    whom = _whom_both_name(new, old, zh) | _aside_people(new, zh)
    words = (_align_tokens(_undated(new, zh))[0] | _align_tokens(old)[0]) - whom - {_stem(w) for w in whom}
    return not any(_many_word(w, zh) for w in words if not (zh and any(p in w for p in whom)))


#: zh: 爱 + a verb: a liking, a relation of many (爱吃, 爱看), where 爱 inside a name is not (爱康国宾)
_LOVES_TO_ZH = re.compile(r"爱[吃喝看玩听唱跳逛读写画穿买做养弹拉打踢]")


def _many_word(word: str, zh: bool) -> bool:
    """:func:`_multi`, but a one-character Chinese word of the lexicon (爱) inside a longer word only before a verb
    (爱吃), not inside a name (爱康国宾)."""
    if zh and len(word) > 1 and not any(len(m) > 1 and m in word for m in _MULTI_ZH):
        return bool(_LOVES_TO_ZH.search(word))  # 爱吃 is a liking; 爱康 a name
    return _multi(word, zh)


#: Words that take back an "also" of ``slots._ADDITIVE`` for ordering what recall found: "moved to another flat",
#: 又开始吃鱼 tell a change, not one more value (at write time they would end too much: 又开始 / 今年开始); 也 before a
#: verb of change tells the speaker changed too (我也被调去带高二的语文了, like the others told before); 又 before
#: a word of change or of a notice tells one more change (今天又通知，班车改在…; 又改到, 又换了, 又搬, 又被调去), and 又想 a
#: mind changed again (看了样板间，又想铺木地板了)
_REPLACED_BY_ANOTHER = re.compile(
    r"\bto another\b|又开始|又(?=通知|被?(?:改|换|搬|调|涨|降|挪)|想)|也(?=被?(?:调|换|改|搬|转))"
)


def _adds(new: str) -> bool:
    """``new`` adds a value ("also", "too", 也, 还) rather than replacing one."""
    folded = _fold(new)
    return bool(_ADDITIVE.search(_REPLACED_BY_ANOTHER.sub(" ", folded)))


#: Beside ``slots._ADDITIVE``, words that put one more value in a list: "Add Octavia Butler to my favourite
#: authors", "I added magnesium", "My favourite authors include …", "a second branch", "She's joined the church flower
#: rota on top of that", 还会拉大提琴, 还开始收藏…, 再加一片
_ADDED = re.compile(
    r"\b(?:add|adds|added|adding|include|includes|including|plus|a second|one more|on top of (?:that|this|it))\b"
    r"|还[会在有学养买要报开]|再加|又加",
    re.IGNORECASE,
)


def adds_a_value(new: str) -> bool:
    """``new`` puts one more value beside the ones said before ("also", "added", "include", 还会): of such a
    statement the older one is not an earlier value. 还在 before a verb says "still doing" (老师们还在开会), not
    "also at" (还在健身房办了卡)."""
    folded = _fold(new)
    if "还在" in folded:
        folded = _still_doing_zh(folded)
    return _adds(folded) or bool(_ADDED.search(folded))


def adds_a_value_to(new: str, old: str) -> bool:
    """``new`` puts one more value beside ``old``'s (:func:`adds_a_value`). Of a story longer than one statement
    (:func:`one_statement_long`) only the clauses that share a word with ``old`` are read, when some do: "… the coach
    emailed to say training's moving to Thursday evenings while the pitch is relaid, so I've had to rejig the school
    run as well" puts nothing beside "My son's football training is on Tuesday evenings". A statement one long is
    read whole ("We adopted a retired greyhound as well, she's called Dot")."""
    if not adds_a_value(new):
        return False  # no clause of it adds one either: the clauses are read only when the whole adds
    if one_statement_long(new):
        return True
    shared = _stems(old)
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    clauses = (_CLAUSE_END_ZH if zh else _CHANGE_CLAUSE_END_EN).split(new)
    about = [c for c in clauses if _stems(c) & shared]
    return any(adds_a_value(c) for c in about) if about else True


def _stems(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in tokenize(text))


@lru_cache(maxsize=4096)
def _still_doing_zh(text: str) -> str:
    """``text`` without each 还在 that jieba reads before a verb: 老师们还在开会 says a thing goes on, it adds no value."""
    from ._jieba import posseg_module

    words = [(w.word, w.flag) for w in posseg_module().cut(text)]
    return "".join(
        "" if (word in ("还", "在") and _still_at(words, n)) else word for n, (word, _) in enumerate(words)
    )


def _still_at(words: list[tuple[str, str]], n: int) -> bool:
    """The word at ``n`` is the 还 or the 在 of 还在 + a verb."""
    start = n if words[n][0] == "还" else n - 1
    return (
        start >= 0
        and start + 2 < len(words)
        and words[start][0] == "还"
        and words[start + 1][0] == "在"
        and words[start + 2][1].startswith("v")
    )


#: A word for a person and the name it goes by: 老公叫志刚, 我闺蜜小雪
_KIN_NAMED_ZH = re.compile(
    rf"({'|'.join(PEOPLE_ZH)})(?:(?:名字)?叫([\u4e00-\u9fff]{{2}})|([小老阿][\u4e00-\u9fff]))"
)
#: Animals a household names: "our dog Juno"
_PETS_EN = ("dog", "cat", "puppy", "kitten", "horse", "rabbit", "parrot", "hamster", "tortoise")
#: A word for a person or a pet followed by a name: "cousin Ana", "Aunt Rosa", "our dog Juno"
_KIN_NAMED_EN = re.compile(
    rf"\b({'|'.join(sorted({*PEOPLE_EN, *_PETS_EN}))})\s+([A-Z][a-z]+)\b", re.IGNORECASE
)


def _whom_both_name(new: str, old: str, zh: bool) -> frozenset[str]:
    """The words for a person (or a pet) both statements name, directly or by the name that follows it in one of
    them ("my cousin Ana" / "Ana …", "Our dog Juno weighs 31 kg" / "Vet weighed Juno at 27 kg"): whom the two are
    about."""
    both = _people_meant(new, old, zh, owners=True) & _people(old, zh)
    if zh:
        return both
    named = {
        kin.casefold()
        for text, other in ((new, old), (old, new))
        for kin, name in _kin_and_names(text, zh)
        if re.search(rf"\b{name}\b", other)
    }
    return frozenset(both | named)


#: Words that end what follows them ("withdrew from the CPA", "no longer with Chase", 不在美团) or what precedes
#: them ("Mochi didn't suit her", "Chase is history"): a value named to say it is over
_ENDS_BEFORE = (
    r"(?:withdrew from|dropped out of|quit|left|cancel+ed|sold|dropped|stopped|ditched|no longer(?: at| with| in| use)?"
    r"|(?:stopped|quit|gave up) [a-z]+ing(?: to| at| with| in| on)?"  # "We've stopped going to Messy Church"
    r"|not (?:at|with|in|using) |不在|不用|退了|离开了?|辞了|卖了)\s*(?:the |my |our )?"
)
_ENDS_AFTER = (
    r"\s*(?:didn't|doesn't|did not|does not|isn't|wasn't|is no longer|is history|is over|不行了|不用了|退了)"
)


def ends_what_it_repeats(new: str, old: str) -> bool:
    """Every value of ``old`` that ``new`` says again it names to say it is over: "I withdrew from the CPA, I'm
    doing a CFA level 1 instead" / "I'm studying for the CPA exam", "We renamed the cat Biscuit, Mochi didn't
    suit her" / "My cat is called Mochi". Such a statement repeats the old value to end it, not to restate it
    (:func:`repeats_values`)."""
    said = _align_tokens(old)[1] & _align_tokens(new)[1]
    folded = _fold(new)
    return bool(said) and all(
        re.search(
            rf"{_ENDS_BEFORE}(?-i:[A-Z][\w'-]*\s+){{0,2}}{re.escape(v)}|{re.escape(v)}{_ENDS_AFTER}",
            folded,
            re.IGNORECASE,
        )  # "stopped going to Messy Church": a name of two words ended whole
        for v in said
    )


def repeats_values(new: str, old: str) -> bool:
    """``new`` says again every value ``old`` gives (its numbers, names, Latin words inside zh), and ``old``
    gives one: a restatement ("我当老师12年了" / "我教书已经有12年了"), not a new value."""
    old_v, new_v = _align_tokens(old)[1], _align_tokens(new)[1]
    return bool(old_v) and old_v <= new_v


def frame_change(new: str, old: str, *, cosine: float | None = None) -> ValueChange | None:
    """How ``new`` changes the value ``old`` gives to one slot, found by the frames (module docstring),
    or None. ``cosine``: of the two statements' stored vectors, when known."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    if not states_a_value(new, old):
        return None
    old_c, old_v = _align_tokens(old)
    new_c, new_v = _align_tokens(new)
    away = moved_from(new)
    old_c, old_v = old_c - away, old_v - away
    shared = (old_c & new_c - _UNIT_WORDS) | (old_v & new_v)  # a unit shared names no thing
    if not shared and (cosine is None or cosine < FRAME_COSINE):
        return None  # nothing says they are about one thing
    people = _people(old, zh)
    if not same_people(new, old, strict=not (old_c & new_c or old_v & new_v)):
        return None  # another subject (with close vectors alone: the same people both ways)
    many = {w for w in shared if _multi(w, zh) and w not in people}
    ending = change_evidence(new) is not None and _ends(new, zh)
    if many and (not (ending and shared - many) or (_LIST_ZH if zh else _LIST_EN).search(_fold(old))):
        # allergies, likes: another value is an addition ("my daughter" is whom it is about); an ending of a
        # thing both name besides ("the band broke up, I'm not playing gigs anymore" / "I play … in a cover band")
        # ends that thing, but "I don't play golf anymore" ends nothing of "I play tennis", nor "no longer allergic
        # to shellfish" the peanuts of "allergic to peanuts and shellfish"
        return None
    gone, came = (old_c | old_v) - (new_c | new_v), (new_c | new_v) - (old_c | old_v)
    numbers = re.findall(r"\d+", old)
    if not gone or not came or (numbers and sorted(numbers) == sorted(re.findall(r"\d+", new))):
        return None  # nothing of the old value is left out, or nothing new is said: a restatement
    if zh and not shared and _own_things(new_c) and _own_things(old_c) and _amount(new) and _amount(old):
        # two amounts or times, each of a thing only its own statement names (房租每月3800 / 网费涨到了每月120,
        # 航班8点15起飞 / 大巴6点40发车); "减到了70公斤" names none: its amount is of the old one's unit
        return None
    if not shared and zh and _changes_its_own_object_zh(new, old, old_c):
        return None  # 手机套餐我换成了联通 / 我的工资卡在招商银行: close vectors, but the change names its own object
    if not shared and zh and _open_on_two_things_zh(new, old):
        return None  # 电表箱现在挪到了一楼大厅 / 我家水表在楼道东边的柜子里: close vectors, two things
    if shared and _of_its_value(new, old, shared):
        return None  # the newer one speaks of the older one's value: the next link of a chain, not one slot
    anchor = " ".join(sorted(shared))[:80] or "(close frames)"
    evidence = change_evidence(new)
    ending_match = None if zh else _ENDING_EN.search(_fold(new))
    if (
        ending_match is not None
        and not _STRONG_CHANGE_EN.search(_fold(new))
        and (_ends_something_else(new, ending_match, old) or _ends_another_subject(new, ending_match, old))
    ):
        return None  # "I stopped drinking coffee in the morning" ends the coffee, not "I go running every morning"
    if _qualified_apart(new, old, shared) or _of_a_shared_thing(new, old, shared) or subjects_apart(new, old):
        return None
    if evidence is not None and not (old_c & new_c or old_v & new_v) and _ends(new, zh):
        return None  # an ending ends what it names: a word the old statement shares, not a close vector
    if (
        evidence is not None
        and not zh
        and not (old_c & new_c) - proper_names(old, new)
        and (cosine is None or cosine < FRAME_COSINE)
    ):
        return None  # only a name is shared: one person or place, not one slot (see ``slots.proper_names``)
    if evidence is not None:
        return ValueChange(
            anchor,
            " ".join(sorted(gone))[:80],
            " ".join(sorted(came))[:80],
            "single",
            f"'{evidence}' about {anchor!r} (frame)",
        )
    return None


#: Words before a noun that say which one, not what kind ("my new password", "the current plan")
_NOT_QUALIFIERS_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "his",
        "her",
        "their",
        "its",
        "your",
        "new",
        "old",
        "current",
        "same",
        "this",
        "that",
        "first",
        "last",
        "next",
        "previous",
    ]
)


#: A word before a noun that tells what was done to it, not which kind it is: "reassigned extensions", "reset codes"
_ACTED_EN = re.compile(r"\w{3,}ed|reset|set|cut|put|got|made")


def _qualified_apart(new: str, old: str, shared: frozenset[str] | set[str]) -> bool:
    """Each statement qualifies a noun both name with a word the other does not say, and in the older one that
    noun is the subject, before its copula: two kinds of one thing ("I changed my email password" / "My WiFi
    password is orca77"), as ``slots._named_apart`` tells for claims — not a new value ("Got promoted to senior
    designer" / "I'm a junior designer")."""
    if re.search(r"[\u4e00-\u9fff]", new + old):
        return _modified_apart_zh(new, old, shared)
    wn = re.findall(r"[\w'-]+", _fold(new).casefold())
    wo = re.findall(r"[\w'-]+", _fold(old).casefold())
    names = {
        w.casefold() for w in re.findall(r"(?<!^)\b[A-Z][\w'-]*", _fold(new))
    }  # "the Cedar room": a value
    copula = next((i for i, w in enumerate(wo) if w in _COPULAS_EN or w.endswith(("'s", "'m", "'re"))), None)
    if copula is None:
        return False

    def qualifiers(words: list[str], head: str, before: int) -> set[str]:
        return {
            words[i - 1]
            for i, w in enumerate(words[:before])
            if i > 0
            and _stem(w) == head
            and words[i - 1].isalpha()
            and words[i - 1] not in names
            and words[i - 1] not in _NOT_QUALIFIERS_EN
            and words[i - 1] not in STOPWORDS
            and (
                w.endswith("ing") or not _ACTED_EN.fullmatch(words[i - 1])
            )  # "IT reassigned extensions": an act
        }

    for head in shared:
        qn, qo = qualifiers(wn, head, len(wn)), qualifiers(wo, head, copula)
        if qn and qo and not qn & set(wo) and not qo & set(wn):
            return True
    return _owners_apart(wn, wo)


#: Where a statement's opening noun phrase ends: a copula, a preposition, a verb of its subject
_PHRASE_END_EN = re.compile(
    r"(?:is|are|was|were|has|have|had|on|at|in|of|for|with|to|from|by|now|still|\w+[^su\W]s|\w{3,}ed)",
    re.IGNORECASE,  # "opens", not "dress", "bus"
)
_DETERMINERS = frozenset({"the", "a", "an", "my", "our", "his", "her", "their", "your", "its"})


def _subject_phrase(text: str) -> list[str]:
    """The words of the noun phrase a statement opens with after its determiner ("The post office on Kings Road
    …" → ["post", "office"]); [] when it opens otherwise ("I …", a verb, a name)."""
    words = re.findall(r"[\w'-]+", text)
    if not words or words[0].casefold() not in _DETERMINERS:
        return []
    phrase: list[str] = []
    for word in words[1:]:
        if _PHRASE_END_EN.fullmatch(word) and phrase:
            break
        phrase.append(word)
    return phrase


def _subject_head(text: str) -> str | None:
    """The last word of the noun phrase a statement opens with, when it is a common noun ("The pharmacy on Kings
    Road opens at 8" → "pharmacy"; "The post office on …" → "office"); None when it opens otherwise ("I …", a
    verb, a name)."""
    phrase = _subject_phrase(text)
    head = phrase[-1] if phrase else ""
    return head.casefold() if head.isalpha() and head.islower() else None


def subjects_apart(new: str, old: str) -> bool:
    """Each statement opens on a thing of its own that the other never names: "The pharmacy on Kings Road opens
    at 8" / "The post office on Kings Road has changed its opening time to 9:30" — two things in one street.
    For the write side only (a missed end is caught at recall, a false one loses a value): at recall it kept
    apart "My electricity plan is with Octopus at 28p" / "The unit rate dropped to 24p"."""
    if re.search(r"[\u4e00-\u9fff]", new + old):
        return False
    new, old = _fold(new), _fold(old)
    a, b = _subject_head(new), _subject_head(old)
    if a is None or b is None or _stem(a) == _stem(b):
        return False
    return _stem(a) not in said_stems(old) and _stem(b) not in said_stems(new)


#: Words of a noun phrase that say which value, not which thing: "Dad's new number", "the current rate"
_WHICH_VALUE_EN = _DROPPED_ADJ | {"usual", "old", "next", "same"}
#: The speaker, anywhere in a statement: a thing that acts on or for them may be what changed their value ("The
#: revaluation moved our house up to band D", "The surgery assigned me to Dr Khan")
_SPEAKER_EN = re.compile(r"\b(?:me|my|mine|our|ours|us|him)\b", re.IGNORECASE)
_SPEAKER_ZH = re.compile(r"[把让给帮替叫将](?:我|他|她|它)|我们?的")  # or someone acted on: 老师把他调到…
#: A statement that opens on the speaker as the one who acts: "I've reset …", "We moved …"
_SPEAKER_OPENS_EN = re.compile(r"^(?:i|i've|i'd|we|we've|we'd)\b", re.IGNORECASE)
#: zh: the speaker who acts on the thing named next (我把银行卡密码改成了…): the thing is what the statement opens on
_BA_OPENING_ZH = re.compile(r"^我们?(?:已经|刚刚?|又|也|都)*把")
#: zh: who acted, before 把 and the thing they acted on (物业把门禁升级了): the thing is what the statement opens on
_ACTOR_BA_ZH = re.compile(r"^[\u4e00-\u9fff]{1,6}?把")
#: zh: a first clause that tells who said what follows: 儿子放学回来说，…
_TOLD_ZH = re.compile(r"^[^，,。；;]{1,12}?(?:说|告诉我|通知)[，,：:]")
#: The speaker as the owner of the thing a statement opens on ("My car insurance renews …", 我家厨房…): the
#: statement still opens on a thing
_OWNED_OPENING = re.compile(r"^(?:my|our)\s+|^我们?[的家]?", re.IGNORECASE)
#: zh: a clause of the speaker's that says which one the statement opens on (我常去的那家按摩店, 我们住的小区): the thing
#: is the noun after it
_WHICH_ONE_ZH = re.compile(r"^我们?[\u4e00-\u9fff]{1,5}?的(?:那|这)?[家个所位间]?(?=[\u4e00-\u9fff]{2})")


def _acted_on_part(new: str, zh: bool) -> str:
    """Where in ``new`` the speaker may be named as acted on or as an owner of what was acted on (:func:`asked_apart`):
    past its owned opening ("My car insurance …") and, in English, past the subject of its copula — "The letting agent
    for our flat is Foxtons" names the speaker as the owner of the thing it opens on."""
    rest = _OWNED_OPENING.sub("", new)
    subject = None if zh else _COPULA_SUBJECT_EN.match(rest)
    return rest if subject is None else rest[subject.end() :]


def _after_which_one_zh(text: str) -> str:
    """``text`` without the clause of the speaker's that opens it and says which one (:data:`_WHICH_ONE_ZH`), when
    the clause has a verb (常去, 住): 我们公司的食堂 keeps its owner."""
    from ._jieba import posseg_module

    m = _WHICH_ONE_ZH.match(text)
    if m is None or not any(w.flag.startswith("v") for w in posseg_module().cut(m.group())):
        return text
    return text[m.end() :]


#: zh: the parts of speech (jieba's flags) that end the words a statement opens with: a verb, a preposition
_OPENING_END_ZH = ("v", "p", "d")


@lru_cache(maxsize=4096)
def asked_apart(query: str, new: str, old: str) -> bool:
    """``new`` and ``old`` open on two things, and the ``query`` asks about ``old``'s: ``new`` opens on words
    neither ``old`` nor the ``query`` says, and leaves out words of ``old``'s opening thing that the ``query``
    says. "Which fob is the front door key on?": "Our front door key is on the red fob" / "The shed key now lives
    on the blue fob"; "我的身份证放在哪？": 我的身份证放在抽屉最上层 / 户口本现在放到保险柜里了. A reporter is not the
    thing ("学校发通知，期末考提前到…"), nor is a time clause (上次行李丢了以后，…); a ``new`` that names the speaker
    as the one acted on or as an owner, but of the thing it opens on ("My car insurance …"), may tell what acted
    on their value ("The revaluation moved our house up to band D", 物业把我的车位换到了…): False. A ``new`` that opens on the speaker acting names the thing
    they changed ("I've reset the burglar alarm code to 5164"). For recall, where the query says which thing is
    meant (the write side has no query: ``subjects_apart``)."""
    if denies_what_was_said(new, old):
        return False  # "Sorry, not Hampton Manor — Hampton Court House": of the older one's thing
    zh = bool(re.search(r"[\u4e00-\u9fff]", new + old))
    new, old = _fold(restated_value(new)), _fold(old)  # "My bad, …" is no thing
    if _periods_apart(query, new, old):
        return True
    if (_SPEAKER_ZH if zh else _SPEAKER_EN).search(_acted_on_part(new, zh)):
        return False
    if zh:
        new = _TOLD_ZH.sub("", _REPORTED_ZH.sub("", _TIME_CLAUSE_ZH.sub("", new)))
        if _opens_on_the_older_words_zh(query, new, old):
            return False
        own = [
            w
            for w in _opening_things_zh(_ACTOR_BA_ZH.sub("", new))
            if w not in old and w not in query and replacement_evidence(w) is None
        ]  # 食堂午饭涨价了, 现在改练轮滑了: 涨价, 改练 tell the change, they are no thing of their own
        asked = [
            w
            for w in _opening_things_zh(_after_which_one_zh(old))
            if w in query and w not in new and not (w.endswith("家") and w[:-1] in new)
        ]  # 我舅舅家种了… / 舅舅把地全改种了…: the home of a person the newer one names is theirs
        return bool(own) and bool(asked)
    new = _REPORTED_EN.sub("", _TIME_CLAUSE_EN.sub("", new))
    said_old, said_new, said_query = said_stems(old), said_stems(new), said_stems(query)
    own_en = (_opening_stems_en(new) | _changed_thing_stems_en(new)) - said_old - said_query
    asked_en = (_opening_stems_en(old) & said_query) - said_new
    return bool(own_en) and bool(asked_en)


#: The shortest opening of a newer statement that, said in the older one, makes it speak of the older one's thing
_OLDER_OPENING_ZH = 2
_PRONOUN_ZH = "我你您他她它咱"


def _opens_on_the_older_words_zh(query: str, new: str, old: str) -> bool:
    """``new`` opens on words ``old`` says after the thing it opens on, and the ``query`` does not, no pronoun: it
    speaks of ``old``'s value (安吉那边民宿一间都订不上，行政改成去溧阳了 after 我们部门这次团建定在安吉), not of a
    thing of its own. Words both open on are whose thing it is (公司的考勤表 / 公司的报销单), not a value."""
    opening = new[:_OLDER_OPENING_ZH]
    if (
        len(opening) < _OLDER_OPENING_ZH
        or opening[0] in _PRONOUN_ZH
        or not re.fullmatch(r"[\u4e00-\u9fff\w]+", opening)
        or opening in query
    ):
        return False
    things = [at + len(w) for w in _opening_things_zh(old) if (at := old.find(w)) >= 0]
    return old.find(opening, max(things, default=0)) >= 0


#: What a statement of the shape "X is Y" / X是Y names before its verb: the thing it gives a value (at most
#: eight words, twelve characters)
_COPULA_SUBJECT_EN = re.compile(r"^(?P<subject>(?:[\w'&-]+\s+){0,7}?[\w'&-]+?)\s+(?:is|are|was|were)\s+")
_COPULA_SUBJECT_ZH = re.compile(r"^(?P<subject>[^，,。；;！!？?]{1,12}?)(?<![不就还可但总要也都只])是")


def _copula_subject(text: str) -> frozenset[str]:
    """The words of the thing a statement "X is Y" (X是Y) gives a value, but for words that say whose or which value
    ("my", "new", 我的): "My flight back from Rome is on Thursday" → flight, back, Rome; 从三亚回来的航班是周四 →
    从, 三亚, 回来, 航班. Empty for another shape."""
    folded = _fold(text)
    zh = bool(re.search(r"[\u4e00-\u9fff]", folded))
    m = (_COPULA_SUBJECT_ZH if zh else _COPULA_SUBJECT_EN).match(folded)
    if m is None:
        return frozenset()
    if zh:
        from ._jieba import cut_precise

        return frozenset(
            w for w in cut_precise(m.group("subject")) if w not in _NOT_MODIFIERS_ZH and w.strip()
        )
    return frozenset(
        _stem(w.removesuffix("'s").casefold())
        for w in re.findall(r"[\w'&-]+", m.group("subject"))
        if w.casefold() not in STOPWORDS and w.casefold() not in _WHICH_VALUE_EN
    )


@lru_cache(maxsize=4096)
def asks_the_newer_kind(query: str, old: str, new: str) -> bool:
    """Both are statements "X is Y" of one thing (their subjects share a word), and the ``query`` says a word of the
    ``new`` one's subject that ``old`` never says: it asks about the newer one's kind of the thing, and the older one
    is another kind, not an earlier value ("What is my work email?": "My email is anna.k@postbox.de" / "My work email
    is a.kowalski@fernwood.io"; "When is my flight back from Rome?": "My flight to Rome is on Monday" / "My flight
    back from Rome is on Thursday"; 从三亚回来的航班是哪天？)."""
    subject_old, subject_new = _copula_subject(old), _copula_subject(new)
    if not subject_old or not subject_new or not subject_old & subject_new:
        return False
    zh = bool(re.search(r"[\u4e00-\u9fff]", new + old))
    if zh:
        return any(w in query and w not in old for w in subject_new - subject_old)
    said_old, said_query = said_stems(old), said_stems(query)
    return bool((subject_new - said_old) & said_query)


#: The periods a statement may be of, each of its own kind: "last year's water bill", 去年过年, 这学期; a time of day
#: ("in the morning", 下午接孩子)
_PERIODS = (
    re.compile(
        r"\b(?:last|this|next)\s+(?:year|month|week|term|season|summer|winter|spring|autumn|christmas)\b"
        r"|[去今明前]年|[上这下本]个?(?:月|周|学期|季度)",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:morning|afternoon|evening)s?\b|早上|早晨|上午|中午|下午|傍晚|晚上", re.IGNORECASE),
    re.compile(
        r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|(?:周|星期|礼拜)[一二三四五六日天]", re.IGNORECASE
    ),
)


def _periods_apart(query: str, new: str, old: str) -> bool:
    """``new`` and ``old`` are of two periods of one kind (:data:`_PERIODS`), and the ``query`` names ``old``'s and
    not ``new``'s: "How much was last year's water bill?" asks about "Last year's water bill was £410", not "This
    year's water bill has come in at £455" (去年过年在哪过的？; 下午在哪接孩子？ of 早上送孩子… / 下午接孩子…)."""
    for period in _PERIODS:
        period_new = {m.casefold().rstrip("s") for m in period.findall(new)}
        period_old = {m.casefold().rstrip("s") for m in period.findall(old)}
        asked = {m.casefold().rstrip("s") for m in period.findall(query)}
        if period_new and (period_old - period_new) & asked and not period_new & asked:
            return True
    return False


def _changed_thing_stems_en(text: str) -> set[str]:
    """The stems of the thing a statement that opens on the speaker says they changed ("I've reset the burglar alarm
    code to 5164" → burglar, alarm, code: ``_CHANGED_THING_EN``)."""
    m = _change_match(text)
    if m is None or not _SPEAKER_OPENS_EN.match(text):
        return set()
    thing = _CHANGED_THING_EN.match(text[m.end() :])
    if thing is None:
        return set()
    return {_stem(w) for w in thing.group("np").split() if w not in _WHICH_VALUE_EN and w not in STOPWORDS}


def asked_of_its_own_person(query: str, new: str, old: str) -> bool:
    """The ``query`` names a person ``new`` names and ``old`` does not: "我二伯家住在哪？" asks about 我二伯家住在北关,
    not 我大伯家住在县城南门; "我女儿喜欢听谁的歌？" about 我女儿喜欢听周杰伦, not 我喜欢听邓丽君的歌. Not when ``old`` names
    someone else, who may be its value: "我姐家的狗现在寄养在哪？" / 宠物店太贵，后来放到了我妈家."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", query + new + old))
    asked = _people(query, zh) & (_people(new, zh) - _people(old, zh))
    others = _people(old, zh)
    # the older one names nobody, or another of the same kin (大伯 / 二伯); one that names someone else may name them as
    # its value (宠物店太贵，后来放到了我妈家, of 我姐家的狗)
    return bool(asked) and (not others or any(p.endswith(a) or a.endswith(p) for p in others for a in asked))


@lru_cache(maxsize=4096)
def asked_of_another_person(query: str, new: str, old: str) -> bool:
    """The ``query`` names a person ``old`` speaks of, and ``new`` names no one (:func:`_people_meant`) and opens on a
    thing of the speaker's own ("my GP", 我的…): "Who is my husband's GP?" asks about "My husband's GP is Dr.
    Farouk", not about "My GP moved me over to Dr. Lindgren". A newer statement that leaves out whose thing it
    speaks of may be of the older one's person ("We moved bedtime to 7:30"), and is not read here."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", new + old))
    asked = _people(query, zh)
    if not asked & _people(old, zh) or _people_meant(new, old, zh):
        return False  # the query names no one of the older; the newer names someone, or a pronoun stands for them
    return bool((_SPEAKERS_THING_ZH if zh else _SPEAKERS_THING_EN).match(_fold(new)))


#: A statement that opens on a thing of the speaker's own: "My GP …", 我的医生…
_SPEAKERS_THING_EN = re.compile(r"^(?:my|our)\s+[a-z]", re.IGNORECASE)
_SPEAKERS_THING_ZH = re.compile(r"^我们?的")


def _opening_stems_en(text: str) -> set[str]:
    """The stems of the common nouns and adjectives of the noun phrase ``text`` opens with (``_subject_phrase``) and
    of its "of" phrase ("The head of sales …" → head, sales), but for words that say which value, not which thing
    (:data:`_WHICH_VALUE_EN`); and the name of the place its "on", "in" or "at" phrase says ("The Italian place on
    Mill Lane …" → place, mill, lane)."""
    phrase = _subject_phrase(text)
    rest = text.split(None, len(phrase) + 1)[len(phrase) + 1 :]
    words = rest[0].split() if rest else []
    where: list[str] = []
    if words[:1] == ["of"]:
        phrase = [*phrase, *_subject_phrase("the " + " ".join(words[1:]))]
    elif words[:1] in (["on"], ["in"], ["at"]) and phrase:
        where = [w for w in _subject_phrase("the " + " ".join(words[1:])) if re.fullmatch(r"[A-Z][a-z]+", w)]
    words = [w.removesuffix("'s") for w in phrase]  # "My Covid booster's now booked …": booster
    return (
        {
            _stem(w.casefold())
            for w in words
            if (re.fullmatch(r"[a-z][a-z0-9-]*", w) or _ACRONYM.fullmatch(w))
            and w not in _WHICH_VALUE_EN
            and w not in STOPWORDS
        }
        | {_stem(w.casefold()) for w in where}
    )  # "the under-14s": a lower-case word with digits names a thing too; "our CFO": so does a title's acronym


#: A title or a thing said by its initials: CFO, CTO, MOT, HR
_ACRONYM = re.compile(r"[A-Z]{2,5}s?")


def _opening_things_zh(text: str) -> list[str]:
    """The nouns of two or more characters (or of one before 的) ``text`` says before its first verb, preposition or
    adverb, but for names of people (jieba's flags): 社区卫生服务站早上七点半开门 → 社区, 服务站; 销售总监是蔡姐 →
    销售, 总监; 车的备用钥匙 → 车, 备用, 钥匙; 我把银行卡密码改成了… → 银行卡, 密码; 我家车的保养在4S店做 → 车, 保养."""
    from ._jieba import posseg_module

    out: list[str] = []
    words = _compound_nouns_zh(list(posseg_module().cut(_BA_OPENING_ZH.sub("", text))))
    for n, (word, flag) in enumerate(words):
        owned = n > 0 and words[n - 1][0] == "的"  # 车的保养: a verb owned is a noun
        noun = (
            (flag.startswith(("n", "vn")) and (not flag.startswith("nr") or _kin_word(word)))
            or bool(flag == "eng" and _ACRONYM.fullmatch(word))
            or (flag == "v" and len(word) >= 2 and owned)
        )
        next_is_de = n + 1 < len(words) and words[n + 1][0] == "的"  # 车的备用钥匙: one character, owning
        if (flag.startswith(_OPENING_END_ZH) and not noun) or word in "，,。；;：:":
            break
        if (
            noun and (len(word) >= 2 or next_is_de) and word not in _TIME_WORDS
        ):  # 这学期搬出来…: when, not what
            out.append(word)
    return out  # 销售总监: a verbal noun too; 小儿子, which jieba reads as a name, is a word for a person; CFO a title


def _compound_nouns_zh(words: list[Any]) -> list[tuple[str, str]]:
    """jieba's (word, flag) pairs, a verb and the one-character noun after it joined into one noun: 报销单, 考勤表 (jieba
    cuts 报销 / 单)."""
    out: list[tuple[str, str]] = []
    for w in words:
        if out and len(w.word) == 1 and w.flag == "n" and out[-1][1] == "v" and len(out[-1][0]) == 2:
            out[-1] = (out[-1][0] + w.word, "n")
        else:
            out.append((w.word, w.flag))
    return out


def _kin_word(word: str) -> bool:
    """A word for a person (:data:`PEOPLE_ZH`) with a word before it that says which one: 小儿子, 大女儿."""
    return any(word.endswith(p) for p in PEOPLE_ZH)


#: Words before a Chinese noun that say whose or when, not which: 我的闹钟, 今年的团建
_NOT_MODIFIERS_ZH = frozenset(
    {
        "的",
        "我",
        "我们",
        "你",
        "他",
        "她",
        "他们",
        "咱们",
        "自己",
        "这个",
        "那个",
        "现在",
        "今年",
        "去年",
        "明年",
        "最近",
        "今天",
        "晚上",
    }
)


#: How many words before it a noun that has a kind may stand in its clause: 孩子平板的解锁密码, 隔壁部门的团建
MODIFIED_NOUN_REACH = 4
#: Words after which a noun is a statement's value: 是, 成 (换成, 改成), 为, 叫
_PREDICATE_ZH = re.compile(r"是|成|为|叫")
#: A word that may say which kind a noun is (小区, 后台, 部门): two or more Han characters, not a pronoun's run
#: (jieba cuts 我用, 我戒) nor a number and its measure (三杯)
_MODIFIER_ZH = re.compile(r"(?![我你他她一二三四五六七八九十两几每])[\u4e00-\u9fff]{2,}")


def _modified_apart_zh(new: str, old: str, shared: frozenset[str] | set[str]) -> bool:
    """A noun both name, each with a word right before it the other never says: two kinds of one thing
    (孩子平板的解锁密码 / 路由器后台密码, 小区停车费 / 公司楼下停车, 我们公司的团建 / 隔壁部门的团建), not a new
    value of one."""
    from ._jieba import posseg_module

    def modifier(text: str, word: str) -> str | None:
        tagged = [(t.word, t.flag) for t in posseg_module().cut(_fold(text)) if t.word.strip()]
        tokens = [t for t, _ in tagged]
        at = next((i for i, t in enumerate(tokens) if t.endswith(word)), None)
        if at is None:
            return None
        if tokens[at] != word:  # one word with its kind before it (数学老师): the kind is the modifier
            kind = tokens[at][: -len(word)]
            opening = at < MODIFIED_NOUN_REACH and not any(_PREDICATE_ZH.search(t) for t in tokens[:at])
            return kind if opening and _MODIFIER_ZH.fullmatch(kind) else None
        if at + 1 < len(tagged) and tagged[at + 1][1].startswith("n"):
            return None  # not the head of its noun phrase: 快递 of 快递驿站
        if any(_PREDICATE_ZH.search(t) for t in tokens[:at]) or not any(
            re.search(r"[\u4e00-\u9fff\w]", t) and t not in ("了", "啦", "呢") for t in tokens[at + 1 :]
        ):
            return None  # said after 是, 成, or last: the noun is the value there (我是一名初级设计师, 我每天开车上班)
        opens = max((i + 1 for i, t in enumerate(tokens[:at]) if _CLAUSE_END_ZH.search(t)), default=0)
        clause = [t for t in tokens[opens:at] if t not in _NOT_MODIFIERS_ZH]
        if len(clause) > MODIFIED_NOUN_REACH:
            return None  # deep in its clause, after a verb ("…才发现驿站挪到了…"): not a noun phrase that opens it
        return clause[-1] if clause and _MODIFIER_ZH.fullmatch(clause[-1]) else None

    for word in shared:
        if not re.fullmatch(r"[\u4e00-\u9fff]{2,}", word):
            continue
        mn, mo = modifier(new, word), modifier(old, word)
        if mn and mo and mn != mo and mn not in old and mo not in new:
            return True
    return False


#: 's after a name that says "is", not whose: "Talia's three months now", "Sam's in Edinburgh", "Mum's moving in"
_IS_AFTER = re.compile(
    r"\d.*|.*(?:ing|ed)|a|an|the|in|at|on|off|out|back|home|here|there|not|now|still|so|very"
)
_NOT_OWNERS = frozenset({"it", "that", "what", "there", "here", "who", "let", "he", "she", "one", "today"})


def _owners(words: list[str]) -> set[str]:
    """Whose things ``words`` speak of: "the cat's vet appointment" → {"cat"}."""
    return {
        w[:-2]
        for i, w in enumerate(words)
        if w.endswith("'s")
        and w[:-2] not in _NOT_OWNERS
        and i + 1 < len(words)
        and not _IS_AFTER.fullmatch(words[i + 1])
    }


def _owners_apart(wn: list[str], wo: list[str]) -> bool:
    """Each statement speaks of the thing of someone the other never names: "The cat's vet appointment is
    Tuesday" / "The dog's booster jab at the vet is now Friday"."""
    on, oo = _owners(wn), _owners(wo)
    bare_n, bare_o = {w.removesuffix("'s") for w in wn}, {w.removesuffix("'s") for w in wo}
    return bool(on and oo and not on & bare_o and not oo & bare_n)


def _of_a_shared_thing(new: str, old: str, shared: frozenset[str] | set[str]) -> bool:
    """The newer statement speaks of a thing *of* a shared word ("Dr. Alvarez's office moved", 吴医生的诊所搬到了…)
    that the older one does not name: the next link, not the older one's slot ("My dentist is Dr. Alvarez")."""
    folded_new, folded_old = _fold(new).casefold(), _fold(old).casefold()
    for word in shared:
        zh_word = bool(re.search(r"[\u4e00-\u9fff]", word))
        owner = re.escape(word) + (r"的" if zh_word else r"\w*'s\s*")
        for m in re.finditer(owner + r"(?P<thing>[a-z]+|[\u4e00-\u9fff]{1,2})", folded_new):
            thing = m.group("thing")
            if _contracted_verb(folded_new, m.start("thing")):
                continue  # "Lenny's retired", "FitOne's closed down": 's is "has", what follows no thing of Lenny
            if thing not in folded_old and _stem(thing) not in said_stems(old):
                return True
    return False


#: en: words after "'s" that make it "has" or "is", not a possessive ("She's been moved", "He's not …")
_AFTER_CONTRACTION_EN = frozenset(
    {"been", "got", "gone", "just", "finally", "now", "not", "no", "already", "also"}
)


def _contracted_verb(folded: str, at: int) -> bool:
    """The word at ``at``, right after "'s", is a verb or an adverb before one: the "'s" is "has" or "is"."""
    word = re.match(r"[a-z]+", folded[at:])
    return word is not None and (
        word.group() in _AFTER_CONTRACTION_EN
        or _ENDING_EN.match(folded, at) is not None
        or _STRONG_CHANGE_EN.match(folded, at) is not None
    )


@lru_cache(maxsize=8192)
def qualified_apart(new: str, old: str) -> bool:
    """:func:`_qualified_apart` over the words the two statements share (``slots._align_tokens``)."""
    (old_c, old_v), (new_c, new_v) = _align_tokens(old), _align_tokens(new)
    return _qualified_apart(new, old, (old_c & new_c) | (old_v & new_v))


def of_a_shared_thing(new: str, old: str) -> bool:
    """:func:`_of_a_shared_thing` over the words the two statements share (``slots._align_tokens``)."""
    (old_c, old_v), (new_c, new_v) = _align_tokens(old), _align_tokens(new)
    return _of_a_shared_thing(new, old, (old_c & new_c) | (old_v & new_v))


#: Two characters that say no relation: a shared one does not make two statements one frame
_ZH_FRAME_FILLER = frozenset({"我的", "我们", "现在", "的是", "已经", "一个", "这个", "那个"})


def _of_its_value(new: str, old: str, shared: frozenset[str] | set[str]) -> bool:
    """What the two statements share is the older one's value — said after its copula, or its last words — and
    the newer one's subject, said first: "星河科技的创始人是周远" / "周远毕业于浙江大学", "The CEO of Sony is Kenichiro
    Yoshida" / "Kenichiro Yoshida got promoted". The newer one tells the next fact of a chain — unless (zh) it
    says the older one's relation again, two characters of it."""
    old_f, new_f = _fold(old).casefold().strip(), _fold(new).casefold().strip()
    end = old_f.rstrip("。.!！ ")
    if re.search(r"[\u4e00-\u9fff]", old_f):
        rest_old, rest_new = old_f, new_f
        for word in shared:
            rest_old, rest_new = rest_old.replace(word, " "), rest_new.replace(word, " ")
        pairs = {rest_old[i : i + 2] for i in range(len(rest_old) - 1)}
        if any(
            p in rest_new and re.fullmatch(r"[\u4e00-\u9fff]{2}", p) and p not in _ZH_FRAME_FILLER
            for p in pairs
        ):
            return False  # the relation is said again ("我的英语老师是Emma" / "Emma回国了，现在教我英语的是David")
    for word in shared:
        at = old_f.find(word)
        if at <= 0 or not new_f.startswith(word):
            return False
        before = old_f[:at]
        if not (end.endswith(word) or "是" in before or _COPULA_EN.search(before)):
            return False
    return True


_FRAME_WORD_EN = re.compile(r"[\w'’&-]+")
_COPULA_WORDS = frozenset({"is", "are", "was", "were"})
#: Words that make what follows the frame a clause, not a value: the frame's "of" then names its owner
_CLAUSE_WORDS = _COPULA_WORDS | {"has", "have", "had", "does", "did", "will", "would", "can", "'s"}
#: The words of a definite frame's value, at most: "Mark Carney", "American football", "Toyota City"
FRAME_VALUE_WORDS = 5


@lru_cache(maxsize=4096)
def value_frame(new: str, old: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """``(frame, old value, new value)`` of two English statements word for word the same (the frame, four
    words or more) but for their last few words (each value at most :data:`FRAME_VALUE_WORDS`), which differ
    and are no clause of their own ("the head coach of | the Lakers is … / Arsenal is …" differ in the frame's
    owner, not its value), neither holding the other ("Mark Carney" / "Carney"); None when the new one adds
    ("also"), looks back or plans, or either is Chinese."""
    if re.search(r"[\u4e00-\u9fff]", new + old) or any(
        p.search(new) for p in (_ADDITIVE, _PAST_EN, _FUTURE_EN)
    ):
        return None
    wn = _FRAME_WORD_EN.findall(_fold(new).casefold())
    wo = _FRAME_WORD_EN.findall(_fold(old).casefold())
    n = 0
    while n < min(len(wn), len(wo)) and wn[n] == wo[n]:
        n += 1
    frame, gone, came = tuple(wo[:n]), tuple(wo[n:]), tuple(wn[n:])
    if n < 4 or not gone or not came or len(gone) > FRAME_VALUE_WORDS or len(came) > FRAME_VALUE_WORDS:
        return None
    if set(gone) <= set(came) or set(came) <= set(gone) or (set(gone) | set(came)) & _CLAUSE_WORDS:
        return None
    return frame, gone, came


def definite_frame_change(new: str, old: str) -> ValueChange | None:
    """Two statements of one :func:`value_frame` whose frame is definite — "the N of" ("Ashoka is affiliated
    with the religion of Islam" / "… of Buddhism", "Obama was born in the city of …") or a copula after one
    ("The name of the head of the Brazil government is …"): one thing of one subject with another value, a
    single-valued change (issue 21 item 1), unless a word of the frame names a relation of many values
    ("I visited the city of …") or its head is plural ("the kids of")."""
    found = value_frame(new, old)
    if found is None:
        return None
    frame, gone, came = found
    last = frame[-1]
    if last == "of":
        head = frame[-2]
        definite = "the" in frame[-5:-2]
    elif last in _COPULA_WORDS and frame[0] == "the" and "of" in frame[1:5]:
        head = frame[frame.index("of", 1) - 1]
        definite = True
    else:
        return None
    if not definite or (
        head.endswith("s") and not head.endswith("ss") and _arity(head, zh=False) != "single"
    ):
        return None  # "the kids of", "one of the cities of": several values
    if any(_multi(w, False) for w in frame):
        return None
    return ValueChange(
        " ".join(frame)[:80],
        " ".join(gone),
        " ".join(came),
        "single",
        f"the same definite frame ('{head} of …'), another value",
    )


__all__ = [
    "FRAME_COSINE",
    "FRAME_MAX_CHARS_ZH",
    "FRAME_MAX_WORDS",
    "answers_alike",
    "answers_in_turn",
    "answers_one_more",
    "asked_of_another_person",
    "change_evidence",
    "definite_frame_change",
    "ends_its_value",
    "frame_change",
    "names_another_thing",
    "of_a_shared_thing",
    "one_thing",
    "qualified_apart",
    "repeats_values",
    "same_people",
    "states_a_value",
    "subjects_apart",
    "value_frame",
]
