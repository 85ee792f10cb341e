"""Which statements give a value to the same slot, and whether a new value replaces the old (issue 21 item 1).

A *slot* is a subject and a relation: "my office phone extension", "where Mei works", "the
capital of France", "我的车牌号". A statement that fills a slot is a :class:`Claim`; its
``key`` is ``"<attribute>"`` for the speaker's own sphere and ``"<owner>|<attribute>"`` otherwise:

- ``owner`` — whose slot it is: ``""`` for the speaker's own sphere ("my", "our", "the", 我,
  我们), else the normalised owner ("mei", "france", "my husband" → ``"husband"``);
- ``attribute`` — the relation: the noun phrase of a copular statement with its determiners
  and change adjectives dropped ("my **new** manager" → ``manager``), or the canonical name of
  a relation verb (``residence``: live in / moved to / 住在 / 搬到; ``employer``: work at /
  joined / 在…上班 / 跳槽去 / 入职), or, for any other verb, its stem and preposition
  (``take``, ``drive``, ``抽烟``).

Claims are found by templates over function words in both languages — copulas (is / are /
costs / changed to / 是 / 叫 / 改成 / 换成), relation verbs, negations ("no longer", "quit",
"I don't … anymore", 不再, 戒) — never by a list of known slots. Two statements whose claims
have the same key and different values are a *value change* (:func:`value_change`); its
``arity`` decides what the write does:

- ``single`` — a single-valued relation (where someone lives or works, an extension, a price,
  a status, a name, a partner; a definite singular noun phrase in general: "the X of Y is Z"),
  or explicit change words ("changed", "now", "switched", "moved to", 改成, 换成, 现在, 搬到)
  in the new statement: the old value ends;
- ``unknown`` — a verb of no known arity without change words: both stay current and the
  pair goes to the review queue;
- a *multi-valued* relation (allergies, likes, children, friends, languages, goals; a value
  naming a class, "a doctor") is no change at all: both stay current.

A negation ends the fact it negates ("I quit smoking" ends "I smoke"; "I no longer live in
Boston" ends "I live in Boston"); a statement about the past ("I used to…", 以前) claims
nothing. Values must be of one kind to be compared (a name or number is not "a doctor").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from .spans import NOT_ABBREVIATED
from .stopwords import EN_STOPWORDS

Arity = Literal["single", "multi", "unknown"]

RESIDENCE = "residence"  # the names ``ingest.rules`` gives these slots
EMPLOYER = "employer"

# ------------------------------------------------------------------ lexicons (words, not slots)
# attribute words whose relation holds one value at a time (en stems, zh words)
_SINGLE_EN = frozenset(
    [
        "live",
        "residence",
        "employer",
        "job",
        "company",
        "extension",
        "ext",
        "number",
        "phone",
        "mobile",
        "cell",
        "password",
        "passcode",
        "pin",
        "code",
        "wifi",
        "price",
        "cost",
        "costs",
        "fee",
        "rent",
        "salary",
        "pay",
        "wage",
        "rate",
        "manager",
        "boss",
        "supervisor",
        "lead",
        "head",
        "partner",
        "husband",
        "wife",
        "spouse",
        "girlfriend",
        "boyfriend",
        "fiance",
        "fiancee",
        "name",
        "surname",
        "nickname",
        "address",
        "email",
        "e-mail",
        "deadline",
        "capital",
        "status",
        "age",
        "birthday",
        "title",
        "role",
        "position",
        "ceo",
        "cto",
        "cfo",
        "coo",
        "president",
        "chair",
        "chairman",
        "owner",
        "director",
        "principal",
        "coach",
        "doctor",
        "dentist",
        "therapist",
        "landlord",
        "team",
        "department",
        "school",
        "university",
        "major",
        "plan",
        "subscription",
        "car",
        "plate",
        "license",
        "licence",
        "weight",
        "height",
        "city",
        "country",
        "town",
        "neighborhood",
        "office",
        "location",
        "time",
        "date",
        "day",
        "schedule",
        "budget",
        "balance",
        "score",
        "rank",
        "level",
        "grade",
        "version",
        "username",
        "handle",
        "account",
        "bank",
        "provider",
        "carrier",
        "insurer",
        "insurance",
        "mayor",
        "governor",
        "population",
        "currency",
        "timezone",
        "zip",
        "postcode",
        "headquarters",
        "hq",
        "favorite",
        "favourite",
    ]
)
_SINGLE_ZH = (
    "住",
    "上班",
    "工作",
    "公司",
    "单位",
    "号",
    "码",
    "密码",
    "价",
    "费",
    "租",
    "工资",
    "薪",
    "经理",
    "老板",
    "领导",
    "上司",
    "主管",
    "老公",
    "老婆",
    "丈夫",
    "妻子",
    "太太",
    "先生",
    "男朋友",
    "女朋友",
    "对象",
    "名字",
    "名",
    "地址",
    "邮箱",
    "截止",
    "首都",
    "状态",
    "年龄",
    "生日",
    "职位",
    "职务",
    "车牌",
    "城市",
    "电话",
    "分机",
    "手机",
    "学校",
    "专业",
    "预算",
    "余额",
    "时间",
    "日期",
    "总部",
    "校长",
    "主任",
    "负责人",
    "ceo",
    "cto",
    "最喜欢",
    "最爱",
)
# attribute words of relations that hold many values at once
_MULTI_EN = frozenset(
    [
        "allergy",
        "allergies",
        "allergic",
        "like",
        "likes",
        "love",
        "loves",
        "enjoy",
        "enjoys",
        "hate",
        "hates",
        "dislike",
        "dislikes",
        "child",
        "children",
        "kid",
        "kids",
        "son",
        "sons",
        "daughter",
        "daughters",
        "friend",
        "friends",
        "sibling",
        "siblings",
        "brother",
        "brothers",
        "sister",
        "sisters",
        "cousin",
        "cousins",
        "language",
        "languages",
        "speak",
        "speaks",
        "hobby",
        "hobbies",
        "interest",
        "interests",
        "pet",
        "pets",
        "dog",
        "dogs",
        "cat",
        "cats",
        "goal",
        "goals",
        "dream",
        "dreams",
        "habit",
        "habits",
        "skill",
        "skills",
        "fan",
        "colleague",
        "colleagues",
        "coworker",
        "coworkers",
        "neighbor",
        "neighbors",
        "teammate",
        "teammates",
        "worry",
        "worries",
        "concern",
        "concerns",
        "problem",
        "issue",
        "reason",
        "idea",
        "question",
        "task",
        "visited",
        "play",
        "plays",
        "read",
        "reads",
        "watch",
        "watches",
    ]
)
_MULTI_ZH = (
    "过敏",
    "喜欢",
    "爱",
    "讨厌",
    "孩子",
    "儿子",
    "女儿",
    "朋友",
    "兄弟",
    "姐妹",
    "哥哥",
    "姐姐",
    "弟弟",
    "妹妹",
    "语言",
    "会说",
    "爱好",
    "兴趣",
    "宠物",
    "同事",
    "邻居",
    "目标",
    "计划",
    "梦想",
    "习惯",
    "技能",
    "担心",
    "问题",
)
_DROPPED_ADJ = frozenset(["new", "current", "present", "latest", "updated", "actual"])
# relation classes: words that name one attribute in several ways ("boss" / "manager", "mobile number" /
# "phone"); an attribute's words map to their class, and qualifiers that say nothing of which slot drop
_CLASSES_EN = {
    "manager": ("manager", "boss", "supervisor", "line manager", "team lead", "reporting line"),
    "phone": (
        "phone",
        "phone number",
        "mobile",
        "mobile number",
        "cell",
        "cell number",
        "cellphone",
        "telephone",
        "number",
        "telephone number",
        "contact number",
    ),
    "salary": ("salary", "pay", "wage", "wages", "income", "annual salary", "base salary", "earnings"),
    "email": ("email", "e-mail", "email address", "e-mail address", "mail address"),
    "handle": ("handle", "username", "user name", "account name", "account", "login"),
    "password": ("password", "passcode", "passphrase", "pin"),
    "address": ("address", "home address", "street address", "postal address"),
    "partner": ("partner", "significant other"),
    "relationship status": ("relationship status", "relationship"),
}
_CLASS_OF_EN = {phrase: name for name, phrases in _CLASSES_EN.items() for phrase in phrases}
_CLASSES_ZH = {
    "经理": ("经理", "领导", "上司", "主管", "老板", "直属领导"),
    "电话": ("电话", "手机", "手机号", "手机号码", "电话号码", "联系电话"),
    "工资": ("工资", "薪水", "月薪", "年薪", "薪资", "收入"),
    "邮箱": ("邮箱", "电子邮箱", "邮件地址", "email", "邮箱地址"),
    "地址": ("地址", "住址", "家庭住址", "收货地址"),
    "密码": ("密码", "口令"),
}
_CLASS_OF_ZH = {phrase: name for name, phrases in _CLASSES_ZH.items() for phrase in phrases}
_PAST_EN = re.compile(
    r"\b(?:used to|formerly|previously|back then|in the past|years ago|as a kid|as a child|"
    r"(?:old|former|previous|ex)[- ](?:\w+))\b",
    re.IGNORECASE,
)
_PAST_ZH = re.compile(
    r"以前|之前|从前|曾经|过去|小时候|前任|原来的|打算|计划|准备|将要|将会|要搬|想搬|下个月|明年"
)
# a plan is not yet a change: "I'm moving to Berlin next month" leaves the current value current
_FUTURE_EN = re.compile(
    r"\b(?:will|'ll|going to|gonna|(?:i|we|'m|am|are)\s+plan(?:ning)?\s+to|about to|hope to|want to|might|"
    r"thinking (?:of|about)|considering|next (?:week|month|year)|soon|someday|one day|"
    r"(?:am|'m|are|is)\s+(?:moving|relocating|switching|joining|starting))\b",
    re.IGNORECASE,
)

#: A plan put off or a new frequency: "I've deferred my place to next year", "We've gone weekly"
_NEW_SCHEDULE_EN = (
    r"deferred|(?:have|'ve|has|'s) gone (?:weekly|monthly|daily|fortnightly|part[- ]time|full[- ]time)"
)
_CHANGE_EN = re.compile(
    r"\b(?:changed?|changing|now|no longer|any ?more|moved|moving|relocated|switched|new|updated|instead|"
    r"these days|nowadays|went (?:up|down)|raised|lowered|increased|decreased|dropped|rose|jumped|replaced|"
    r"just (?:got|started|joined)|starting (?:today|tomorrow|next|this|from)|rescheduled|postponed|delayed|"
    r"pushed (?:back |out )?to|brought forward|" + _NEW_SCHEDULE_EN + r")\b",
    re.IGNORECASE,
)
_CHANGE_ZH = re.compile(
    r"的新|用新|以后(?:请|都|就|改)|从今以后|今后|从此|晋升|升任|当选|任命|重置|升级|减到|瘦到|胖到|增到|改签|改成|改为|换成|换了|换到|改了|变成|变为|不再|搬到|搬去|搬家|现在|如今|目前|跳槽|已经|涨到|涨了|降到|降了|新的|调到|升到|"
    r"提高|降低|改订|改到|迁到|推迟|提前|续到|升职|调整|涨薪|涨价|降价|提价|调价|换新|改考|改向|改名|重新|"
    r"改[种养开做学练读用]"  # 地全改种了葡萄: switched to growing
)

_LEAD_EN = re.compile(
    r"^(?:(?:oh|ah|well|so|actually|btw|by the way|fyi|update|heads[- ]up|just so you know|quick update|also|"
    r"and|but|ok|okay|hey|um|hmm|yes|yeah|no|note|reminder|correction|small update|good news|news|these days|"
    r"nowadays|now|currently|as of (?:now|today|this \w+)|from now on|starting (?:today|now|this \w+)|"
    r"since (?:last|this) \w+|(?:last|this) (?:week|month|year|weekend|spring|summer|fall|autumn|winter)|"
    r"yesterday|today|recently|lately)\b[,:!\s.-]*)+",
    re.IGNORECASE,
)
_LEAD_ZH = re.compile(
    r"^(?:哦|噢|啊|嗯|对了|对|顺便说一下|顺便|另外|还有|其实|告诉你|跟你说|更新一下|补充一下|好消息|说实话|老实说|说真的|坦白说)[，,：:！!\s]*"
)
_VALUE_END_EN = re.compile(
    r"\s*(?:,(?!\d{3}\b)|[;!?()]|\."
    + NOT_ABBREVIATED  # "Mr. Baptiste" is one value
    + r"(?:\s|$)|\s[-–—]\s|\b(?:but|because|since|so that|which|who|as of|starting|effective|from now|"
    r"until|though|although|if|when|after|before|and (?:i|it|we|my|he|she|they|that|the|now)|now|these days|"
    r"nowadays|anymore|any more|instead|again|too|as well)\b).*$",
    re.IGNORECASE,
)
_VALUE_END_ZH = re.compile(
    r"[，,。！!？?；;（(].*$|(?:了|啦|呢|哦|喔|吧|呀|啊)+$|(?:上班|工作|任职|打工|实习)了?$"
)

_NP_HEAD = r"[\w'’&.-]+"
# a capitalised word that names someone or something, not a sentence opener or a pronoun
_NAME_EN = (
    r"(?-i:(?!(?:That|This|These|Those|It|Its|There|Here|Thanks|Thank|What|When|Where|Who|Why|How|He|She|They|We|"
    r"You|Your|Let|Please|Maybe|Also|So|And|But|Then|Now|Today|Yesterday|Tomorrow|Yes|No|Ok|Okay|Well|Oh|Hi|Hello|"
    r"Hey|Sure|Great|Good|Nice|Sorry|Just|Actually|Really|Can|Could|Would|Should|Will|Do|Does|Did|Is|Are|Was|Were|"
    r"Has|Have|Had|If|As|At|In|On|For|With|By|From|To|After|Before|Since|Because|While|Although|Though|The|A|An|"
    r"My|Our|Some|Any|All|Every|Each|Both|One|Most|Many|Much|Everyone|Everything|Nothing|Someone|Something|"
    r"Anyone|Anything|Not|Never|Always|Usually|Sometimes|Recently|Finally|Lastly|First|Second|Next|Last)\b)"
    r"[A-Z][a-z][\w-]*)"
)
_OWNER_EN = rf"(?:my|our|the|(?:{_NAME_EN}(?:\s+{_NAME_EN})?|my \w+|our \w+)(?:'s|’s|s'))"
_COPULA_EN = re.compile(
    rf"^(?P<np>{_OWNER_EN}\s+(?:{_NP_HEAD}\s+){{0,5}}?{_NP_HEAD}?)\s*"
    r"(?:(?:has\s+|have\s+|was\s+|got\s+|just\s+)?(?:changed|been changed|been updated|updated|switched)\s+from\s+.+?\s+to\s+"
    r"|(?:has\s+|have\s+|was\s+|got\s+|just\s+)?(?:changed|been changed|been updated|updated|switched|rotated|reset|been reset|renewed)(?:\s+to\s+"
    r"|\s*[,;:.\-–—]+\s*(?:(?:and|so)\s+)?(?:(?:it|they|that|this|the new one)\s*(?:'s|’s|\s+is|\s+are)\s+)?"
    r"|\s+and\s+(?:it|they)(?:'s|’s|\s+is|\s+are)\s+)"
    r"|(?:is|are|was)\s+(?:now\s+|currently\s+)?(?:changed\s+|moved\s+|set\s+)?to\s+(?=\S)"
    r"|(?:is|are|were|was|has become|have become|became|will be|is going to be|remains|stays)\s+"
    r"|(?:has\s+|have\s+|just\s+)?(?:went|gone|risen|rose|climbed|jumped|dropped|fell|fallen|increased|decreased|"
    r"been raised|been lowered|was raised|was lowered|got raised|got lowered)(?:\s+(?:up|down))?\s+to\s+"
    r"|(?:has\s+|have\s+|was\s+|got\s+|been\s+|just\s+)*(?:moved|pushed(?:\s+back)?|postponed|delayed|brought\s+forward"
    r"|rescheduled|reset|set)\s+to\s+"
    r"|(?:now\s+)?(?:costs?|is priced at|comes to|runs)\s+)"
    r"(?P<value>.+)$",
    re.IGNORECASE,
)
_LABEL_EN = re.compile(  # "New phone number: 0151 …", "Updated address - 12 Elm St"
    r"^(?:(?:my|our)\s+)?(?:new|updated|current|changed)\s+(?P<attr>[\w'-]+(?:\s+[\w'-]+){0,2})\s*(?::|=|\s[-–—])\s*(?P<value>.+)$",
    re.IGNORECASE,
)
_HAVE_NEW_EN = re.compile(
    r"^(?:i|we)\s+(?:have|'ve got|got|have got)\s+a\s+new\s+(?P<attr>[\w'-]+(?:\s+[\w'-]+)?)\s*(?:[,:—–-]+\s*|\s+(?:named|called|who is)\s+)(?P<value>.+)$",
    re.IGNORECASE,
)
# "<someone> <verb of change> <my X> (up|down|back) to <value>": the object is the slot, "to" its new value —
# whoever acts ("I raised …", "the bank bumped my card limit up to …", "Dr. Lee lowered my dose to …")
_SET_VERBS_EN = (
    r"changed|changing|updated|updating|reset|resetting|switched|switching|moved|moving|set|setting|pushed|pushing|"
    r"postponed|rescheduled|raised|raising|lowered|lowering|renamed|rotated|extended|extending|upgraded|upgrading|"
    r"downgraded|bumped|bumping|increased|increasing|decreased|decreasing|reduced|reducing|cut|cutting|upped|"
    r"dropped|dropping|adjusted|adjusting|shifted|shifting|hiked|hiking"
    r"|(?:put|putting|brought|bringing)(?=\s.*\s(?:up|down)\s+to\s)"  # "put the rent up to …", not "put the kids to bed"
)
_SET_EN = re.compile(
    r"^(?P<subj>i|we|they|(?:my|our|the)\s+\w+(?:\s+\w+)?|(?:dr|mr|mrs|ms)\.?\s+(?-i:[A-Z][\w-]*)|(?-i:[A-Z][a-z][\w-]*))"
    r"(?:'m|'re|'ve|'s|'d)?\s+"
    r"(?:just\s+|finally\s+|have\s+|'ve\s+|has\s+|had\s+|'m\s+|am\s+|are\s+|'re\s+|is\s+|'s\s+|will\s+|again\s+)*"
    rf"(?:{_SET_VERBS_EN})\s+(?P<np>(?:my|our|the|(?-i:[A-Z][a-z][\w-]*)(?:'s|’s))\s+(?:[\w'’&.-]+\s+){{0,5}}?"
    r"[\w'’&.-]+)\s+(?:(?:back|up|down)\s+)?to\s+(?P<value>.+)$",
    re.IGNORECASE,
)
# someone or something else than the speaker's side changes "the X": whose X is not said
_OTHER_ACTS_ON_THE = re.compile(r"^(?!(?:i|we|they|my|our)\b)\S.*?\s+the\s", re.IGNORECASE)
_SUBJ_EN = (
    rf"(?P<subj>i|we|(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?|{_NAME_EN}(?:'s|’s)\s+[\w-]+"
    rf"|{_NAME_EN}(?:\s+(?-i:[A-Z][a-z][\w-]*))?)"
)
_ADV_EN = r"(?:\s+(?:now|currently|still|just|recently|finally|actually|officially|have|has|had|'ve|’ve|am|'m|’m|is|are|was|will|be|also))*"
_RELATIONS_EN: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (
        name,
        re.compile(
            rf"^{_SUBJ_EN}(?:'m|’m|'ve|’ve|'s|’s)?{_ADV_EN}\s+(?:{verbs})\s+(?P<value>.+)$", re.IGNORECASE
        ),
    )
    for name, verbs in (
        (
            RESIDENCE,
            r"live[sd]?\s+in|living\s+in|reside[sd]?\s+in|residing\s+in|moved\s+(?:to|into)|moving\s+(?:to|into)"
            r"|relocated\s+to|relocating\s+to|based\s+in|settled\s+in",
        ),
        (
            EMPLOYER,
            r"work(?:s|ed|ing)?\s+(?:at|for)|joined|joining|started\s+(?:a\s+new\s+job\s+|working\s+|a\s+job\s+)?(?:at|with)"
            r"|switched\s+(?:jobs\s+|companies\s+)?to|got\s+a\s+(?:new\s+)?job\s+(?:at|with)|took\s+a\s+(?:new\s+)?job\s+(?:at|with)"
            r"|employed\s+(?:at|by)|hired\s+(?:at|by)|started\s+(?:my|a)\s+(?:new\s+)?(?:job|position|role)\s+(?:at|with)",
        ),
        ("manager", r"report(?:s|ed|ing)?\s+(?:directly\s+)?to|work(?:s|ing)?\s+under"),
        (
            "salary",
            r"(?:make|makes|making|earn|earns|earning|get\s+paid|am\s+paid|'m\s+paid)(?=\s+[$€£¥]?\d)",
        ),
    )
)
# states of one relation, one at a time: "I'm single" → "I got engaged"; "I work remotely" → "back in the office"
_STATES_EN: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("relationship status", r"single|engaged|married|divorced|separated|widowed|in a relationship", ()),
    (
        "work mode",
        r"remotely|remote|from home|in the office|at the office|on-?site|hybrid",
        (
            ("remotely", "remote"),
            ("from home", "remote"),
            ("at the office", "in the office"),
            ("on-site", "in the office"),
            ("onsite", "in the office"),
        ),
    ),
)
_STATE_EN = [
    (
        name,
        re.compile(
            rf"^{_SUBJ_EN}(?:'m|’m|'re|’re|'s|’s|\s+am|\s+are|\s+is)?(?:\s+(?:now|just|finally|recently|"
            r"officially|back|fully|still|currently|got|getting|became|become|have|has|working|work|"
            rf"works|mostly|all))*\s+(?P<value>{words})\b",
            re.IGNORECASE,
        ),
        dict(same),
    )
    for name, words, same in _STATES_EN
]
_STATES_ZH = (
    (
        "婚恋状态",
        re.compile(
            r"^(?P<subj>我们?|[\u4e00-\u9fff]{1,4}?)(?:现在|目前|已经|刚刚?|终于|还是|还|是)*"
            r"(?P<value>单身|订婚|结婚|离婚|恋爱|脱单)"
        ),
    ),
)
_NEGATION_EN = re.compile(
    rf"^{_SUBJ_EN}(?:'m|’m|'ve|’ve|'s|’s)?(?:\s+(?:have|has|had|am|is|are|finally|just|recently|officially|actually))*\s+"
    r"(?:(?P<stop>quit|stopped|gave up|give up|kicked)\s+(?P<gerund>\w+ing)\b(?P<rest>.*)"
    r"|(?:quit|left)\s+(?:my\s+job\s+(?:at|with)\s+)?(?P<left>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*)"
    r"|(?:quit|left)\s+my\s+job\b(?P<nojob>)"
    r"|no\s+longer\s+(?P<longer>.+)"
    r"|(?:am|is|are|'m|'s|'re)?\s*not\s+(?:a\s+|an\s+)?(?P<notbe>[\w-]+)\s+any\s?more\b.*"
    r"|(?:don't|do not|doesn't|does not|don’t|doesn’t)\s+(?P<anymore>.+?)\s+any\s?more\b.*)$",
    re.IGNORECASE,
)
_VERB_EN = re.compile(
    rf"^{_SUBJ_EN}(?:\s+(?:now|currently|still|just|recently|usually|always|also|only|mostly))*\s+"
    r"(?P<verb>(?!am\b|is\b|are\b|was\b|have\b|has\b|had\b|do\b|does\b|did\b|will\b|would\b|can\b|could\b|should\b|"
    r"may\b|might\b|must\b|think\b|feel\b|guess\b|hope\b|want\b|need\b|wish\b|know\b|believe\b|mean\b|not\b|never\b)"
    r"[a-z]+)(?:\s+(?P<prep>to|at|in|for|with|on|from|by))?\s*(?P<value>.*)$",
    re.IGNORECASE,
)

_ZH_SUBJ = r"(?P<subj>我们|我|[\u4e00-\u9fff]{1,4}?)"
# a time said between the subject and the verb: "大刘六月份晋升为…", "我今年一月戒烟了"
_ZH_TIME = r"(?:[一二三四五六七八九十两\d]{1,3}月份?|今年|去年|前年|上个?月|这个?月|上周|这周|本周|昨天|前天|今天|这个?(?:春天|夏天|秋天|冬天|周末))"
_ZH_ADV = rf"(?:现在|目前|如今|已经|刚刚|刚|最近|还|也|又|就|正式|终于|下个月|下周|明天|{_ZH_TIME})*"
_RELATIONS_ZH: tuple[tuple[str, re.Pattern[str]], ...] = (
    # "我向刘芳汇报", "我改向刘芳汇报了": whom one reports to is one's manager (the class of 领导, 上司: ``_CLASSES_ZH``)
    (
        "经理",
        re.compile(
            rf"^{_ZH_SUBJ}{_ZH_ADV}(?:改|改为|改成)?(?:直接)?向(?P<value>[^，。！？,.!?\s向]{{1,8}}?)汇报"
        ),
    ),
    (
        EMPLOYER,
        re.compile(
            rf"^{_ZH_SUBJ}{_ZH_ADV}(?:在|去|到|进)(?P<value>[^，。！？,.!?\s]{{1,15}}?)(?:工作|上班|任职|实习|打工)"
        ),
    ),
    (
        EMPLOYER,
        re.compile(
            rf"^{_ZH_SUBJ}{_ZH_ADV}(?:从[\u4e00-\u9fff]{{1,8}}?)?"  # 我从药房调到了…: where from is no owner
            rf"(?:入职|加入|跳槽|跳到|换到|转到|跳去|调到)(?:到|去|进)?了?(?P<value>[^，。！？,.!?\s]{{1,15}})"
        ),
    ),
    (
        RESIDENCE,
        re.compile(
            rf"^{_ZH_SUBJ}{_ZH_ADV}(?:住在|住|搬到|搬去|搬进|搬家到|搬家去|定居在|定居|家住在|家住|家在)了?(?P<value>[^，。！？,.!?\s]{{1,15}})"
        ),
    ),
)
_NEGATION_ZH = re.compile(
    rf"^{_ZH_SUBJ}{_ZH_ADV}(?:(?:不再|已经不|没有再|不)(?P<rest>.+?)了?$|(?:戒了?|戒掉了?)(?P<quit>烟|酒)了?"
    r"|(?:辞职|离职|失业|退休)了?(?P<nojob>))[。！!.]*$"
)
_ZH_QUIT = {"烟": "抽烟", "酒": "喝酒"}
_ZH_KIN = (
    "老公",
    "老婆",
    "丈夫",
    "妻子",
    "太太",
    "先生",
    "男朋友",
    "女朋友",
    "对象",
    "爸爸",
    "妈妈",
    "父亲",
    "母亲",
    "老板",
    "领导",
    "经理",
    "上司",
    "主管",
    "室友",
    "导师",
    "医生",
    "车",
    "手机号",
    "电话",
    "邮箱",
)
_COPULA_ZH = re.compile(
    r"^(?P<np>(?:我们?的|[^，。！？,.!?\s的是]{1,8}的)[^，。！？,.!?\s]{1,10}?|我(?:"
    + "|".join(_ZH_KIN)
    + r")"
    r"|(?![我你他她它这那])[\u4e00-\u9fffA-Za-z0-9]{2,8}?)"
    rf"(?:现在|目前|如今|已经|也|又|刚|{_ZH_TIME})*(?:改成|换成|变成|改为|换为|变为|涨到|降到|调到|升到|调整为|更新为|晋升为|升为|升任|"
    r"当选为?|成为|是|为|叫|叫做)了?"
    r"(?P<value>[^，。！？,!?；;]+)"
)
# the value said first: "王磊是我的领导", "小何是我们的新经理", "北京是中国的首都" (a name, never a pronoun or a time)
_INVERTED_ZH = re.compile(
    r"^(?P<value>(?![我你他她它这那今明昨])[\u4e00-\u9fffA-Za-z]{1,6}?)(?:现在|目前|如今|已经|就)?(?:是|成了|成为了?)"
    r"(?P<owner>我们?|[\u4e00-\u9fffA-Za-z]{1,6}?)的(?P<new>新的?)?(?P<attr>[\u4e00-\u9fff]{1,6})$"
)
# "我把储物柜密码重置成了8046": the object of 把 is the slot, what follows 成/为/到 its new value
# — or someone else does it: "医生把我的氨氯地平加到了每天20毫克", "房东把房租涨到三千五了"
_CHANGE_VERBS_ZH = (
    r"重置|重新设置|设置|改|换|调整|调|升级|更新|设|提高|提升|提|增加|加|增|上调|下调|涨|升|降低|降|减少|减|压|续|延长|延|"
    r"推迟|提前|挪|转"
)
_BA_ZH = re.compile(
    rf"^(?P<subj>我们?|[\u4e00-\u9fff]{{1,4}}?){_ZH_ADV}把(?P<np>[^，。！？,!?把]{{1,10}}?)(?:{_CHANGE_VERBS_ZH})"
    r"(?:成|为|到|至)了?(?P<value>[^，。！？,!?；;]+)"
)
# "花呗额度提到了8000": a thing's amount raised or cut, said without who did it (the value must be an amount:
# "老师提到了这本书" mentions a book)
_AMOUNT_TO_ZH = re.compile(
    rf"^(?P<np>(?:我们?的)?[^，。！？,.!?\s把被]{{2,10}}?){_ZH_ADV}(?:{_CHANGE_VERBS_ZH})(?:到|至)了?"
    r"(?P<value>[^，。！？,!?；;]+)$"
)
# "象棋社选了娜娜当社长", "北辰能源任命了杜衡为总经理": <owner> appoints <value> as <attribute>
_APPOINT_ZH = re.compile(
    r"^(?P<owner>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?:任命|选|选举|推选|聘请|聘|请|提拔)了?"
    r"(?P<value>[^，。！？,!?的]{1,6}?)(?:为|当|做|担任|出任)(?:新的?|新一任的?)?"
    r"(?P<attr>[\u4e00-\u9fff]{1,6})$"
)
_APPOINT_EN = re.compile(
    r"^(?P<owner>the\s+(?:[\w'-]+\s+){0,3}?[\w'-]+|(?-i:[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2}))\s+"
    r"(?:has\s+|have\s+|just\s+)*(?:elected|appointed|named|made|hired|promoted|picked|chose|voted\s+in)\s+"
    r"(?P<value>(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?))\s+(?:as\s+)?(?:(?:the|its|their|our|new)\s+)*"
    r"(?P<attr>[\w-]+(?:\s+[\w-]+)?)$",
    re.IGNORECASE,
)
_ZH_NP_STOP = re.compile(
    r"[觉想说要会能看听做让给被把得应该可以知道认为希望需要打算]|^(?:今天|明天|昨天|这|那|哪|谁|什么|怎么|因为|所以|如果|但是)"
)


#: Words for a person a statement may be about ("my wife", "my cousin Ana"): a word for a person in one statement
#: and not the other names another subject (``slot_frames.same_people``); beside a name, it is that person (:func:`same_owner`)
PEOPLE_EN = frozenset(
    [
        "wife",
        "husband",
        "partner",
        "son",
        "daughter",
        "kid",
        "kids",
        "child",
        "children",
        "mom",
        "mum",
        "mother",
        "dad",
        "father",
        "parents",
        "brother",
        "sister",
        "friend",
        "boyfriend",
        "girlfriend",
        "boss",
        "mentor",
        "colleague",
        "coworker",
        "neighbor",
        "neighbour",
        "roommate",
        "grandma",
        "grandpa",
        "grandad",
        "granddad",
        "grandmother",
        "grandfather",
        "aunt",
        "uncle",
        "cousin",
        "nephew",
        "niece",
        "fiance",
        "fiancee",
        # kin by marriage and by step, and those one lives with (not a landlord or a tutor: they act on one's things)
        *(
            "mother-in-law",
            "father-in-law",
            "sister-in-law",
            "brother-in-law",
            "son-in-law",
            "daughter-in-law",
        ),
        *("in-laws", "stepson", "stepdaughter", "stepmother", "stepfather", "stepmum", "stepdad"),
        *(
            "grandson",
            "granddaughter",
            "grandchild",
            "grandkids",
            "godson",
            "goddaughter",
            "nan",
            "gran",
            "granny",
        ),
        *("auntie", "flatmate", "housemate"),
        # a child named by their place: "My youngest has just started Year 4"
        *("eldest", "oldest", "youngest"),
    ]
)

#: Words for a person in Chinese: kin, friends, colleagues (``PEOPLE_EN``'s counterpart)
PEOPLE_ZH = (
    "老公",
    "老婆",
    "丈夫",
    "妻子",
    "太太",
    "儿子",
    "女儿",
    "孩子",
    "爸",
    "妈",
    "父亲",
    "母亲",
    "哥",
    "姐",
    "弟",
    "妹",
    "朋友",
    "闺蜜",
    "同事",
    "领导",
    "老板",
    "邻居",
    "室友",
    "爷爷",
    "奶奶",
    "外婆",
    "外公",
    "姥姥",
    "姥爷",
    "叔",
    "姨",
    "舅",
    # kin by marriage, partners (not those who serve or teach: they act on one's things, 房东把房租涨到…)
    *("姐夫", "妹夫", "嫂", "弟媳", "婆婆", "公公", "岳父", "岳母", "丈母娘", "老丈人", "姑", "侄", "外甥"),
    *("孙子", "孙女", "婶", "男友", "女友", "对象"),
    *("伯", "女婿", "儿媳", "媳妇"),
    *("姨夫", "姨父", "姑夫", "姑父", "舅妈"),  # 小姨夫 is not 小姨
    *("老大", "老二", "老三", "老幺"),  # a child named by their place: 我家老大
    "老板娘",  # the boss's wife: not 老板
)

#: The template of a claim whose owner the words leave open: someone else changes "the X" ("the gym raised the
#: price to …", 健身房把价格涨到了…); one slot with a claim of the same attribute, never named apart from another
OBJECT = "object"
#: The template of a claim that names its attribute ("my X is Y", 我的X是Y)
COPULA = "copula"
#: The template of a claim a verb implies: where one lives or works ("I moved to …", 我在…上班)
RELATION = "relation"


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement's slot and value."""

    owner: str
    attribute: str
    value: str  # normalised; "" for a negation that names no value ("I quit my job")
    arity: Arity
    change: bool  # explicit change words
    negated: bool = False
    kind: str = (
        "value"  # "value" | "class" (a value naming a class: "a doctor") | "place" (a prepositional phrase)
    )
    template: str = COPULA

    @property
    def key(self) -> str:
        return self.attribute if not self.owner else f"{self.owner}|{self.attribute}"


@dataclass(frozen=True, slots=True)
class ValueChange:
    """The new statement gives another value to the old one's slot (or negates it)."""

    key: str
    old_value: str
    new_value: str
    arity: Arity  # "single": the old value ends; "unknown": review
    reason: str


# ------------------------------------------------------------------ normalisation
@lru_cache(maxsize=16384)
def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("’", "'").strip()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    w = word.casefold()
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    return w.rstrip("e") or w


def _value(raw: str, zh: bool) -> tuple[str, str]:
    """The normalised value and its kind."""
    text = re.sub(
        r"^(?:(?:now|currently|still|actually|officially|just)\s+)+", "", _fold(raw), flags=re.IGNORECASE
    )
    text = (_VALUE_END_ZH if zh else _VALUE_END_EN).sub("", text).strip(" .。!！'\"“”‘’")
    kind = "value"
    if re.match(
        r"^(?:a|an|one of|some|kind of|pretty|very|really|so|quite|too|not)\s", text, re.IGNORECASE
    ) or (zh and re.match(r"^(?:一[个名位只家种]|个|很|挺|非常|特别|不)", text)):
        kind = "class"
    elif re.match(
        r"^(?:on|at|by)\s+(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|noon|midnight)",
        text,
        re.IGNORECASE,
    ):
        text = text.split(None, 1)[1]  # "on Tuesday" = "Tuesday": a date is a value
    elif re.match(r"^(?:in|on|at|with|from|for|about|by|over|under|near|like)\b", text, re.IGNORECASE):
        kind = "place"
    text = re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.IGNORECASE)
    return " ".join(text.casefold().split()), kind


def _owner_en(phrase: str) -> str:
    p = _fold(phrase).casefold()
    p = re.sub(r"^(?:i|we|my|our|the)$", "", p)
    p = re.sub(r"^(?:my|our|the)\s+", "", p)
    return re.sub(r"(?:'s|s')$", "", p).strip()


def _attribute_words(words: list[str]) -> str:
    return canonical_attribute(" ".join(w for w in words if w not in _DROPPED_ADJ))


def canonical_attribute(attribute: str, *, zh: bool = False) -> str:
    """The relation class of an attribute ("mobile number" → ``phone``, "my boss" → ``manager``,
    年薪 → 工资); a qualifier before the class word stays ("github account" → ``github handle``)."""
    a = " ".join(attribute.casefold().split())
    if zh:
        for phrase in sorted(_CLASS_OF_ZH, key=len, reverse=True):
            if a.endswith(phrase):
                return a[: -len(phrase)] + _CLASS_OF_ZH[phrase]
        return a
    if a in _CLASS_OF_EN:
        return _CLASS_OF_EN[a]
    words = a.split()
    for n in (2, 1):  # the head: the last one or two words
        head = " ".join(words[-n:])
        if len(words) > n and head in _CLASS_OF_EN and head not in _WHOLE_ONLY_EN:
            qualifier = [w for w in words[:-n] if w not in _GENERIC_QUALIFIERS_EN]
            return " ".join([*qualifier, _CLASS_OF_EN[head]])
    return a


_WHOLE_ONLY_EN = frozenset(["number", "relationship", "pin"])  # "apartment number" is no phone
_GENERIC_QUALIFIERS_EN = frozenset(
    [
        "annual",
        "yearly",
        "monthly",
        "base",
        "personal",
        "mobile",
        "cell",
        "direct",
        "private",
        "main",
        "primary",
        "home",
        "contact",
        "phone",
    ]
)


_MULTI_STEMS = frozenset(_stem(w) for w in _MULTI_EN)
_SINGLE_STEMS = frozenset(_stem(w) for w in _SINGLE_EN)


@lru_cache(maxsize=16384)
def _arity(attribute: str, *, zh: bool) -> Arity:
    if zh:  # the longest lexicon word in the attribute decides: 男朋友 (single) over 朋友 (multi)
        multi = max((len(w) for w in _MULTI_ZH if w in attribute), default=0)
        single = max((len(w) for w in _SINGLE_ZH if w in attribute), default=0)
        return "unknown" if not (multi or single) else "multi" if multi >= single else "single"
    words = re.split(r"[\s_'-]+", attribute.casefold())
    stems = {_stem(w) for w in words} | set(words)
    if stems & (_MULTI_EN | _MULTI_STEMS) or (
        words
        and words[-1].endswith("s")
        and not words[-1].endswith("ss")
        and words[-1] not in _SINGLE_EN
        and len(words[-1]) > 3
    ):
        return "multi"  # a plural head ("my hobbies are …") names several values
    return "single" if (stems | {attribute}) & (_SINGLE_EN | _SINGLE_STEMS) else "unknown"


# ------------------------------------------------------------------ templates
def _split_np_en(np: str) -> tuple[str, str] | None:
    words = _fold(np).casefold().split()
    if not words:
        return None
    # "the capital of france" → owner france, attribute capital
    if "of" in words[1:-1]:
        i = words.index("of", 1)
        owner, attr = (
            _owner_en(" ".join(words[i + 1 :])),
            _attribute_words(words[1:i] if words[0] in ("my", "our", "the") else words[:i]),
        )
        return (owner, attr) if attr else None
    # "my aunt's phone number" → owner aunt, attribute phone number; "Aunt Rosa's phone number" → aunt rosa
    first = 1 if words[0] in ("my", "our", "the") else 0
    poss = next((i for i, w in enumerate(words[:3]) if w.endswith(("'s", "s'")) and i < len(words) - 1), None)
    if poss is not None:
        attr = _attribute_words(words[poss + 1 :])
        return (_owner_en(" ".join(words[first : poss + 1])), attr) if attr else None
    return ("", _attribute_words(words[1:])) if first else None


#: "the X of Y": one thing of Y, a noun phrase whose copula gives a single value (module docstring)
_DEFINITE_OF_EN = re.compile(r"the\s+(?:[\w-]+\s+){1,3}?of\s+\S", re.IGNORECASE)


# the value said first: "Ivan is our PM now", "Lena is Mark's girlfriend", "Tom is our new CTO"
_INVERTED_EN = re.compile(
    rf"^(?P<value>{_NAME_EN}(?:\s+{_NAME_EN})?)\s+(?:is|'s)\s+(?:now\s+|currently\s+|still\s+|officially\s+)?"
    rf"(?P<np>(?:my|our|{_NAME_EN}(?:'s|’s))\s+(?:[\w-]+\s+){{0,2}}?[\w-]+)(?:\s+(?:now|these days|again))?$",
    re.IGNORECASE,
)


def _owned_arity(owner: str, attr: str) -> Arity:
    """The arity of ``owner``'s ``attr``: of many values when the owner may be several people ("my sister's name":
    one of my sisters', and another sister has another), else the attribute's own (:func:`_arity`)."""
    if any(w in _MULTI_EN or _stem(w) in _MULTI_STEMS for w in owner.split()):
        return "multi"
    return _arity(attr, zh=False)


def _inverted_en(text: str) -> Claim | None:
    m = _INVERTED_EN.match(text)
    if m is None:
        return None
    split = _split_np_en(m.group("np"))
    if split is None or not split[1]:
        return None
    owner, attr = split
    value, kind = _value(m.group("value"), False)
    change = bool(_CHANGE_EN.search(text))
    return Claim(owner, attr, value, _owned_arity(owner, attr), change, kind=kind) if value else None


def _copula_en(text: str) -> Claim | None:
    m = _HAVE_NEW_EN.match(text) or _LABEL_EN.match(text)
    if m:
        value, kind = _value(m.group("value"), False)
        attr = _attribute_words(_fold(m.group("attr")).casefold().split())
        return Claim("", attr, value, _arity(attr, zh=False), True, kind=kind) if value else None
    m = _COPULA_EN.match(text) or _SET_EN.match(text)
    if m is None:
        return None
    split = _split_np_en(m.group("np"))
    if split is None or not split[1] or re.search(r"\b(?:is|are|was|were)\b", split[1]):
        return None
    value, kind = _value(m.group("value"), False)
    if not value or len(value) > 80 or len(split[1].split()) > 6:
        return None
    owner, attr = split
    change = m.re is _SET_EN or bool(_CHANGE_EN.search(text))  # "we upgraded the server to …" says a change
    arity = _owned_arity(owner, attr)
    if arity == "unknown" and _DEFINITE_OF_EN.match(_fold(m.group("np"))):
        arity = "single"  # "the genre of Hamlet", "the author of Dune": a definite singular noun phrase
    # "the gym raised the price to …": whose price the words do not say; such a claim is one slot with a claim of
    # the same attribute, and apart from none (``_named_apart``): the aligned words read the rest
    whose = m.re is _SET_EN and _OTHER_ACTS_ON_THE.match(m.group("subj") + " " + m.group("np"))
    return Claim(owner, attr, value, arity, change, kind=kind, template=OBJECT if whose else COPULA)


def _relation_en(text: str) -> Claim | None:
    for name, pattern in _RELATIONS_EN:
        m = pattern.match(text)
        if m:
            value, kind = _value(m.group("value"), False)
            if value:
                return Claim(
                    _owner_en(m.group("subj")),
                    name,
                    value,
                    "single",
                    bool(_CHANGE_EN.search(text)),
                    kind=kind,
                    template=RELATION,
                )
    return None


def _state_en(text: str) -> Claim | None:
    for name, pattern, same in _STATE_EN:
        m = pattern.match(text)
        if m:
            value = m.group("value").casefold()
            return Claim(
                _owner_en(m.group("subj")),
                name,
                same.get(value, value),
                "single",
                bool(_CHANGE_EN.search(text)) or bool(re.search(r"\b(?:got|became|back)\b", text, re.I)),
                template=RELATION,
            )
    return None


def _negation_en(text: str) -> Claim | None:
    m = _NEGATION_EN.match(text)
    if m is None:
        return None
    owner = _owner_en(m.group("subj"))
    if m.group("gerund"):  # "I quit smoking in January": the habit ends, whatever follows
        return Claim(owner, _stem(m.group("gerund")), "", "single", True, True, template="negation")
    if m.group("left") is not None:
        value, _kind = _value(m.group("left"), False)
        return Claim(owner, EMPLOYER, value, "single", True, True, template="negation")
    if m.group("nojob") is not None:
        return Claim(owner, EMPLOYER, "", "single", True, True, template="negation")
    if m.group("notbe"):
        return Claim(owner, "be " + _stem(m.group("notbe")), "", "single", True, True, template="negation")
    rest = m.group("longer") or m.group("anymore")
    positive = _claim_en(f"{m.group('subj')} {rest}", generic=True)
    if positive is None:
        be = re.match(r"^(?:a\s+|an\s+)?([\w-]+)$", rest, re.IGNORECASE)
        if be:
            return Claim(owner, "be " + _stem(be.group(1)), "", "single", True, True, template="negation")
    if positive is None:
        return None
    return replace(positive, negated=True, change=True, template="negation")


_BE_EN = re.compile(r"^(?P<subj>i|we)(?:'m|\s+am|'re|\s+are)\s+(?:a\s+|an\s+)?(?P<x>[\w-]+)$", re.IGNORECASE)


def _verb_en(text: str) -> Claim | None:
    be = _BE_EN.match(text)
    if be:  # "I'm a vegetarian": a state that a negation can end
        return Claim("", "be " + _stem(be.group("x")), "", "unknown", False, template="verb")
    m = _VERB_EN.match(text)
    if m is None:
        return None
    subject = m.group("subj").casefold()
    if (
        subject not in ("i", "we")
        and not subject.startswith(("my ", "our "))
        and not m.group("verb").endswith(("s", "ed"))
    ):
        return None  # "Create a plan", "Perform the tasks": an imperative, not "Dana runs the team"
    verb = _stem(m.group("verb"))
    attr = verb + (f" {m.group('prep').casefold()}" if m.group("prep") else "")
    value, kind = _value(m.group("value"), False)
    arity = _arity(attr, zh=False)
    return Claim(
        _owner_en(m.group("subj")),
        attr,
        value,
        "unknown" if arity == "single" else arity,
        bool(_CHANGE_EN.search(text)),
        kind=kind,
        template="verb",
    )


def _claim_en(text: str, *, generic: bool) -> Claim | None:
    if _PAST_EN.search(text) or _FUTURE_EN.search(text):
        return None
    for find in (_negation_en, _relation_en, _state_en, _appoint_en, _copula_en, _inverted_en):
        claim = find(text)
        if claim is not None:
            return claim
    return _verb_en(text) if generic else None


def _np_zh(np: str) -> tuple[str, str]:
    """Owner and attribute of a Chinese noun phrase: 北辰能源的总经理 → (北辰能源, 总经理), 我储物柜的密码 →
    (我, 储物柜密码), 我老公 → (我, 老公), 储物柜密码 → ("", 储物柜密码)."""
    owner, _, attr = (
        np.rpartition("的")
        if "的" in np
        else (np[:1] if np.startswith("我") else "", "", np[1:] if np.startswith("我") else np)
    )
    attr = attr.removeprefix("新").strip()
    if owner.startswith("我") and owner not in ("我", "我们"):  # 我最喜欢的运动: the speaker's "最喜欢运动"
        rest = owner.removeprefix("我们").removeprefix("我")
        owner, attr = "我", attr if rest in attr else rest + attr  # 我们村的村长: the village's 村长
    return owner, attr


def _appoint_en(text: str) -> Claim | None:
    m = _APPOINT_EN.match(text)
    if m is None:
        return None
    attr = canonical_attribute(m.group("attr"))
    if _arity(attr, zh=False) == "multi":
        return None
    value, kind = _value(m.group("value"), False)
    return Claim(_owner_en(m.group("owner")), attr, value, "single", True, kind=kind) if value else None


def _owner_zh(subject: str) -> str:
    s = subject.strip()
    return "" if s in ("我", "我们", "") else s


def _zh_claim(owner: str, attr: str, value: str, kind: str, change: bool, template: str = COPULA) -> Claim:
    """A Chinese claim of ``owner``'s ``attr``: the owner as :func:`_owner_zh` keeps it, the attribute's class
    (:func:`canonical_attribute`) and its arity (:func:`_arity`)."""
    return Claim(
        _owner_zh(owner),
        canonical_attribute(attr, zh=True),
        value,
        _arity(attr, zh=True),
        change,
        kind=kind,
        template=template,
    )


def _claim_zh(text: str, *, generic: bool) -> Claim | None:
    if _PAST_ZH.search(text):
        return None
    change = bool(_CHANGE_ZH.search(text))
    m = _NEGATION_ZH.match(text)
    if (m and m.group("subj") in ("我", "我们")) or (m and len(m.group("subj")) >= 2):
        owner = _owner_zh(m.group("subj"))
        if m.group("quit"):
            return Claim(owner, _ZH_QUIT[m.group("quit")], "", "single", True, True, template="negation")
        if m.group("nojob") is not None:
            return Claim(owner, EMPLOYER, "", "single", True, True, template="negation")
        positive = _claim_zh(m.group("subj") + m.group("rest"), generic=True)
        if positive is not None:
            return replace(positive, negated=True, change=True, template="negation")
    for name, pattern in _RELATIONS_ZH:
        m = pattern.match(text)
        if m and (m.group("subj") in ("我", "我们") or not _ZH_NP_STOP.search(m.group("subj"))):
            value, kind = _value(m.group("value"), True)
            if value:
                return Claim(
                    _owner_zh(m.group("subj")), name, value, "single", change, kind=kind, template=RELATION
                )
    for pattern, amount_only in ((_BA_ZH, False), (_AMOUNT_TO_ZH, True)):  # a thing changed to a value
        m = pattern.match(text)
        if m and not _ZH_NP_STOP.search(m.group("np")):
            # 健身房把价格涨到了45元: whose price the words do not say (an ``OBJECT`` claim, as in English)
            whose = pattern is _BA_ZH and m.group("subj") not in ("我", "我们") and "的" not in m.group("np")
            owner, attr = _np_zh(m.group("np"))
            value, kind = _value(m.group("value"), True)
            if attr and value and len(value) <= 40 and (not amount_only or _AMOUNT.match(value)):
                return _zh_claim(owner, attr, value, kind, True, template=OBJECT if whose else COPULA)
    m = _APPOINT_ZH.match(text)
    if m and not _ZH_NP_STOP.search(m.group("owner") + m.group("attr")):
        value, kind = _value(m.group("value"), True)
        attr = m.group("attr").removesuffix("了")
        if value and attr:
            return Claim(
                m.group("owner"), canonical_attribute(attr, zh=True), value, "single", True, kind=kind
            )
    m = _INVERTED_ZH.match(text)
    if m and not _ZH_NP_STOP.search(
        m.group("value") + m.group("owner")
    ):  # "王磊是我的领导", "北京是中国的首都"
        attr = m.group("attr")
        value, kind = _value(m.group("value"), True)
        if value:
            return _zh_claim(m.group("owner"), attr, value, kind, change or bool(m.group("new")))
    m = _COPULA_ZH.match(text)
    if m and not _ZH_NP_STOP.search(m.group("np")):
        owner, attr = _np_zh(m.group("np"))
        value, kind = _value(m.group("value"), True)
        if attr and value and len(value) <= 40:
            return _zh_claim(owner, attr, value, kind, change)
    if generic:
        m = re.match(rf"^{_ZH_SUBJ}{_ZH_ADV}(?P<pred>[\u4e00-\u9fff]{{1,8}})[了啦呢。！!.]*$", text)
        if m and m.group("subj") in ("我", "我们"):
            return Claim("", m.group("pred"), "", "unknown", change, template="verb")
    return None


# a leading circumstance before the subject: "After the reorg I report to …", "Since the move, we …"
_AFTER_LEAD_EN = re.compile(
    r"^(?:after|since|following|with|due to|because of)\s+(?:the|a|an|my|our|all|this|that)\s+"
    r"(?:[\w'-]+\s+){0,3}?[\w'-]+\s*,?\s+(?=(?:i|we|my|our)\b)",
    re.IGNORECASE,
)
# a statement that drops its subject, opening with a verb in the past: the speaker's own ("Moved to Graz")
_SUBJECTLESS_EN = re.compile(
    r"^(?:started|moved|switched|joined|got|took|renamed|changed|sold|quit|left|finished|"
    r"bought|upgraded|downgraded|relocated|transferred|reset|bumped|raised|lowered|increased|decreased|reduced|"
    r"upped|extended|pushed)\s",
    re.IGNORECASE,
)


def _clause_claim_zh(text: str) -> Claim | None:
    """A later clause of a change that states the value ("高女士落选了，现在的镇长是欧先生"; "又搬家了，现在在南昌"
    → 我现在在…): the last clause first, a clause without a subject said by the speaker."""
    clauses = [c.strip() for c in re.split(r"[，,；;]", text.rstrip("。！!.～~ ")) if c.strip()]
    for clause in reversed(clauses[1:]):
        clause = re.sub(r"^(?:现在|目前|如今)的?", "", clause)
        found = _claim_zh(clause, generic=False)
        if found is None and not re.match(r"^[我你他她它咱您]", clause):
            found = _claim_zh("我" + clause, generic=False)
        moved = _MOVED_TO_ZH.match(clause) if found is None and _MOVED_HOUSE_ZH.search(text) else None
        if moved is not None:  # "又搬家了，现在在南昌": after a move, where one is now is where one lives
            found = _claim_zh("我住在" + moved.group("place"), generic=False)
        if found is not None:
            return found
    return None


_MOVED_HOUSE_ZH = re.compile(r"搬家|搬了家")
# …and only a place: "现在在公司加班" says what one does there, not where one lives
_MOVED_TO_ZH = re.compile(
    r"^(?:我们?)?(?:现在|目前|如今)?(?:就|已经)?在"
    r"(?P<place>(?:(?!加班|上班|工作|开会|出差|吃|喝|玩|学|等|休息|睡|忙|看|写)[^，。！？,.!?\s]){1,12})$"
)


def _mark_change(claim: Claim | None) -> Claim | None:
    return None if claim is None else replace(claim, change=True)


def _clauses(text: str) -> list[str]:
    """The clauses of an English sentence, the last first: "Karen left, my boss is now Tom" → the
    second clause says the value; a clause that drops its subject ("…and now drive a Honda") gets "I"."""
    parts = [
        p.strip()
        for p in re.split(
            r"\s*(?:[;]|,(?!\d{3}\b)|\s[-–—]\s)\s*|\s+(?:and|but|so)\s+(?=now\b|then\b|i\b|my\b|our\b)",
            text,
            flags=re.IGNORECASE,
        )
        if p and p.strip()
    ]
    out = []
    for p in reversed(parts[1:]):
        p = re.sub(r"^(?:and|but|so)\s+", "", p, flags=re.IGNORECASE)
        if re.match(r"^(?:now|then|also)\s+[a-z]+", p, re.IGNORECASE) and not re.match(
            r"^now\s+(?:i|my|our|the)\b", p, re.IGNORECASE
        ):
            p = "I " + p
        out.append(p)
    if (
        len(parts) > 1
    ):  # the first clause alone, when a later one spoils the whole ("…: 0151 22, the old one is dead")
        out.append(parts[0])
    return out


def clauses_apart(text: str) -> list[str]:
    """The clauses of a statement of several, each on its own: English clauses after the first, the last first
    ("The building was sold; our new landlord is Mrs. Baptiste" → ["our new landlord is Mrs. Baptiste"]; the whole
    statement's claim reads the first), Chinese clauses in order ("县里给换了一辆新的宇通校车，黄色的，…" → the
    first says the change, the others add to it). A change may be said in one clause of several."""
    t = _fold(text)
    if re.search(r"[\u4e00-\u9fff]", t):
        parts = [c.strip() for c in re.split(r"[，,；;：:]", t.rstrip("。！!.～~ ")) if c.strip()]
        return [c for c in parts if len(c) >= _CLAUSE_MIN_ZH] if len(parts) > 1 else []
    return _clauses(re.sub(r"[.!。\s]+$", "", t))[:-1]


#: The fewest characters of a Chinese clause read apart: "黄色的" or "还好" say no value of their own
_CLAUSE_MIN_ZH = 4


@lru_cache(maxsize=8192)
def claim_of(text: str, *, generic: bool = False) -> Claim | None:
    """The slot claim of one statement, or None. ``generic`` also reads "<subject> <verb> <object>"
    statements of no known relation (used for the older side of a comparison and under negations)."""
    t = _fold(text)
    zh = bool(re.search(r"[\u4e00-\u9fff]", t)) and not re.match(r"^[A-Za-z]", t)
    if zh:
        t = _TIME_LEAD_ZH.sub("", _LEAD_ZH.sub("", t))
        if _SUBJECTLESS_ZH.match(t):
            t = "我" + t
        if _CHANGE_ZH.search(t):  # "我现在的男朋友叫…" is "我的男朋友叫…", said as a change
            t = re.sub(r"^(我们?)(?:现在|目前|如今)(?=的|最)", r"\1", t)
            t = re.sub(r"^(?:现在|目前|如今)[，,]?", "", t)
            return _mark_change(_claim_zh(t.rstrip("。！!.～~ "), generic=generic) or _clause_claim_zh(t))
        return _claim_zh(t.rstrip("。！!.～~ "), generic=generic)
    t = _LEAD_EN.sub("", t)
    t = _AFTER_LEAD_EN.sub("", t)
    t = re.sub(r"[.!。\s]+$", "", t)
    if _SUBJECTLESS_EN.match(t):  # "Started my new job at Bosch today" is the speaker's
        t = "I " + t[0].lower() + t[1:]
    if not t or t.endswith("?") or len(t) > 200:
        return None
    claim = _claim_en(t, generic=generic)
    if claim is not None and claim.template != "verb":
        return claim
    change = bool(_CHANGE_EN.search(t))
    for clause in _clauses(t):  # a later clause that states a value ("…, my boss is now Tom")
        found = _claim_en(_LEAD_EN.sub("", clause), generic=generic)
        if found is not None and found.template != "verb":
            return replace(found, change=found.change or change)
    return claim


# an assistant's question that names a slot, and the statement frame a short answer fills
_ASKS_EN: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"^(?:so|and|ok|okay)?[,\s]*(?:what|which|who)(?:'s|’s|\s+is|\s+are)\s+(?:your|the)\s+(?P<np>[\w' -]{1,40}?)"
            r"(?:\s+(?:now|these days|then|again))?\s*\?$",
            re.IGNORECASE,
        ),
        "my {np} is ",
    ),
    (
        re.compile(
            r"^(?:so|and)?[,\s]*where\s+do\s+you\s+(?P<verb>live|work)(?:\s+(?:now|these days))?\s*\?$",
            re.IGNORECASE,
        ),
        "I {verb} in ",
    ),
)
_ASKS_ZH: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"^(?:那|所以)?你(?:现在)?的?(?:新的?)?(?P<np>[\u4e00-\u9fff]{1,8}?)(?:现在)?(?:是什么|是多少|是哪个|是哪里|是哪儿|叫什么|是谁)"
            r"[呢啊呀]?[？?]$"
        ),
        "我的{np}是",
    ),
    (re.compile(r"^(?:那|所以)?你(?:现在)?住(?:在)?哪(?:里|儿)?[呢啊呀]?[？?]$"), "我住在"),
)


def answer_frame(question: str) -> str | None:
    """The statement a short answer to ``question`` completes: "What's your new address?" →
    "my new address is " (then "12 Elm St" says "my new address is 12 Elm St"), 你的车牌号是多少？ → 我的车牌号是;
    None for a question that names no slot."""
    q = _fold(question)
    for pattern, frame in (*_ASKS_EN, *_ASKS_ZH):
        m = pattern.match(q)
        if m:
            return frame.format(**{k: v.strip() for k, v in m.groupdict().items()})
    return None


def slot_of(text: str) -> Claim | None:
    """The claim a stored statement makes (no generic verbs), for ``metadata.slot`` and the review queue."""
    return claim_of(text)


#: Words that put one more value beside the others. "又搬家了" is a change again, not one more; "too" adds where a clause
#: ends ("I have a cat too"), not before a word it qualifies ("too many late nights", "the campaign's got too good");
#: 再也不 is "never again", no 也 of one more; "another" after a preposition names some other thing in passing ("he's
#: stuck on another job"), not one more
_ADDITIVE = re.compile(
    r"\b(?:also|too(?=\s*(?:[,.;:!?)—–]|-\s|$))|as well|(?<!\bon )(?<!\bin )(?<!\bat )(?<!\bfor )(?<!\bwith )another|"
    r"additionally|in addition|besides)\b|还有|(?<!再)也|另外|"
    r"又(?!被?(?:搬|换|改|涨|降|跳|调|升|考))",  # 又被调去…: a change again, by someone else's hand
    re.IGNORECASE,
)
_VALUE_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "my",
        "our",
        "and",
        "or",
        "every",
        "each",
        "per",
        "mg",
    ]
)


def _shares_word(a: str, b: str) -> bool:
    """The aligned part of two values: a content word in common ("10 mg of lisinopril" / "20 mg of lisinopril")."""
    wa = {w for w in re.findall(r"[^\W\d_]+", a) if w not in _VALUE_STOP}
    wb = {w for w in re.findall(r"[^\W\d_]+", b) if w not in _VALUE_STOP}
    return bool(wa & wb)


def _same_value(a: str, b: str) -> bool:
    return a == b or (bool(a) and bool(b) and (a.startswith(b + " ") or b.startswith(a + " ")))


# ------------------------------------------------------------------ alignment (any statement shape)
_ALIGN_STOP_EN = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "we",
        "us",
        "our",
        "you",
        "your",
        "he",
        "she",
        "his",
        "her",
        "they",
        "them",
        "their",
        "it",
        "its",
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "by",
        "and",
        "or",
        "but",
        "so",
        "as",
        "that",
        "this",
        "these",
        "those",
        "there",
        "here",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "will",
        "would",
        "can",
        "could",
        "should",
        "just",
        "about",
        "some",
        "any",
        "all",
        "very",
        "really",
        "also",
        "still",
        "now",
        "new",
        "old",
        "today",
        "yesterday",
        "week",
        "month",
        "year",
        "last",
        "next",
        "this",
        "ago",
        "since",
        "after",
        "before",
        "then",
        "than",
        "not",
        "no",
        "yes",
        "got",
        "get",
        "gets",
        "one",
        "ones",
        # prepositions: shared, "… without stabilisers" / "… without armbands" name no one thing
        *("without", "within", "across", "through", "towards", "toward", "against", "among", "between"),
        *("during", "around", "behind", "beyond", "upon", "via", "per"),
    ]
)
_ALIGN_STOP_ZH = frozenset(
    [
        "我",
        "我们",
        "你",
        "他",
        "她",
        "它",
        "的",
        "了",
        "是",
        "在",
        "和",
        "跟",
        "也",
        "都",
        "就",
        "还",
        "又",
        "很",
        "把",
        "被",
        "给",
        "到",
        "去",
        "从",
        "现在",
        "已经",
        "以后",
        "之后",
        "今天",
        "昨天",
        "这",
        "那",
        "个",
        "一",
    ]
)
# a new statement that ends what an old one said about a shared word ("Sold the Civic", "我和陈浩分手了")
_ENDING_EN = re.compile(
    r"\b(?:sold|quit|left|divorced|broke up|split up|closed|cancel+ed|scrapped|dropped|gave up|"
    r"stopped|ended|retired|moved out|moved away|handed .{1,30}? over|replaced|got rid of|came off|come off|"
    r"st(?:oo|e)d down|stepped (?:down|aside)|passed away|packed up|gave up the ghost|"
    r"(?:got|was|were) (?:nicked|stolen)|burn[te]d down|shut down|"
    r"let(?= .{1,40}?\blapse)|"
    r"no longer|not anymore|any ?more)\b",
    re.IGNORECASE,
)
_ENDING_ZH = re.compile(
    r"退休|卸任|离任|下台|落选|辞去|被撤|卖了|卖掉|辞职|离职|辞了职|离了职|离开|分手|离婚|戒了|戒掉|不再|取消|停了|退了|关了|注销|换掉|"
    r"不吃|不喝|不抽|撤了|撤掉|倒闭|关门大吉|拆了|拆掉|查封"
)  # 辞了职: 辞职 with its 了 inside; 网点撤了, 店倒闭了, 太阳能拆了, 酒楼被查封了: a thing that is gone
_STRONG_CHANGE_EN = re.compile(
    r"\b(?:changed?|now|(?:my|our|the|his|her|their) new|new one|moved|switched|reassigned|raised|lowered|extended|postponed|rebooked|renamed|upgraded|"
    r"downgraded|promoted|reset|re-?registered|cut|increased|decreased|went (?:up|down)|up to|down to|instead|"
    r"bumped|boosted|reduced|dropped|renewed|rebranded|swapped|traded|reassigned|took over|rescheduled|"
    r"pushed (?:back |out )?to|brought forward|delayed|" + _NEW_SCHEDULE_EN + r"|"
    r"no longer|from now on|these days|nowadays|started|transferred|relocated|replaced)\b",
    re.IGNORECASE,
)
_FROM_TO = re.compile(
    r"\bfrom\s+(?P<old>.+?)\s+to\s+(?P<new>.+?)(?:[,.;!]|$)|从(?P<old2>.+?)(?:换|改|搬|调|转)?到(?P<new2>[^，。！,]+)",
    re.IGNORECASE,
)
_TIME_LEAD_ZH = re.compile(
    r"^(?:(?:上个?月|这个?月|上周|这周|本周|昨天|今天|前天|去年|今年|前年|最近|刚刚?|周末|上周末)"
    r"(?:的)?(?:春天|夏天|秋天|冬天|年初|年底|年中|月初|月底|上半年|下半年)?"
    r"|(?:春天|夏天|秋天|冬天|年初|年底|上半年|下半年)(?=[，,]?(?:搬|换|跳槽|入职|加入|调|转|改|升|我)))[，,]?"
)
# a statement that drops its subject, opening with a verb of change: the speaker's own ("搬到了武汉",
# "(今年春天)搬到了武汉" once the time is cut), as "Moved to Graz" is in English (``_SUBJECTLESS_EN``)
_SUBJECTLESS_ZH = re.compile(r"^(?:搬到|搬去|搬进|搬家到|搬家去|跳槽到|跳槽去|入职|加入了?|调到|转到)")


@lru_cache(maxsize=8192)
def _align_tokens(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Content tokens of ``text`` (stems; zh words and their characters' bigrams) and its value tokens
    (numbers, capitalised words after the first, e-mail addresses, Latin words inside zh)."""
    folded = _fold(text)
    zh = bool(re.search(r"[\u4e00-\u9fff]", folded))
    content: set[str] = set()
    values: set[str] = set()
    if zh:
        from ._jieba import cut_precise

        for run in re.findall(r"[\u4e00-\u9fff]+", folded):
            words = [
                w
                for w in cut_precise(run)
                if w not in _ALIGN_STOP_ZH
                and w not in _FILLER_ZH
                and not _CHANGE_ZH.search(w)
                and not _ENDING_ZH.search(w)
            ]
            content.update(w for w in words if len(w) >= 2)
        # Latin words and numbers inside zh (\w would run on into the Chinese words after them: "Emma回国了")
        values.update(
            v.casefold() for v in re.findall(r"[A-Za-z0-9][A-Za-z0-9_@.·:-]*[A-Za-z0-9_]|\d", folded)
        )
        return frozenset(content), frozenset(values)
    for i, m in enumerate(re.finditer(r"[\w@.'-]*\w", folded)):
        word = m.group()
        low = word.casefold()
        base = re.sub(r"'(?:s|ve|m|ll|d|re|t)$|n't$", "", low)
        numeric = any(ch.isdigit() for ch in word) or "@" in word
        if not numeric and (
            base in _ALIGN_STOP_EN or base in EN_STOPWORDS or base in _GENERIC_EN or len(base) < 3
        ):
            continue  # "I've", "the", "way", "really": words that name no thing
        if numeric or (i > 0 and word[:1].isupper()):
            values.add(low)
        if not low.isdigit() and not _CHANGE_WORD_EN.fullmatch(low):
            content.add(_stem(base))
    return frozenset(content), frozenset(values)


# words of any chat that name no thing: shared, they say nothing of one slot
_GENERIC_EN = frozenset(
    [
        "way",
        "great",
        "good",
        "nice",
        "really",
        "even",
        "much",
        "many",
        "lot",
        "lots",
        "bit",
        "thing",
        "things",
        "sure",
        "maybe",
        "try",
        "trying",
        "tried",
        "back",
        "well",
        "like",
        "love",
        "get",
        "getting",
        "make",
        "making",
        "made",
        "going",
        "want",
        "need",
        "know",
        "see",
        "look",
        "feel",
        "yet",
        "been",
        "being",
        "able",
        "lately",
        "recently",
        "always",
        "never",
        "ever",
        "usually",
        "often",
        "sometimes",
        "still",
        "kind",
        "sort",
        "pretty",
        "quite",
        "enjoy",
        "think",
        "time",
        "times",
        "day",
        "days",
        "done",
        "doing",
        "use",
        "using",
        "used",
        "take",
        "taking",
        "keep",
        "wow",
        "yeah",
        "hey",
        "hi",
        "hello",
        "thanks",
        "please",
        "something",
        "anything",
        "everything",
        "nothing",
        "someone",
        "anyone",
        "everyone",
        "would",
        "could",
        "should",
        "might",
        "will",
        "can",
        "one",
        "two",
    ]
)


_CHANGE_WORD_EN = re.compile(
    r"(?:chang|mov|switch|reassign|rais|lower|extend|postpon|rebook|renam|upgrad|downgrad|promot|reset|regist|"
    r"re-regist|increas|decreas|bump|boost|reduc|dropp|renew|rebrand|swapp|trad|sold|sell|quit|left|leav|divorc|"
    r"clos|cancel|scrapp|stopp|end|retir|replac|start|transferr|relocat|cut)\w*|new|now|instead|again",
)
_FILLER_ZH = frozenset(
    [
        "现在",
        "已经",
        "目前",
        "如今",
        "然后",
        "因为",
        "所以",
        "但是",
        "不过",
        "以后",
        "之后",
        "完全",
        "一直",
        "还是",
        "只",
    ]
)


@lru_cache(maxsize=8192)
def moved_from(text: str) -> frozenset[str]:
    """The tokens of X in ``text``'s "from X to Y" (从X换到Y): the value a change moves away from, which
    names no slot (none without such a phrase)."""
    m = _FROM_TO.search(text)
    return frozenset().union(*_align_tokens(m.group("old") or m.group("old2") or "")) if m else frozenset()


@lru_cache(maxsize=8192)
def _adds_recalls_or_plans(text: str) -> bool:
    """``text`` adds a value ("also", 也), speaks of the past or of a plan: it changes no value."""
    return bool(_ADDITIVE.search(text) or _PAST_EN.search(text) or _FUTURE_EN.search(text))


def explicit_from_to(new: str, old: str) -> ValueChange | None:
    """A change that names both values: a change word and "from X to Y" (从X换到Y) in ``new``, X in
    ``old`` and Y not. It holds whatever the relation's arity ("my brother switched from law to
    medicine" after "my brother is studying law"); a trip ("drove from London to Rome", 从北京到上海出差)
    says no change word and ends nothing, nor does a plan."""
    if _adds_recalls_or_plans(new):
        return None
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    m = _FROM_TO.search(new)
    change = (_CHANGE_ZH if zh else _STRONG_CHANGE_EN).search(new)
    if m is None or change is None:
        return None
    before = (m.group("old") or m.group("old2") or "").strip().casefold()
    after = (m.group("new") or m.group("new2") or "").strip().casefold()
    said = old.casefold()
    if len(before) < 2 or not after or after in said:
        return None
    if not (before in said if zh else re.search(rf"\b{re.escape(before)}\b", said)):
        return None
    (old_c, _), (new_c, _) = _align_tokens(old), _align_tokens(new)
    anchor = (old_c & new_c) - moved_from(new)
    if anchor:
        key = " ".join(sorted(anchor))[:80]
    else:  # the slot a template reads once "from X" is left out ("I moved to Rome", 我搬到了上海), else none
        reduced = new[: m.start()] + new[m.end("old" if m.group("old") else "old2") :]
        a, b = claim_of(reduced, generic=True), claim_of(old, generic=True)
        if a is None or b is None or a.key != b.key:
            return None  # only the value is shared: "my flight from Monday to Friday" is not "my hotel on Monday"
        key = a.key
    return ValueChange(key, before, after, "single", f"'{change.group()}' from {before!r} to {after!r}")


#: Endings said of the whole statement, with no object of their own ("I don't play golf anymore")
_ENDING_ADVERBS_EN = re.compile(r"^(?:no longer|not anymore|any ?more)$", re.IGNORECASE)
#: Words between an ending verb and its object: determiners, and the particles of "retired from", "broke up
#: with", "dropped out of"
_OBJECT_SKIP_EN = frozenset(
    {"a", "an", "the", "my", "our", "his", "her", "their", "its", "your", "to", "up", "on"}
    | {"from", "out", "of", "off", "with", "down", "over", "away", "back"}
)


#: Words after a verb in -ing that leave it the object: the clause ends, or a reason or span follows ("quit smoking
#: for good", "stopped running since my knee surgery")
_GERUND_ENDS_EN = frozenset({",", ".", ";", "!", "?", "for", "since", "because"})


#: en: endings that take no object: a preposition after one says where the one who ended went or when
#: ("retired to Spain", "moved away to Leeds", "stood down at the AGM", "burnt down in March")
_GONE_TO_EN = re.compile(
    r"retired|moved out|moved away|st(?:oo|e)d down|stepped (?:down|aside)|passed away|packed up|"
    r"gave up the ghost|burn[te]d down|shut down|(?:got|was|were) (?:nicked|stolen)",
    re.IGNORECASE,
)
_PLACE_OR_TIME_EN = frozenset(
    {"to", "at", "in", "on", "after", "before", "during", "last", "this", "over", "since"}
)


def ending_object(new: str, ending: re.Match[str]) -> str | None:
    """The object of an English ending in ``new`` (``ending`` matched ``_fold(new)``): its first word past
    determiners and a verb in -ing ("stopped drinking coffee", "stopped going to FitOne"), or None when its
    clause ends first ("Mark quit.", "the gym closed")."""
    words = re.findall(r"[\w'-]+|[,.;!?]", _fold(new)[ending.end() :].casefold())
    if words[:1] and words[0] in _PLACE_OR_TIME_EN and _GONE_TO_EN.fullmatch(ending.group().strip()):
        return None  # "Lenny's retired to Spain", "stood down at the AGM": where or when, not what ended
    for n, word in enumerate(words):
        if word in ",.;!?":
            return None
        if word in _OBJECT_SKIP_EN:
            continue
        if word.endswith("ing") and n + 1 < len(words) and words[n + 1] not in _GERUND_ENDS_EN:
            continue  # "going to", "drinking coffee": the thing comes after the verb
        return word
    return None


def said_stems(text: str) -> frozenset[str]:
    """The stems of every word of ``text`` (nothing dropped: "the Times" keeps "times"), an owner's "'s" or "'" left
    out ("the bridesmaids' dresses": bridesmaid)."""
    return frozenset(
        _stem(w.removesuffix("'s").removesuffix("'")) for w in re.findall(r"[\w'-]+", _fold(text).casefold())
    )


def _ends_something_else(new: str, ending: re.Match[str], old: str) -> bool:
    """An English ending verb whose object (:func:`ending_object`) is a word ``old`` does not say: the ending is
    of that, not of the older fact, whoever ends it ("Mr. Chen sold the building next door" / "My landlord is
    Mr. Chen"), or for a name ``old`` does not say (:func:`_named_purpose`: "I stopped using Duolingo for French" /
    "I'm learning Spanish on Duolingo"). False for an ending with no object in its clause ("Mark quit", "the gym
    closed") or said of the whole statement ("anymore")."""
    if _ENDING_ADVERBS_EN.match(ending.group().strip()):
        return False
    return ending_object(new, ending) is not None and object_said(new, ending, old) is None


def object_said(new: str, ending: re.Match[str], old: str) -> str | None:
    """The object of an English ending in ``new`` (:func:`ending_object`) when ``old`` says it — and says the name
    it was ended for, if the ending gives one (:func:`_named_purpose`); else None."""
    thing = ending_object(new, ending)
    if thing is None:
        return None
    said = said_stems(old)
    purpose = _named_purpose(new, ending, thing)
    if _stem(thing) not in said or (purpose is not None and _stem(purpose) not in said):
        return None
    return thing


#: "for" + a capitalised word after an ending's object: the thing it was ended for ("stopped using Duolingo for
#: French"); lower-case words there are reasons and spans ("for good", "for health reasons"), not things
_NAMED_PURPOSE_EN = re.compile(r"^\W+for\s+(?:the\s+|my\s+|our\s+)?([A-Z][\w'-]*)")


def _named_purpose(new: str, ending: re.Match[str], thing: str) -> str | None:
    """The name after "for" that follows an ending's object (``thing``) used through a verb in -ing: "I stopped
    using Duolingo for French" ends Duolingo for French, not "I'm learning Spanish on Duolingo". After a direct
    object the name is what replaced it ("We dropped Comcast for Google Fiber")."""
    folded = _fold(new)
    at = re.search(rf"\b{re.escape(thing)}\b", folded[ending.end() :], re.IGNORECASE)
    if at is None or not re.search(r"\w+ing\b", folded[ending.end() : ending.end() + at.start()]):
        return None  # "dropped Comcast for Google Fiber": what replaced it, not what it was used for
    named = _NAMED_PURPOSE_EN.match(folded[ending.end() + at.end() :])
    return None if named is None else named.group(1).casefold()


#: Words that end the head of a subject's noun phrase ("the train line | to the airport")
_NP_END_EN = frozenset(
    {"to", "of", "in", "at", "on", "for", "from", "with", "by", "near", "that", "which", "who"}
)


def _ends_another_subject(new: str, ending: re.Match[str], old: str) -> bool:
    """An English ending verb with no object whose subject's head — the last word of its noun phrase, before a
    preposition — ``old`` does not say: "The train line to the airport closed" ends the line, not "I commute by
    train"; "FitOne closed down" ends FitOne. False for an ending said of the whole statement ("anymore") or
    with an object (:func:`_ends_something_else` reads those)."""
    if _ENDING_ADVERBS_EN.match(ending.group().strip()) or ending_object(new, ending) is not None:
        return False
    clause = re.split(r"[,.;!?]", _fold(new)[: ending.start()])[-1]
    words = re.findall(r"[\w'-]+", clause.casefold())
    phrase = words[: next((i for i, w in enumerate(words) if w in _NP_END_EN), len(words))]
    phrase = [w for w in phrase if w not in _AUXILIARIES_EN and w not in _OBJECT_SKIP_EN]
    heads = [part[-1] for part in _split_on(phrase, "and") if part]  # "Jonas and I broke up": Jonas, I
    said = said_stems(old)
    return bool(heads) and not any(_stem(h.removesuffix("'s")) in said for h in heads)


_AUXILIARIES_EN = frozenset(
    {"was", "were", "is", "are", "has", "have", "had", "got", "just", "finally", "been"}
)


def _split_on(words: list[str], word: str) -> list[list[str]]:
    """``words`` cut at each ``word``."""
    parts: list[list[str]] = [[]]
    for w in words:
        if w == word:
            parts.append([])
        else:
            parts[-1].append(w)
    return parts


def _ba_object_apart(new: str, ending: re.Match[str], old: str) -> bool:
    """A zh ending in a 把 sentence ("X把Y关了") whose object Y — the words between 把 and the ending — ``old``
    does not say: the ending is of Y."""
    head = new[: ending.start()]
    at = head.rfind("把")
    if at < 0:
        return False
    thing = head[at + 1 :].strip()
    return bool(thing) and thing not in old and not any(w in old for w in _zh_nouns(thing))


def _zh_nouns(text: str) -> list[str]:
    from ._jieba import posseg_module

    return [w.word for w in posseg_module().cut(text) if w.flag.startswith(("n", "eng")) and len(w.word) >= 2]


def _aligned_change(new: str, old: str) -> ValueChange | None:
    """The slot found by aligning the two statements: the words they share name the thing, the words
    only one has hold its values. An ending word about a shared word ends the old fact; a change
    word with a new value of the same kind replaces the old value."""
    if _adds_recalls_or_plans(new):
        return None
    zh = bool(re.search(r"[\u4e00-\u9fff]", new))
    old_c, old_v = _align_tokens(old)
    new_c, new_v = _align_tokens(_TIME_LEAD_ZH.sub("", new) if zh else new)
    shared = (
        old_c & new_c - _UNIT_WORDS
    )  # a unit shared names no thing: "5 hours of sleep" / "a 2-hour commute"
    folded = _fold(new).strip()
    if _AMOUNT_NOW.match(folded) and not _AMOUNT_OF.search(folded):  # "Down to 76 kg …" names no thing
        shared |= measured_in(old) & measured_in(new)
    away = moved_from(new)
    shared, old_v = shared - away, old_v - away
    if not shared and not (old_v & new_v):
        return None
    if any(_arity(w, zh=zh) == "multi" for w in shared | (old_c if zh else set())):
        return None  # allergies, likes, children: another value is an addition
    anchor = " ".join(sorted(shared | (old_v & new_v)))[:80]
    ending = (_ENDING_ZH if zh else _ENDING_EN).search(new)
    if ending and zh and _ba_object_apart(new, ending, old):
        ending = None  # 招商银行把我公司附近的网点关了: the branch closed, not "我的银行是招商银行"
    folded_ending = None if zh or not ending else _ENDING_EN.search(folded)  # the helpers read ``_fold(new)``
    if folded_ending is not None and (
        _ends_something_else(new, folded_ending, old) or _ends_another_subject(new, folded_ending, old)
    ):
        ending = None  # "I stopped drinking coffee in the morning" ends the coffee, not "I go running every morning"
    if ending and (shared or old_v & new_v):
        return ValueChange(
            anchor,
            " ".join(sorted(old_v)) or old.strip()[:60],
            "",
            "single",
            f"'{ending.group()}' about {anchor!r}",
        )
    change = (_CHANGE_ZH if zh else _STRONG_CHANGE_EN).search(new)
    if change and not zh and not shared - proper_names(old, new):
        return None  # only a name is shared ("… with Rachel" / "Rachel's kiln … moved"): a person, not a slot
    gone, came = old_v - new_v, new_v - old_v
    if change and shared and gone and came:
        return ValueChange(
            anchor,
            " ".join(sorted(gone)),
            " ".join(sorted(came)),
            "single",
            f"'{change.group()}' and a new value of {anchor!r}",
        )
    if change and len(shared) >= (1 if zh else 2):  # a small substitution: "night team" → "day team"
        old_only, new_only = old_c - new_c, new_c - old_c
        if old_only and new_only and (zh or (len(old_only) <= 2 and len(new_only) <= 3)):
            return ValueChange(
                anchor,
                " ".join(sorted(old_only)),
                " ".join(sorted(new_only)),
                "single",
                f"'{change.group()}' and a new value of {anchor!r}",
            )
    return None


def _beside_a_number(word: str, text: str) -> bool:
    """``word`` is said right beside a number or code in ``text`` ("room 214", "214房间", "unit 7F", 3号楼):
    it belongs to the value, as a unit does."""
    w = re.escape(word)
    return bool(
        re.search(
            rf"(?:\d\w*|[一二三四五六七八九十百]+)\s*{w}|{w}\s*(?:no\.?\s*|#\s*)?\w*\d",
            _fold(text),
            re.IGNORECASE,
        )
    )


def shares_only_value_words(new: str, old: str) -> bool:
    """Every word the two statements share (``_aligned_change``'s anchor) is said beside a number in both, and the
    speaker does not act in ``new``: "我的办公室在214房间" / "打印机现在放在118房间" share the room's word, not a
    thing; "我们换到了7单元1101" moves the speaker."""
    if re.search(r"我们?(?!的)|\b(?:i|we)\b|\b(?:i|we)'", _fold(new), re.IGNORECASE):
        return False
    (old_c, old_v), (new_c, new_v) = _align_tokens(old), _align_tokens(new)
    shared = old_c & new_c - _UNIT_WORDS
    return (
        bool(shared)
        and not (old_v & new_v)
        and all(_beside_a_number(w, old) and _beside_a_number(w, new) for w in shared)
    )


# a unit said right after a number: two amounts of one unit measure one thing ("I weigh 82 kg" / "Down
# to 76 kg after the summer!"), the unit standing for the words the two statements do not share
_UNIT = re.compile(
    r"\d(?:[\d.,]*\d)?\s*(?P<unit>kg|kilos?|lbs?|pounds|km|kilomet(?:er|re)s?|miles?|cm|%|percent|"
    r"hours?|hrs?|minutes?|mins?|€|\$|usd|eur|gbp|公斤|千克|斤|公里|千米|厘米|元|块钱?|万元?|小时|分钟|个小时)(?![a-z])",
    re.IGNORECASE,
)
_UNIT_SAME = {
    "kilo": "kg",
    "kilos": "kg",
    "lb": "lbs",
    "pounds": "lbs",
    "mile": "miles",
    "percent": "%",
    "hour": "hours",
    "hr": "hours",
    "hrs": "hours",
    "minute": "minutes",
    "min": "minutes",
    "mins": "minutes",
    "千克": "公斤",
    "千米": "公里",
    "块": "元",
    "块钱": "元",
    "个小时": "小时",
}


# a statement that gives only a new amount, naming no thing of its own ("Down to 76 kg after the summer!",
# "I'm up to 10 km a day", 减到了70公斤): "My rent went up to 1200 €" names the rent, not the gym's 40 €
_AMOUNT_NOW = re.compile(
    r"^(?:(?:i'?m|i am|we'?re|we are|and|now|finally)\s+)*(?:down|up)\s+to\s+\d|^(?:我们?)?(?:终于|已经|现在)?(?:减到|降到|涨到|瘦到|胖到|增到|跌到|升到)",
    re.IGNORECASE,
)


_AMOUNT_OF = re.compile(r"\d\s*\S+\s+of\s", re.IGNORECASE)  # "down to 5 hours of sleep" names the sleep


# the units as the aligned words spell them (stems of ``_UNIT``'s names)
_UNIT_WORDS = frozenset(
    {
        "kg",
        "kilo",
        "lb",
        "pound",
        "km",
        "kilomet",
        "kilometer",
        "kilometr",
        "mile",
        "cm",
        "percent",
        "hour",
        "hr",
        "minut",
        "min",
        "euro",
        "dollar",
        "usd",
        "eur",
        "gbp",
        "公斤",
        "千克",
        "斤",
        "公里",
        "千米",
        "厘米",
        "元",
        "块",
        "块钱",
        "小时",
        "个小时",
        "分钟",
        # a period an amount is counted in ("1,200 a month", 每月3800): shared, it names no thing either
        "month",
        "monthly",
        "week",
        "weekly",
        "year",
        "yearly",
        "daily",
        "每月",
        "每个",
        "每周",
        "每天",
        "每年",
        "每晚",
        "月份",
        # a part of the day or week ("晚上十点关门" / "开到晚上十一点") says when, it names no thing either
        "晚上",
        "早上",
        "上午",
        "下午",
        "中午",
        "凌晨",
        "傍晚",
        "周末",
        "morning",
        "evening",
        "afternoon",
        "night",
        "weekday",
        "weekend",
    }
)


def measured_in(text: str) -> frozenset[str]:
    """The units ``text`` gives amounts in ("82 kg" → "unit:kg"), each under one name."""
    units = {m.group("unit").casefold() for m in _UNIT.finditer(_fold(text))}
    return frozenset(f"unit:{_UNIT_SAME.get(u, u)}" for u in units)


def proper_names(*texts: str) -> frozenset[str]:
    """The stems of the words capitalised after the first word of any of ``texts``: names of people,
    places and things. Shared alone, a name says two statements are about one person or place, not
    that they fill one slot."""
    names: set[str] = set()
    for text in texts:
        for i, m in enumerate(re.finditer(r"[\w'-]*\w", _fold(text))):
            word = m.group()
            if i > 0 and word[:1].isupper() and word not in ("I", "I'm", "I've", "I'll", "I'd"):
                names.add(_stem(re.sub(r"'(?:s)$", "", word.casefold())))
    return frozenset(names)


def _named_apart(a: Claim, b: Claim) -> bool:
    """The two statements name two slots, whatever words they share:

    - two relations of their own (``relation`` templates: where I work / where I live);
    - two things said by copulas whose names share no word ("my office is in room 214" / "the printer is
      in room 118 now");
    - one kind of thing with two qualifiers (保险柜密码 / 邮箱密码, "bank pin" / "door pin", 电脑的密码 /
      家里的无线密码), whoever's it is."""
    if not same_owner(a.owner, b.owner) and _people_of(a.owner) != _people_of(b.owner):
        return True  # "my son's laptop" / "my budget for the new laptop": two people's things
    if a.template == b.template == RELATION:
        return a.attribute != b.attribute
    if a.template != COPULA or b.template != COPULA:
        return False
    ha, hb = _head(a.attribute), _head(b.attribute)
    if ha != hb:
        return not (_name_parts(a.attribute) & _name_parts(b.attribute))
    qa, qb = _qualifier(a.attribute), _qualifier(b.attribute)
    # "weekly team meeting" / "team meeting": one thing said more or less fully
    return bool(qa and qb and qa not in qb and qb not in qa and not set(qa.split()) & set(qb.split()))


def _name_parts(attribute: str) -> frozenset[str]:
    """The words of an attribute; of a Chinese one (no spaces), its two-character pieces: 定期存款利率 and
    定期利率 share 定期 and 利率."""
    if re.search(r"[\u4e00-\u9fff]", attribute):
        return frozenset(attribute[i : i + 2] for i in range(len(attribute) - 1)) or frozenset([attribute])
    return frozenset(attribute.split())


def _head(attribute: str) -> str:
    return (
        attribute.split()[-1]
        if " " in attribute
        else next((c for c in (*_CLASSES_ZH, *_SINGLE_ZH) if attribute.endswith(c)), attribute)
    )


def _qualifier(attribute: str) -> str:
    return attribute.removesuffix(_head(attribute)).strip()


#: Words of how often, which one statement of a slot may say and another leave out ("my daily step goal" /
#: "my step goal"; 每天的步数目标 / 步数目标); two statements saying two of them name two slots
_PERIOD_EN = frozenset({"daily", "weekly", "monthly", "yearly", "annual", "nightly", "hourly"})
_PERIOD_ZH = re.compile(r"^(?:每天|每日|每晚|每周|每星期|每个?月|每年)")
_ATTRIBUTE_FILLERS_EN = frozenset({"the", "a", "an", "of", "for", "my", "our", "new", "current"})


def _slot_words(attribute: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of an attribute in any order, without fillers, and apart its words of how often: "budget for
    the laptop" and "laptop budget" are one attribute."""
    if re.search(r"[\u4e00-\u9fff]", attribute):
        period = _PERIOD_ZH.match(attribute)
        return frozenset([_PERIOD_ZH.sub("", attribute)]), frozenset([period.group()] if period else [])
    words = [w for w in attribute.split() if w not in _ATTRIBUTE_FILLERS_EN]
    return frozenset(_stem(w) for w in words if w not in _PERIOD_EN), frozenset(
        w for w in words if w in _PERIOD_EN
    )


def _people_of(owner: str) -> frozenset[str]:
    """The words for a person (:data:`PEOPLE_EN`) an owner says: "son" of "son", none of "" or "home"."""
    return frozenset(w for w in owner.split() if w in PEOPLE_EN)


def same_owner(a: str, b: str) -> bool:
    """Two owners of claims are one person: the same words, or the same name with a word for that person on one
    side only ("brother tom" / "tom", "cousin ana" / "ana"), or the same word for a person with a name on one
    side only ("aunt" / "aunt rosa")."""
    if a == b:
        return True
    kin_a, kin_b = [w for w in a.split() if w in PEOPLE_EN], [w for w in b.split() if w in PEOPLE_EN]
    name_a, name_b = (
        [w for w in a.split() if w not in PEOPLE_EN],
        [w for w in b.split() if w not in PEOPLE_EN],
    )
    if name_a and name_b:
        return name_a == name_b and (not kin_a or not kin_b or kin_a == kin_b)
    return bool(kin_a) and kin_a == kin_b


def same_slot(a: Claim, b: Claim) -> bool:
    """Two claims of one slot: the same key, or the same owner and the same words of its attribute in another
    order, of one period or of a period only one of them says ("my daily step goal" / "my step goal", not
    "my monthly budget" / "my yearly budget"), or one the initials of the other ("pm" / "product manager")."""
    if a.key == b.key:
        return True
    if not same_owner(a.owner, b.owner):
        return False
    if a.attribute == b.attribute:
        return True
    if _initials_of(a.attribute, b.attribute) or _initials_of(b.attribute, a.attribute):
        return True
    (wa, pa), (wb, pb) = _slot_words(a.attribute), _slot_words(b.attribute)
    return bool(wa) and wa == wb and (pa == pb or not (pa and pb))


#: What an owner says besides whose it is: the speaker ("我的", "my") and a time the template took along
#: (表哥年初, 湘菜馆现在)
_OWNER_NOISE = re.compile(r"^(?:我们?的?|my\s|our\s)|(?:现在|如今|目前|年初|年底|最近|刚刚?|\sjust|\snow)$")
#: Words after an attribute's head that qualify it: "wifi password at home"
_TRAILING_QUALIFIER_EN = frozenset({"at", "of", "for", "in", "on", "from"})


def _is_person(owner: str, said: str) -> bool:
    """``owner`` is a person: a word for one (:data:`PEOPLE_EN`, :data:`PEOPLE_ZH`) or a name, capitalised in
    ``said`` (claims fold their words)."""
    if any(p in owner for p in PEOPLE_ZH) or _people_of(owner):
        return True
    return any(re.search(rf"\b{re.escape(w.capitalize())}\b", said) for w in owner.split() if w.isalpha())


def _shortened(short: str, full: str) -> bool:
    """``short`` is ``full`` said with some of its modifiers left out, its head kept: "plate" / "car plate", "card
    limit" / "credit card limit", "wifi password" / "wifi password at home", 车位 / 停车位, 定期利率 / 定期存款利率."""
    if short == full or not short:
        return bool(short)
    if re.search(r"[\u4e00-\u9fff]", full):
        rest = iter(full)
        return len(short) >= 2 and full.endswith(short[-1]) and all(c in rest for c in short)
    words = [_stem(w) for w in short.split() if w not in _ATTRIBUTE_FILLERS_EN]
    longer = [_stem(w) for w in full.split() if w not in _ATTRIBUTE_FILLERS_EN]
    at = -1
    for w in words:
        try:
            at = longer.index(w, at + 1)
        except ValueError:
            return False
    return bool(words) and (at == len(longer) - 1 or longer[at + 1] in _TRAILING_QUALIFIER_EN)


def said_shorter(new: Claim, old: Claim, old_text: str) -> bool:
    """``new`` names ``old``'s slot more briefly, as a later mention may (seed 004 §4.1's "same subject and
    relation"): its owner and attribute are the older one's with some modifiers left out ("the plate is now …" /
    "my car plate is …", "the deadline is …" / "the project deadline is …", 号码 / 护照号码, "our coach" / "the
    coach of our football team") — never a person left out ("my phone" / "my sister's phone") and never a
    modifier added: "my office number" is another thing than "my phone"."""
    if new.template == OBJECT or old.template == OBJECT:
        return False
    new_owner, old_owner = _OWNER_NOISE.sub("", new.owner).strip(), _OWNER_NOISE.sub("", old.owner).strip()
    if old_owner and _is_person(old_owner, old_text) and not same_owner(new_owner, old_owner):
        return False
    if new_owner and not _is_person(new_owner, "") and not _shortened(new_owner, old_owner):
        joined = f"{new_owner}{new.attribute}" if re.search(r"[\u4e00-\u9fff]", new.attribute) else ""
        return bool(joined) and _shortened(joined, f"{old_owner}{old.attribute}")  # 最大|客户 / 最大客户
    if new_owner and _is_person(new_owner, "") and not same_owner(new_owner, old_owner):
        return False
    if not new_owner and old_owner and re.search(r"[\u4e00-\u9fff]", old.attribute):
        return _shortened(new.attribute, old.attribute) or _shortened(
            new.attribute, f"{old_owner}{old.attribute}"
        )
    return _shortened(new.attribute, old.attribute)


def _initials_of(short: str, long: str) -> bool:
    """``short`` is the initials of ``long``'s words: "pm" / "product manager", "cto" / "chief technology officer"."""
    words = [w for w in long.split() if w not in _ATTRIBUTE_FILLERS_EN]
    return 2 <= len(words) <= 5 and short.isalpha() and short == "".join(w[0] for w in words)


#: A value that is an amount: a number, with or without its unit or currency ("12,000", "$24", "1,800 dollars",
#: 一万二, 8000, 20毫克)
_AMOUNT = re.compile(
    r"^(?:about |around |roughly |nearly |almost |over |under )?[$€£¥]?\s?\d[\d,.]*(?:\s?[%a-z\u4e00-\u9fff]+){0,2}$"
    r"|^[一二两三四五六七八九十百千万亿点半]+[\u4e00-\u9fff]{0,2}$",
    re.IGNORECASE,
)


def _amounts(*values: str) -> bool:
    return all(_AMOUNT.match(v) for v in values)


def _template_change(new: str, old: str) -> ValueChange | None:
    a = claim_of(new)
    generic = a is None or a.change or a.negated
    if a is None:
        a = claim_of(new, generic=True)
        if a is None or not (a.change or a.negated):
            return None
    b = claim_of(old, generic=generic or a.template == "verb")
    if b is None or not same_slot(a, b):
        return None
    if a.negated and b.negated:
        return None
    if a.negated:
        if not a.value or _same_value(a.value, b.value) or not b.value:
            return ValueChange(a.key, b.value, "", "single", f"'{new.strip()}' ends it (negation)")
        return None
    if b.negated:  # "I smoke again" after "I quit smoking"
        return ValueChange(a.key, "", a.value, "single", "the new statement takes back a negation")
    if _same_value(a.value, b.value) or a.kind != b.kind or not a.value or not b.value:
        return None
    if a.kind == "class" and not a.change:
        return None  # "a doctor", "a runner": classes hold together
    if _ADDITIVE.search(new):
        return None
    if a.arity == "multi" or b.arity == "multi":
        if not (a.change and _amounts(a.value, b.value)):
            return None
        # a change of an amount replaces it, whatever the attribute's lexicon says ("raised my step goal to
        # 12,000": one goal of steps; "my goals" would hold many)
        return ValueChange(a.key, b.value, a.value, "single", "explicit change of an amount")
    if a.template == "verb" and not _shares_word(a.value, b.value):
        return ValueChange(a.key, b.value, a.value, "unknown", "same verb, unrelated values")
    if a.arity == "single" or b.arity == "single" or a.change:
        why = "explicit change words" if a.change else "single-valued relation"
        return ValueChange(a.key, b.value, a.value, "single", why)
    return ValueChange(a.key, b.value, a.value, "unknown", "same slot, arity unknown")


__all__ = [
    "COPULA",
    "EMPLOYER",
    "OBJECT",
    "PEOPLE_EN",
    "PEOPLE_ZH",
    "RELATION",
    "RESIDENCE",
    "Arity",
    "Claim",
    "ValueChange",
    "answer_frame",
    "canonical_attribute",
    "claim_of",
    "explicit_from_to",
    "moved_from",
    "object_said",
    "proper_names",
    "said_shorter",
    "same_owner",
    "same_slot",
    "slot_of",
]
