"""Regenerate ``fact_pairs.jsonl``: labelled pairs of statements for the supersede rule (issue 12 item 2).

Each line: ``{"old", "new", "label", "lang", "source", "note"}``; ``label`` is ``restatement``
(the same fact, same value, other words: superseding loses nothing) or ``distinct`` (another
fact of the same shape: superseding would lose one). ``source`` is ``template`` (the product of
the templates and values below) or ``tricky`` (hand-picked cases). Written by hand for
neuromem; no external data. Run ``python tests/data/make_fact_pairs.py`` to rewrite the file.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

OUT = Path(__file__).with_name("fact_pairs.jsonl")

# ---------------------------------------------------------------- distinct: one slot, two values
EN_SHAPES = {
    "I'm allergic to {}.": [
        "peanuts",
        "seafood",
        "penicillin",
        "shellfish",
        "cats",
        "pollen",
        "latex",
        "eggs",
    ],
    "I live in {}.": ["Berlin", "Munich", "Shanghai", "Paris", "Toronto", "Austin", "Lisbon"],
    "I work at {}.": ["Google", "Microsoft", "Tencent", "a bakery", "the city hospital", "Siemens"],
    "I like {}.": ["coffee", "green tea", "jazz", "hiking", "sushi", "chess", "horror movies"],
    "My sister's name is {}.": ["Anna", "Maria", "Lena", "Sophie", "Julia"],
    "I have {} cats.": ["two", "three", "four", "five"],
    "My birthday is on {}.": ["March 3", "March 13", "May 3", "October 30"],
    "My favourite sport is {}.": ["tennis", "football", "swimming", "badminton", "climbing"],
    "I'm learning {} this year.": ["Spanish", "Japanese", "the piano", "Rust", "pottery"],
    "My flight to Rome leaves on {}.": ["Monday", "Tuesday", "Friday", "Sunday"],
    "I drive a {}.": ["Toyota", "Tesla", "bicycle to work", "Volkswagen"],
    "My son is {} years old.": ["5", "6", "8", "12"],
}
ZH_SHAPES = {
    "我对{}过敏。": ["花生", "海鲜", "青霉素", "猫毛", "花粉", "牛奶", "芒果", "鸡蛋"],
    "我住在{}。": ["上海", "北京", "杭州", "深圳", "成都", "南京", "武汉"],
    "我在{}工作。": ["腾讯", "阿里巴巴", "字节跳动", "华为", "一家医院", "银行"],
    "我喜欢{}。": ["咖啡", "绿茶", "爵士乐", "爬山", "寿司", "下棋", "看恐怖片"],
    "我女儿叫{}。": ["小雨", "小雪", "思思", "可可", "乐乐"],
    "我有{}只猫。": ["两", "三", "四", "五"],
    "我的生日是{}。": ["三月三号", "三月十三号", "五月三号", "十月三十号"],
    "我最喜欢的运动是{}。": ["网球", "足球", "游泳", "羽毛球", "攀岩"],
    "我今年在学{}。": ["西班牙语", "日语", "钢琴", "编程", "陶艺"],
    "我周{}去上海出差。": ["一", "二", "五", "日"],
    "我每天早上喝{}。": ["咖啡", "豆浆", "绿茶", "牛奶"],
    "我儿子今年{}岁。": ["五", "六", "八", "十二"],
}

# ---------------------------------------------------------------- restatements: the same fact re-said
EN_RESTATE = [
    ("I live in {v}.", "I live in {v}!"),
    ("I live in {v}.", "I currently live in {v}."),
    ("I'm allergic to {a}.", "I am allergic to {a}."),
    ("I'm allergic to {a}.", "i'm allergic to {a}"),
    ("I like {l}.", "I really like {l}!"),
    ("I like {l}.", "I love {l}."),
    ("I work at {w}.", "I work for {w}."),
    ("I work at {w}.", "I still work at {w}."),
    ("My favourite sport is {s}.", "My favorite sport is {s}."),
    ("I'm learning {g} this year.", "I am learning {g} this year."),
]
EN_FILL = {
    "v": ["Berlin", "Shanghai", "Toronto", "Lisbon"],
    "a": ["peanuts", "penicillin", "shellfish"],
    "l": ["coffee", "jazz", "hiking", "sushi"],
    "w": ["Google", "Siemens", "Tencent"],
    "s": ["tennis", "swimming", "climbing"],
    "g": ["Spanish", "Japanese", "Rust"],
}
ZH_RESTATE = [
    ("我住在{v}。", "我住在{v}！"),
    ("我住在{v}。", "我现在住在{v}。"),
    ("我对{a}过敏。", "我对{a}过敏！"),
    ("我对{a}过敏。", "我其实对{a}过敏。"),
    ("我喜欢{l}。", "我真的很喜欢{l}！"),
    ("我喜欢{l}。", "我也喜欢{l}。"),
    ("我在{w}工作。", "我在{w}上班。"),
    ("我在{w}工作。", "我目前在{w}工作。"),
    ("我最喜欢的运动是{s}。", "我最喜欢的运动其实是{s}。"),
    ("我今年在学{g}。", "我今年在学{g}呢。"),
]
ZH_FILL = {
    "v": ["上海", "北京", "成都", "杭州"],
    "a": ["花生", "青霉素", "海鲜"],
    "l": ["咖啡", "爵士乐", "爬山", "寿司"],
    "w": ["腾讯", "华为", "阿里巴巴"],
    "s": ["网球", "游泳", "攀岩"],
    "g": ["日语", "钢琴", "编程"],
}

# ---------------------------------------------------------------- hand-picked tricky cases
TRICKY_DISTINCT = [
    ("我对海鲜过敏", "我对花生过敏", "zh", "issue 12: cosine 0.961 under e5"),
    ("I'm allergic to penicillin.", "My daughter is allergic to penicillin.", "en", "another person"),
    ("我对花生过敏。", "我妈妈对花生过敏。", "zh", "another person"),
    ("我对花生过敏。", "我对花生严重过敏。", "zh", "severity is information"),
    ("I'm allergic to peanuts.", "I'm severely allergic to peanuts.", "en", "severity is information"),
    ("I live in Berlin.", "I lived in Berlin.", "en", "tense"),
    ("I live in Berlin.", "I used to live in Berlin.", "en", "past"),
    ("我住在北京。", "我以前住在北京。", "zh", "past"),
    ("I work at Google.", "I no longer work at Google.", "en", "negation"),
    ("我在华为工作。", "我不在华为工作了。", "zh", "negation"),
    ("I like coffee.", "I don't like coffee.", "en", "negation"),
    ("我喜欢咖啡。", "我不喜欢咖啡。", "zh", "negation"),
    ("I'm vegetarian.", "I'm not vegetarian.", "en", "negation"),
    ("我是素食者。", "我不是素食者。", "zh", "negation"),
    ("Alice likes Bob.", "Bob likes Alice.", "en", "word order"),
    ("小王喜欢小李。", "小李喜欢小王。", "zh", "word order"),
    ("I like coffee.", "I like coffee with milk.", "en", "more detail"),
    ("I work at Google.", "I work at Google as a senior engineer.", "en", "more detail"),
    ("我在腾讯工作。", "我在腾讯做产品经理。", "zh", "more detail"),
    ("I live in Paris.", "I live in Paris, Texas.", "en", "a different Paris"),
    ("I have two kids.", "I have three kids.", "en", "number"),
    ("我有两个孩子。", "我有三个孩子。", "zh", "number"),
    ("I'm 30 years old.", "I'm 31 years old.", "en", "number"),
    ("I live at 12 Baker Street.", "I live at 21 Baker Street.", "en", "number"),
    ("My meeting is at 3pm.", "My meeting is at 4pm.", "en", "time"),
    ("我下午三点开会。", "我下午四点开会。", "zh", "time"),
    ("我每周跑步三次。", "我每周跑步两次。", "zh", "frequency"),
    ("I run three times a week.", "I run twice a week.", "en", "frequency"),
    ("The meeting was moved to Friday.", "The meeting was moved from Friday.", "en", "preposition"),
    ("I want to visit Japan.", "I visited Japan.", "en", "plan vs event"),
    ("我想去日本。", "我去过日本。", "zh", "plan vs event"),
    ("I will move to Berlin.", "I moved to Berlin.", "en", "future vs past"),
    ("I quit smoking.", "I started smoking.", "en", "opposite verbs"),
    ("我戒烟了。", "我开始抽烟了。", "zh", "opposite verbs"),
    ("My name is Anna.", "My name is Hanna.", "en", "one letter"),
    ("Call me Bob.", "Call me Rob.", "en", "one letter"),
    ("我叫王芳。", "我叫王方。", "zh", "one character"),
    ("我喜欢猫。", "我喜欢狗。", "zh", "one character"),
    ("我喜欢吃辣。", "我不能吃辣。", "zh", "can't vs like"),
    ("I prefer window seats.", "I prefer aisle seats.", "en", "same shape"),
    ("I drink coffee every morning.", "I drink tea every morning.", "en", "same shape"),
    ("我每天早上喝咖啡。", "我每天晚上喝咖啡。", "zh", "time of day"),
    ("I love hiking.", "I loved hiking.", "en", "tense"),
    ("I am a doctor.", "I am not a doctor.", "en", "negation"),
    ("My wife works at Siemens.", "My brother works at Siemens.", "en", "another person"),
    ("我老婆在银行上班。", "我哥哥在银行上班。", "zh", "another person"),
    ("I hate coffee.", "I love coffee.", "en", "polarity"),
    ("我讨厌下雨天。", "我喜欢下雨天。", "zh", "polarity"),
    ("I'm allergic to cats.", "I'm allergic to dogs.", "en", "same shape"),
    ("Our wedding anniversary is in June.", "Our wedding anniversary is in July.", "en", "month"),
    ("我们的结婚纪念日在六月。", "我们的结婚纪念日在七月。", "zh", "month"),
    ("I take 5 mg of melatonin.", "I take 50 mg of melatonin.", "en", "dose"),
    ("我每天吃一片药。", "我每天吃两片药。", "zh", "dose"),
    ("I'm afraid of heights.", "I'm afraid of spiders.", "en", "same shape"),
    ("我怕高。", "我怕黑。", "zh", "one character"),
    ("My password hint is blue.", "My password hint is red.", "en", "same shape"),
    ("I support Arsenal.", "I support Chelsea.", "en", "same shape"),
    ("I'm moving to Berlin next month.", "I'm moving to Berlin next year.", "en", "time"),
    ("我下个月搬到杭州。", "我明年搬到杭州。", "zh", "time"),
    ("I speak French.", "I speak a little French.", "en", "degree"),
]
TRICKY_RESTATE = [
    ("I'm allergic to penicillin.", "i am allergic to penicillin", "en", "case, contraction, punctuation"),
    ("My favourite colour is blue.", "My favorite color is blue.", "en", "spelling"),
    ("我住在上海。", "我住在上海", "zh", "punctuation"),
    ("Ｉ　ｌｉｋｅ　ｔｅａ", "I like tea", "en", "full-width forms"),
    ("我喜欢ｊａｚｚ", "我喜欢jazz", "zh", "full-width forms"),
    ("I really, really love jazz!", "I love jazz.", "en", "fillers"),
    ("I like coffee.", "I love coffee!", "en", "like / love"),
    ("我喜欢咖啡。", "我爱喝咖啡。", "zh", "喜欢 / 爱喝"),
    ("我在阿里巴巴工作。", "我目前在阿里巴巴上班。", "zh", "工作 / 上班"),
    ("I work at Google.", "I work for Google.", "en", "at / for"),
    ("I moved to Berlin.", "I live in Berlin.", "en", "residence slot"),
    ("我搬到杭州了。", "我住在杭州。", "zh", "residence slot"),
    ("I hate coffee.", "I really hate coffee.", "en", "filler"),
    ("我讨厌下雨天。", "我真的很讨厌下雨天！", "zh", "fillers"),
    ("I'm a vegetarian.", "I don't eat meat.", "en", "paraphrase only an LLM can see"),
    ("我是素食者。", "我不吃肉。", "zh", "paraphrase only an LLM can see"),
    ("I like tea and coffee.", "I like coffee and tea.", "en", "order of a list"),
    ("My birthday is March 3.", "My birthday is on March 3.", "en", "preposition"),
    ("我的生日是三月三号。", "我生日是三月三号。", "zh", "的"),
    ("I have two cats.", "I've got two cats.", "en", "have / have got"),
    ("I don't like coffee.", "I do not like coffee.", "en", "contraction"),
    ("I can't swim.", "I cannot swim.", "en", "contraction"),
    ("我不会游泳。", "我不会游泳啊。", "zh", "particle"),
    ("The dentist appointment is on Friday.", "The dentist appointment is on Friday!!", "en", "punctuation"),
    ("我下周五去看牙医。", "我下周五去看牙医哦。", "zh", "particle"),
    ("I work at Siemens.", "I currently work at Siemens.", "en", "filler"),
    ("我女儿叫小雨。", "我的女儿叫小雨。", "zh", "的"),
    ("My sister's name is Anna.", "My sister's name is Anna 🙂", "en", "emoji"),
    ("我喜欢爬山😊", "我喜欢爬山。", "zh", "emoji"),
    ("I'm learning Japanese.", "I am learning Japanese now.", "en", "filler"),
    ("I like hiking.", "I'm into hiking.", "en", "idiom"),
    ("I live in Berlin.", "I'm based in Berlin.", "en", "idiom"),
    ("My favourite drink is coffee.", "Coffee is my favourite drink.", "en", "word order, same meaning"),
    ("I work at Google.", "I've been working at Google.", "en", "aspect"),
    ("我住在上海。", "我在上海生活。", "zh", "住 / 生活"),
    ("我在腾讯工作。", "我是腾讯的员工。", "zh", "paraphrase"),
    ("我对花生过敏。", "花生我过敏。", "zh", "topicalised"),
    ("我喜欢看书。", "我爱看书。", "zh", "喜欢 / 爱"),
    ("我的猫叫咪咪。", "我家猫叫咪咪。", "zh", "我的 / 我家"),
    ("I'm allergic to peanuts.", "I have a peanut allergy.", "en", "paraphrase"),
]


def pairs() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for shapes, lang in ((EN_SHAPES, "en"), (ZH_SHAPES, "zh")):
        for shape, values in shapes.items():
            for x, y in itertools.combinations(values, 2):
                out.append(
                    {
                        "old": shape.format(x),
                        "new": shape.format(y),
                        "label": "distinct",
                        "lang": lang,
                        "source": "template",
                        "note": shape,
                    }
                )
    for templates, fill, lang in ((EN_RESTATE, EN_FILL, "en"), (ZH_RESTATE, ZH_FILL, "zh")):
        for old, new in templates:
            name = old[old.index("{") + 1 : old.index("}")]
            for value in fill[name]:
                out.append(
                    {
                        "old": old.format(**{name: value}),
                        "new": new.format(**{name: value}),
                        "label": "restatement",
                        "lang": lang,
                        "source": "template",
                        "note": f"{old} | {new}",
                    }
                )
    for rows, label in ((TRICKY_DISTINCT, "distinct"), (TRICKY_RESTATE, "restatement")):
        for old, new, lang, note in rows:
            out.append(
                {"old": old, "new": new, "label": label, "lang": lang, "source": "tricky", "note": note}
            )
    return out


if __name__ == "__main__":
    rows = pairs()
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} pairs → {OUT}")
