"""Sensitive-category detection (seed 001 §8.2 "敏感特质保护").

Seed 001 §8.2: no trait inference for sensitive categories such as mental
health, politics and religion. Reflection calls :func:`sensitive_categories`
on evidence and skips trait inference when it is non-empty. The lexicons are
deliberately broad (recall over precision: a missed sensitive trait is worse
than a skipped harmless one) and cover Chinese and English.
"""

from __future__ import annotations

import re

_LEXICONS: dict[str, tuple[str, ...]] = {
    "health": (
        # English: conditions, mental health, care, medication
        "illness", "disease", "diagnosis", "diagnosed", "symptom", "symptoms", "chronic", "cancer", "tumor",
        "tumour", "chemo", "chemotherapy", "diabetes", "diabetic", "asthma", "hiv", "aids", "hepatitis",
        "stroke", "heart attack", "epilepsy", "alzheimer", "dementia", "parkinson", "autism", "adhd",
        "depression", "depressed", "anxiety", "panic attack", "bipolar", "schizophrenia", "ptsd", "ocd",
        "eating disorder", "anorexia", "bulimia", "insomnia", "suicidal", "suicide", "self-harm",
        "mental health", "therapy", "therapist", "psychiatrist", "psychologist", "counseling", "counselling",
        "medication", "medicine", "prescription", "antidepressant", "antidepressants", "ssri", "prozac",
        "zoloft", "xanax", "insulin", "ibuprofen", "painkiller", "painkillers", "opioid", "rehab", "addiction",
        "hospital", "hospitalized", "surgery", "pregnant", "pregnancy", "miscarriage", "abortion",
        "infertility", "disability", "disabled", "covid", "flu", "migraine", "allergy", "allergic",
        # Chinese
        "疾病", "生病", "病情", "诊断", "确诊", "症状", "慢性病", "癌症", "肿瘤", "化疗", "糖尿病", "哮喘",
        "艾滋", "肝炎", "中风", "癫痫", "老年痴呆", "阿尔茨海默", "帕金森", "自闭症", "多动症", "抑郁",
        "焦虑", "惊恐", "双相", "躁郁", "精神分裂", "强迫症", "创伤后", "进食障碍", "厌食", "失眠", "自杀",
        "自残", "轻生", "心理健康", "心理咨询", "心理医生", "精神科", "心理治疗", "治疗", "吃药", "服药",
        "药物", "处方", "抗抑郁", "胰岛素", "止痛药", "住院", "手术", "怀孕", "流产", "堕胎", "不孕",
        "残疾", "新冠", "感冒", "发烧", "偏头痛", "过敏", "医院", "看病", "看医生", "病了",
    ),
    "politics": (
        "politics", "political", "politician", "election", "elections", "vote", "voted", "voting", "ballot",
        "democrat", "democrats", "democratic party", "republican", "republicans", "gop", "liberal",
        "conservative", "progressive", "socialist", "communist", "communism", "fascist", "labour party",
        "tory", "tories", "parliament", "congress", "senate", "senator", "president", "prime minister",
        "government", "campaign", "referendum", "protest", "activist", "left-wing", "right-wing",
        "ideology", "party member", "immigration policy", "abortion rights", "gun control",
        "政治", "政党", "党员", "入党", "共产党", "国民党", "民主党", "共和党", "选举", "大选", "投票", "选票",
        "总统", "总理", "主席", "政府", "议会", "国会", "人大", "政协", "左派", "右派", "自由派", "保守派",
        "社会主义", "资本主义", "共产主义", "意识形态", "抗议", "游行", "示威", "维权", "政见", "政策",
    ),
    "religion": (
        "religion", "religious", "faith", "god", "jesus", "christ", "christian", "christianity", "catholic",
        "protestant", "church", "bible", "pray", "prayer", "praying", "worship", "baptism",
        "baptized", "muslim", "islam", "islamic", "mosque", "quran", "koran", "ramadan", "allah", "halal",
        "jewish", "judaism", "synagogue", "torah", "kosher", "hindu", "hinduism", "temple", "buddhist",
        "buddhism", "buddha", "meditation retreat", "sikh", "atheist", "atheism", "agnostic", "spiritual",
        "pastor", "priest", "imam", "rabbi", "monk", "nun", "sabbath", "pilgrimage",
        "宗教", "信仰", "信教", "上帝", "耶稣", "基督", "基督教", "天主教", "新教", "教会", "教堂", "圣经",
        "祷告", "祈祷", "做礼拜", "受洗", "洗礼", "穆斯林", "伊斯兰", "清真", "清真寺", "古兰经",
        "斋月", "真主", "犹太教", "犹太人", "印度教", "佛教", "佛祖", "菩萨", "寺庙", "寺院", "拜佛", "烧香",
        "念经", "吃斋", "道教", "道观", "无神论", "牧师", "神父", "和尚", "尼姑", "修女", "朝圣",
    ),
}  # fmt: skip


def _compile(words: tuple[str, ...]) -> re.Pattern[str]:
    latin = sorted((w for w in words if w.isascii()), key=len, reverse=True)
    han = sorted((w for w in words if not w.isascii()), key=len, reverse=True)
    latin_part = r"\b(?:" + "|".join(re.escape(w) for w in latin) + r")\b"
    han_part = "|".join(re.escape(w) for w in han)
    return re.compile(f"{latin_part}|{han_part}", re.IGNORECASE)


_MATCHERS = {category: _compile(words) for category, words in _LEXICONS.items()}

#: The categories :func:`sensitive_categories` can return.
SENSITIVE_CATEGORIES: frozenset[str] = frozenset(_LEXICONS)


def sensitive_categories(text: str) -> frozenset[str]:
    """The sensitive categories ("health", "politics", "religion") that ``text`` touches."""
    return frozenset(category for category, matcher in _MATCHERS.items() if matcher.search(text))
