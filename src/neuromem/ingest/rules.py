"""The rule-based extractor: the offline default (seed 003 R2G-6, seed 002 per-turn extraction).

Each user sentence is one unit (a semicolon joins two clauses into one: "Jonas and I broke up; I'm seeing
Felix now" tells one change). A unit is small talk (greetings, thanks,
acknowledgements), a question, or a statement; statements are matched against
Chinese and English patterns for identity, employer and residence, preferences and
dislikes, relationships, plans and tasks, habits (procedures) and dated events. The
memory keeps the user's own words, in the user's language. Importance is the
pattern's base value plus small boosts (emotion, explicit time, named entities).

A plain declarative statement about a person, an organisation or a thing ("Our CTO is Dana",
"The capital of X is Y", "Mei's husband works at Apple", "I speak French") is a fact worth
keeping (issue 21 item 4): a statement that fills a slot (``text.slots.claim_of``), or that
names an entity in a sentence of its own, gets at least ``DECLARATIVE_IMPORTANCE``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.entities import extract_entities
from ..text.language import detect_language
from ..text.sensitive import sensitive_categories
from ..text.slot_frames import replacement_evidence
from ..text.slots import PEOPLE_EN, PEOPLE_ZH, answer_frame, claim_of
from ..text.spans import is_question, split_sentences
from ..text.timeparse import resolve_time_expressions
from ..text.tokenize import tokenize
from ..text.value_changes import may_change
from ..types import Emotion, FactCategory, MemoryType
from .candidates import Candidate, EntityRef, Extraction, Relation, TimeInfo
from .turns import Turn

MAX_KEYWORDS = 8
MIN_STATEMENT_CHARS = 4
#: Content words (``text.tokenize``) of the shortest first-person statement kept as a fact: "I know SQL", "I'm
#: lactose intolerant" (issue 21 item 4)
MIN_STATEMENT_WORDS = 2
MAX_ANSWER_CHARS = 40  # a longer reply to a question is read on its own

_SMALL_TALK = re.compile(
    r"^(?:(?:hi|hello|hey|yo|good (?:morning|afternoon|evening|night)|thanks?(?: you)?(?: so much| a lot)?|thx|"
    r"ok(?:ay)?|sure|yes|yeah|yep|no|nope|cool|great|nice|awesome|got it|i see|lol|haha+|bye|see you|"
    r"you'?re welcome|no problem|sounds good|perfect|alright|hmm+|"
    r"你好|您好|嗨|哈+|嗯+|哦+|好的?|行|可以|谢谢(?:你|您)?|多谢|感谢|再见|拜拜|晚安|早上好|早安|没问题|明白了?|知道了|收到|对|是的|不客气)"
    r"[\s!！.。,，~～?？]*)+$",
    re.IGNORECASE,
)
_QUESTION_EN = re.compile(
    r"^(?:what|how|why|when|where|who|which|can|could|would|should|is|are|do|does|did|will)\b", re.IGNORECASE
)
_QUESTION_ZH = re.compile(r"(?:吗|呢|么|什么|怎么|为什么|如何|哪|谁|几|多少)[？?]?$")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|our)\b|我", re.IGNORECASE)

_OBJ_EN = r"(?P<obj>[A-Za-z0-9][\w&.'\- ]{0,40}?)(?=[,.;!?]|\s+(?:and|but|since|because|for|as|now|with|in|on|from)\b|$)"
_OBJ_ZH = r"(?P<obj>[^，。！？,.!?\s的]{1,15}?)"  # lazy: followed by a verb (在X工作)
_OBJ_ZH_TAIL = r"(?P<obj>[^，。！？,.!?\s]{1,15})"  # greedy: up to the punctuation (喜欢喝咖啡)


@dataclass(frozen=True, slots=True)
class Rule:
    pattern: re.Pattern[str]
    memory_type: MemoryType
    category: FactCategory | None
    importance: float
    slot: str | None = None  # slot name; "{obj}" is replaced by the captured object
    relation: str | None = None  # predicate of a relation edge to the captured object
    object_type: str = "other"
    polarity: str | None = None


def _r(pattern: str, category: FactCategory | None, importance: float, **kw: object) -> Rule:
    memory_type = MemoryType.EPISODIC if category is None else MemoryType.FACT
    return Rule(re.compile(pattern, re.IGNORECASE), memory_type, category, importance, **kw)  # type: ignore[arg-type]


_I = FactCategory.IDENTITY
_P = FactCategory.PREFERENCE
_R = FactCategory.RELATIONSHIP
_T = FactCategory.TASK
_PR = FactCategory.PROCEDURE
_G = FactCategory.GENERAL

# First match wins: specific before general.
RULES: tuple[Rule, ...] = (
    # identity and name
    _r(r"\bmy name is\b|\bcall me\b|我叫|我的名字(?:是|叫)", _I, 0.9, slot="name"),
    # employer (relation works_at)
    _r(
        r"\bi (?:now |currently |still )?work (?:at|for) " + _OBJ_EN,
        _I,
        0.85,
        slot="employer",
        relation="works_at",
        object_type="organization",
    ),
    _r(
        r"\bi (?:just |recently )?(?:joined|started (?:a new job |working )?at) " + _OBJ_EN,
        _I,
        0.85,
        slot="employer",
        relation="works_at",
        object_type="organization",
    ),
    _r(
        r"我(?:现在|目前|还)?在" + _OBJ_ZH + r"(?:工作|上班|任职|实习)",
        _I,
        0.85,
        slot="employer",
        relation="works_at",
        object_type="organization",
    ),
    _r(
        r"我(?:刚|最近)?(?:入职|加入)了?" + _OBJ_ZH + r"(?=[，。！,.!]|$)",
        _I,
        0.85,
        slot="employer",
        relation="works_at",
        object_type="organization",
    ),
    # residence (relation lives_in)
    _r(
        r"\bi (?:now |currently |still )?live in " + _OBJ_EN,
        _I,
        0.8,
        slot="residence",
        relation="lives_in",
        object_type="place",
    ),
    _r(
        r"\bi (?:just |recently )?moved to " + _OBJ_EN,
        _I,
        0.8,
        slot="residence",
        relation="lives_in",
        object_type="place",
    ),
    _r(
        r"我(?:现在|目前|还)?住在" + _OBJ_ZH + r"(?=[，。！,.!]|$|了)",
        _I,
        0.8,
        slot="residence",
        relation="lives_in",
        object_type="place",
    ),
    _r(
        r"我(?:刚|最近)?搬(?:到|去)了?" + _OBJ_ZH + r"(?=[，。！,.!]|$|了)",
        _I,
        0.8,
        slot="residence",
        relation="lives_in",
        object_type="place",
    ),
    # allergies and conditions the assistant must never forget (identity, health-tagged by sensitivity)
    _r(
        r"\bi(?:'m| am) (?:severely |very |deathly )?allergic to\s+" + _OBJ_EN, _I, 0.95, slot="allergy:{obj}"
    ),
    _r(r"我对" + _OBJ_ZH + r"(?:严重)?过敏", _I, 0.95, slot="allergy:{obj}"),
    # dislikes before likes ("don't like" contains "like")
    _r(
        r"\bi (?:really )?(?:don'?t|do not|never) (?:like|enjoy|eat|drink)\s+" + _OBJ_EN,
        _P,
        0.7,
        slot="likes:{obj}",
        polarity="negative",
    ),
    _r(
        r"\bi (?:really )?(?:hate|dislike|can'?t stand)\s+" + _OBJ_EN,
        _P,
        0.7,
        slot="likes:{obj}",
        polarity="negative",
    ),
    _r(
        r"我(?:真的|很|非常|特别)?(?:不喜欢|讨厌|不爱|受不了|不吃|不喝)" + _OBJ_ZH_TAIL,
        _P,
        0.7,
        slot="likes:{obj}",
        polarity="negative",
    ),
    _r(
        r"\bi (?:really |also |absolutely )?(?:like|love|enjoy|prefer|adore)\s+" + _OBJ_EN,
        _P,
        0.7,
        slot="likes:{obj}",
        polarity="positive",
    ),
    _r(r"\bmy fav(?:ou)?rite\b|\bi'?m (?:a (?:big |huge )?)?fan of\b", _P, 0.7, polarity="positive"),
    _r(
        r"我(?:也|真的|很|非常|特别|超|最)?(?:喜欢|爱|喜爱|偏爱|热爱|爱吃|爱喝)" + _OBJ_ZH_TAIL,
        _P,
        0.7,
        slot="likes:{obj}",
        polarity="positive",
    ),
    _r(r"我最(?:喜欢|爱)的|以后(?:请|都)?(?:用|优先)", _P, 0.7, polarity="positive"),
    # relationships
    _r(
        r"\bmy (?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|mom|mother|dad|father|parents|son|"
        r"daughter|kids?|children|brother|sister|sibling|friend|best friend|boss|manager|colleague|coworker|"
        r"roommate|dog|cat|pet|grand(?:ma|pa|mother|father))\b",
        _R,
        0.7,
    ),
    _r(
        r"我(?:的)?(?:老婆|妻子|太太|丈夫|老公|先生|女朋友|男朋友|对象|妈妈|妈|爸爸|爸|母亲|父亲|父母|儿子|女儿|孩子|"
        r"哥哥|姐姐|弟弟|妹妹|朋友|好朋友|闺蜜|同事|老板|领导|室友|猫|狗|宠物|爷爷|奶奶|外公|外婆)",
        _R,
        0.7,
    ),
    # plans and tasks
    _r(
        r"\bremind me\b|\bi (?:\w+ly |also |still |just |really )?(?:need|have|want|plan|hope|intend) to\b|"
        r"\bi'?m (?:\w+ly |also |still |just |really )?(?:going|planning|about|trying|hoping) to\b|"
        r"\bi will\b|\bi'll\b|\bmy (?:goal|plan|deadline)\b|\bdeadline\b|"
        r"\bi(?:'m| am| was) (?:\w+ly )?(?:thinking|considering) (?:of|about)\b",
        _T,
        0.6,
    ),
    _r(r"提醒我|记得|我(?:要|得|需要|打算|计划|准备|想要|想|必须|将)|截止|目标是", _T, 0.6),
    # habits and procedures
    _r(
        r"\bi (?:usually|always|often|normally|typically|never)\b|\bevery (?:day|morning|night|week|weekend)\b|"
        r"\bmy routine\b",
        _PR,
        0.5,
    ),
    _r(r"我(?:通常|一般|平时|经常|总是|每天|每周|每晚|习惯)", _PR, 0.5),
    _r(
        r"\b(?:once|twice|\w+ times) (?:a|per|every) (?:day|week|month)\b|\bi'?m (?:currently )?(?:training|studying|"
        r"learning|preparing) for\b",
        _PR,
        0.55,
    ),
    _r(r"每(?:天|周|晚|个星期|个月)(?:早上|晚上|都)?|我(?:最近|正在|在)学", _PR, 0.55),
    # identity, generic
    _r(
        r"\bi(?:'m| am) (?:a|an) \w+|\bi(?:'m| am) from\b|\bi(?:'m| am) \d{1,3}\b|\bi studied\b|\bmy (?:job|major)\b",
        _I,
        0.6,
    ),
    _r(r"我是(?:一名|一个|个)?\S{1,10}|我来自|我今年\S{1,4}岁|我毕业于|我的(?:工作|专业)", _I, 0.6),
)
# Dated events become episodic memories; statements about oneself become general facts.
_EVENT_EN = re.compile(
    r"\b(?:i|we)\s+(?:\w+ly\s+)?(?:went|visited|bought|met|got|had|finished|attended|started|"
    r"saw|watched|took|made|moved|joined|traveled|travelled|flew|ran|won|lost|graduated|"
    r"adopted|received|completed|tried|spent|cooked|read|wrote|played|celebrated)\b",
    re.IGNORECASE,
)
_EVENT_ZH = re.compile(r"我.{0,12}?(?:了|过)")
_GENERAL_IMPORTANCE = (
    0.3  # a bare first-person statement: kept at the default threshold, boosted by specifics
)
_HEDGE_IMPORTANCE = 0.15  # remarks about the conversation itself ("I'm curious…", "I wonder…"): dropped
_HEDGE = re.compile(
    r"^(?:\w+,\s*)?(?:i'?m (?:just |really |also )?(?:curious|wondering|interested in (?:learning|knowing))|"
    r"i (?:was )?wonder|i think|i guess|i'?m not sure|i'?d (?:like|love) to (?:know|learn|hear)|"
    r"let me know|i see\b|i understand|i (?:really |truly )?appreciate|i agree|i (?:didn'?t|did not|never) know|"
    r"i had no idea|i'?ve never heard|"
    r"我想知道|我很好奇|我觉得|我不确定|我明白|我理解|我同意)",
    re.IGNORECASE,
)
_SPECIFIC = re.compile(r"\bmy\b|\d|我的", re.IGNORECASE)
_EVENT_IMPORTANCE = 0.55
DECLARATIVE_IMPORTANCE = (
    0.45  # a statement of a value, or about a named entity: kept at the default threshold
)
_NAMED = frozenset({"person", "organization", "place"})
#: A statement whose subject is someone of the user's is about the user's life ("Grandpa takes …", 孩子的牙医…); not
#: one that names them as company ("Early jogging with a friend")
_ABOUT_SOMEONE = re.compile(
    rf"^(?:my |our )?(?:{'|'.join(sorted(PEOPLE_EN))})\b|^(?:我们?家?的?)?(?:{'|'.join(PEOPLE_ZH)})",
    re.IGNORECASE,
)
#: A sentence whose subject is a name and whose verb follows it: "Ashoka is affiliated with …", "IKEA was founded
#: in …", "Max is a golden retriever" (a name at the start of a sentence is no entity by itself: "Coffee is great")
_NAMED_SUBJECT_EN = re.compile(
    r"(?!(?:The|This|That|These|Those|It|There|Here|What|Which|Who|How|Why|When|Where|You|Your|He|She|They|"
    r"His|Her|Their|Its|A|An|Some|Any|All|Each|Every|One|No|Yes|So|And|But|If|Also|Plus|Then)\b)"
    r"[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3}\s+(?:is|was|are|were|has|had)\s+(?!(?:a|an|the)?\s*(?:great|good|"
    r"nice|amazing|awesome|helpful|interesting|fun|cool|bad|terrible)\b)\w"
)
_FILLER_IMPORTANCE = 0.1

_EMOTIONS: tuple[tuple[re.Pattern[str], Emotion], ...] = tuple(
    (re.compile(p, re.IGNORECASE), e)
    for p, e in (
        (r"\b(?:thrilled|ecstatic|so excited|excited)\b|兴奋|激动", Emotion(0.8, 0.8, "excited")),
        (
            r"\b(?:happy|glad|delighted|love it|great day)\b|开心|高兴|快乐|幸福|太好了",
            Emotion(0.7, 0.5, "happy"),
        ),
        (r"\b(?:grateful|thankful)\b|感激|感恩", Emotion(0.6, 0.3, "grateful")),
        (r"\b(?:angry|furious|pissed|mad at)\b|生气|愤怒|气死", Emotion(-0.7, 0.8, "angry")),
        (
            r"\b(?:anxious|nervous|worried|stressed|overwhelmed)\b|焦虑|紧张|担心|压力",
            Emotion(-0.5, 0.7, "anxious"),
        ),
        (
            r"\b(?:sad|upset|depressed|heartbroken|lonely)\b|难过|伤心|失落|孤独|郁闷",
            Emotion(-0.6, 0.4, "sad"),
        ),
        (r"\b(?:tired|exhausted|burned out|burnt out)\b|累|疲惫", Emotion(-0.3, 0.2, "tired")),
        (r"\b(?:frustrated|annoyed)\b|烦|郁闷", Emotion(-0.5, 0.6, "frustrated")),
    )
)


def classify(sentence: str) -> tuple[str, Rule | None, re.Match[str] | None]:
    """``("small_talk" | "question" | "statement", matched rule, match)``."""
    if _SMALL_TALK.match(sentence):
        return "small_talk", None, None
    for rule in RULES:
        m = rule.pattern.search(sentence)
        if m:
            return "statement", rule, m
    stripped = sentence.rstrip()
    if is_question(stripped) or _QUESTION_EN.match(sentence) or _QUESTION_ZH.search(stripped):
        return "question", None, None
    return "statement", None, None


def general_importance(sentence: str) -> float:
    """Importance of a first-person statement no pattern matched: hedges drop, specifics rise."""
    if _HEDGE.search(sentence):
        return _HEDGE_IMPORTANCE
    return _GENERAL_IMPORTANCE + (0.05 if _SPECIFIC.search(sentence) else 0.0)


def declarative(sentence: str, entities: Sequence[EntityRef], *, dated: bool = False) -> bool:
    """A plain statement of a fact: it reports a change ("Sold the Civic, bought a used Skoda", 半马不跑了，改练铁人三项),
    speaks of someone of the user's (爷爷在吃二甲双胍), fills a slot of a known relation ("Our CTO is Dana", "I speak
    French") or gives a value ("The capital of X is Y", "The report is due on Friday"), or names a person, an
    organisation or a place in a sentence of three words or more; hedges, remarks about the conversation and
    small talk about things ("The weather is nice") are not (issue 21 item 4). ``dated``: the sentence says when
    (a happening): a number or someone named in it does not make it a fact."""
    if _HEDGE.search(sentence):
        return False
    words = len(tokenize(sentence))
    # a change reported (车卖了，现在骑电动车上班), or someone of the user's as its subject (爷爷在吃二甲双胍)
    if words >= 2 and replacement_evidence(sentence) is not None:
        return True
    if words >= 2 and not dated and _ABOUT_SOMEONE.search(sentence):
        return True
    named = any(e.type in _NAMED for e in entities)
    claim = claim_of(sentence, generic=True)
    if claim is not None and claim.template == "verb":  # "Dana runs the team"; "I speak French" (short)
        return bool(claim.owner) or len(tokenize(sentence)) < 3
    has_value = named or any(ch.isdigit() for ch in sentence)
    proper = has_value or any(e.type == "other" for e in entities)  # "Hamlet", "Islam": a name of any kind
    if claim is not None and (claim.arity != "unknown" or claim.template != "copula" or proper):
        return True
    if has_value and may_change(sentence):  # "Reset the locker combination to 8-02-44": a change reported
        return True
    if proper and _NAMED_SUBJECT_EN.match(sentence):  # "Ashoka is affiliated with the religion of Islam"
        return True
    if claim is not None and words >= 2 and _NAME_OR_NUMBER.search(_said_value(sentence, claim.value)):
        return True  # "The report is due on Friday", 站会是九点半; not "The weather is nice"
    if words >= 2 and not dated and any(ch.isdigit() for ch in sentence):  # 房租每月3800, "BA 117": a number
        return True  # (a dated happening with a number is an event: "jogging along the river today, 5 km")
    return named and not _FIRST_PERSON.search(sentence) and len(tokenize(sentence, drop_stopwords=False)) >= 3


#: A value that names or counts: a capitalised word, a digit, a Chinese numeral
_NAME_OR_NUMBER = re.compile(r"[A-Z0-9]|[一二两三四五六七八九十百千万半]")


def _said_value(sentence: str, value: str) -> str:
    """``value`` (folded by the claim) as the sentence says it, with its capitals; "" when not found."""
    at = sentence.casefold().find(value.casefold()) if value else -1
    return sentence[at : at + len(value)] if at >= 0 else ""


def states_value(sentence: str) -> bool:
    """Whether ``sentence`` gives the value of a slot that holds one value at a time, or says that a
    value changed ("I moved to Munich last month", "We pushed the wedding back to May 3", 周会改到周四了):
    such a sentence is a fact even when it is dated, so that it can end the old value (issue 21)."""
    claim = claim_of(sentence)
    if claim is None or claim.template == "verb":
        return False
    return claim.arity == "single" or claim.change or any(ch.isdigit() for ch in claim.value)


def emotion_of(sentence: str) -> Emotion | None:
    for pattern, emotion in _EMOTIONS:
        if pattern.search(sentence):
            return emotion
    return None


def keywords_of(sentence: str) -> tuple[str, ...]:
    words = [t for t in tokenize(sentence) if len(t) > 1 and not t.isdigit()]
    return tuple(dict.fromkeys(words))[:MAX_KEYWORDS]


def _object(m: re.Match[str] | None) -> str | None:
    if m is None or "obj" not in m.groupdict() or not m.group("obj"):
        return None
    value = m.group("obj").strip(" .,'\"“”‘’。，")
    value = re.sub(r"^(?:the|a|an)\s+", "", value, flags=re.IGNORECASE)
    return value or None


_CLAUSE_END = re.compile(r"[，,]")
_ZH_SUBJECT = re.compile(r"^\s*(?:我|你|他|她|它|咱|您|大家|我们|他们|她们)")


def units(text: str, span: tuple[int, int]) -> list[tuple[tuple[int, int], str]]:
    """Units of one sentence: ``(span, implied subject)``.

    A Chinese clause that drops its subject ("我在阿里巴巴工作，住在杭州。") and would match a
    slot rule with "我" in front becomes its own unit, with "我" as the implied subject; the
    span still points at the words as spoken.
    """
    a, b = span
    sentence = text[a:b]
    if "我" not in sentence or not _CLAUSE_END.search(sentence):
        return [(span, "")]
    starts = [a]
    for m in _CLAUSE_END.finditer(sentence):
        clause_start = a + m.end()
        clause = text[clause_start:b]
        if _ZH_SUBJECT.match(clause):
            continue
        if any(r.slot is not None and r.pattern.match("我" + clause.lstrip()) for r in RULES):
            starts.append(clause_start)
    bounds = [*starts, b]
    out = []
    for i in range(len(starts)):
        start, end = bounds[i], bounds[i + 1]
        piece = text[start:end]
        trimmed = piece.rstrip(" ，,")
        lead = len(piece) - len(piece.lstrip())
        out.append(((start + lead, start + len(trimmed)), "我" if i else ""))
    return out


def extract_sentence(
    turn: Turn, turn_index: int, span: tuple[int, int], out: Extraction, subject: str = ""
) -> None:
    """Classify one sentence of a user turn and append a candidate or a drop reason to ``out``."""
    sentence = subject + turn.content[span[0] : span[1]]
    kind, rule, match = classify(sentence)
    if kind != "statement":
        out.dropped[kind] += 1
        return
    language = detect_language(sentence)
    times = resolve_time_expressions(sentence, turn.sent_at)
    time = None
    if times:
        t = times[0]
        time = TimeInfo(t.text, t.start, t.end, str(t.granularity))
    first_person = bool(_FIRST_PERSON.search(sentence))
    if rule is not None:
        memory_type, category, importance = rule.memory_type, rule.category, rule.importance
    elif first_person and time is not None and (_EVENT_EN.search(sentence) or _EVENT_ZH.search(sentence)):
        memory_type, category, importance = MemoryType.EPISODIC, None, _EVENT_IMPORTANCE
    elif (
        first_person
        and len(sentence) >= MIN_STATEMENT_CHARS
        and len(tokenize(sentence)) >= MIN_STATEMENT_WORDS
    ):
        memory_type, category, importance = (
            MemoryType.FACT,
            FactCategory.GENERAL,
            general_importance(sentence),
        )
    else:
        memory_type, category, importance = MemoryType.FACT, FactCategory.GENERAL, _FILLER_IMPORTANCE
    is_event = bool(_EVENT_EN.search(sentence) or _EVENT_ZH.search(sentence))
    if (
        time is not None
        and first_person
        and memory_type is MemoryType.FACT
        and (rule is None or (is_event and category in (FactCategory.RELATIONSHIP, FactCategory.GENERAL)))
    ):
        memory_type, category = MemoryType.EPISODIC, None  # a dated happening is an episode
    if memory_type is MemoryType.EPISODIC and rule is None and states_value(sentence):
        memory_type, category = (
            MemoryType.FACT,
            FactCategory.GENERAL,
        )  # "I moved to Munich last month": where I live now
    emotion = emotion_of(sentence)
    entities = tuple(EntityRef(e.name, e.type) for e in extract_entities(sentence))
    obj = _object(match)
    relation = slot = value = topic = None
    if rule is not None and obj is not None:
        obj_ref = next((e for e in entities if e.normalized == EntityRef(obj, "other").normalized), None)
        obj_ref = EntityRef(obj_ref.name if obj_ref else obj, rule.object_type)
        value = obj_ref.normalized
        if rule.relation:
            relation = Relation(rule.relation, obj_ref)
            entities = (*(e for e in entities if e.normalized != value), obj_ref)
        if rule.category is FactCategory.PREFERENCE:
            topic = (keywords_of(obj) or (obj,))[0]
            value = rule.polarity
    if rule is not None and rule.slot is not None:
        slot = rule.slot.replace("{obj}", topic or "") if "{obj}" in rule.slot else rule.slot
        if "{obj}" in rule.slot and not topic:
            slot = None
    if (
        memory_type is MemoryType.FACT
        and importance < DECLARATIVE_IMPORTANCE
        and declarative(sentence, entities, dated=time is not None)
    ):
        importance = DECLARATIVE_IMPORTANCE
    if emotion is not None:
        importance += 0.1 * emotion.arousal
    if time is not None:
        importance += 0.05
    if entities:
        importance += 0.05
    out.candidates.append(
        Candidate(
            content=sentence,
            memory_type=memory_type,
            category=category,
            importance=round(min(1.0, importance), 3),
            turn_index=turn_index,
            span=span,
            language=language,
            extractor="rules",
            entities=entities,
            keywords=keywords_of(sentence),
            time=time,
            emotion=emotion,
            slot=slot,
            value=value if slot else None,
            relation=relation,
            topic=topic,
            sensitive=sensitive_categories(sentence),
            polarity=rule.polarity if rule is not None else None,
        )
    )


def extract_with_rules(
    turns: Sequence[Turn], roles: Sequence[str], indices: Sequence[int] | None = None
) -> Extraction:
    """Candidates from the turns whose role is in ``roles`` (others are only kept raw)."""
    out = Extraction()
    for i, turn in enumerate(turns):
        if turn.role not in roles or (indices is not None and i not in indices):
            continue
        frame = _asked_frame(turns[i - 1]) if i > 0 and turn.role == "user" else None
        for sentence in split_sentences(turn.content, semicolons=False):  # "Alun's retired; his niece …"
            for span, subject in units(turn.content, sentence):
                if frame is not None and not subject and _short_answer(turn.content[span[0] : span[1]]):
                    # "12 Elm St" after "What's your new address?": my new address is 12 Elm St
                    lead = _ANSWER_LEAD.match(turn.content, span[0], span[1])
                    span, subject = (lead.end() if lead else span[0], span[1]), frame
                extract_sentence(turn, i, span, out, subject)
    return out


_ANSWER_LEAD = re.compile(
    r"(?:(?:yes|yeah|yep|no|nope|still|it's|it’s|it is|that's|that is|now|actually)\b[,!.\s]*"
    r"|(?:还是|就是|仍然是|依然是|现在是|是|对|嗯)[，,\s]*)+",
    re.IGNORECASE,
)


def _asked_frame(previous: Turn) -> str | None:
    """The statement frame of the slot the assistant's last question asks about (``text.slots.answer_frame``)."""
    if previous.role != "assistant":
        return None
    spans = split_sentences(previous.content)
    if not spans:
        return None
    a, b = spans[-1]
    return answer_frame(previous.content[a:b])


def _short_answer(sentence: str) -> bool:
    """A bare value: a few words that are no statement of their own ("12 Elm St", "Bosch", 8046)."""
    return (
        claim_of(sentence, generic=True) is None
        and len(sentence) <= MAX_ANSWER_CHARS
        and not is_question(sentence)
    )
