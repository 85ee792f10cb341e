"""Trait text derived from its evidence, in the user's language (offline path, seed 001 §3.2).

Without an LLM the engine cannot paraphrase, so the wording quotes the most
representative memory and names the theme; it is honest ("this recurs") rather
than clever. Chinese when most of the evidence is Chinese, English otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

_MAX_QUOTE = 160

_TEMPLATES = {
    "trend": {"zh": "近期趋势：{quote}（主题：{theme}）", "en": "Recent trend: {quote} (theme: {theme})"},
    "behavior": {"zh": "反复出现：{quote}（主题：{theme}）", "en": "Recurring: {quote} (theme: {theme})"},
    "preference": {"zh": "偏好（{theme}）：{parts}", "en": "Prefers ({theme}): {parts}"},
    "core": {"zh": "核心特质（{theme}）：{parts}", "en": "Core trait ({theme}): {parts}"},
    "split": {"zh": "{ctx_a}中{a}；{ctx_b}中{b}", "en": "In {ctx_a}: {a}; in {ctx_b}: {b}"},
}
_CONTEXT_NAMES = {
    "zh": {"work": "工作", "personal": "生活", "social": "社交", "learning": "学习", "general": "各种情境"},
    "en": {
        "work": "work",
        "personal": "personal life",
        "social": "social settings",
        "learning": "learning",
        "general": "general",
    },
}


def lang_key(language: str) -> str:
    return "zh" if language.startswith("zh") else "en"


def majority_language(languages: Iterable[str]) -> str:
    counts = Counter(lang_key(x) for x in languages)
    return counts.most_common(1)[0][0] if counts else "en"


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_QUOTE else text[: _MAX_QUOTE - 1] + "…"


def _theme(keywords: Sequence[str], language: str) -> str:
    sep = "、" if lang_key(language) == "zh" else ", "
    return sep.join(keywords[:3]) or "—"


def pattern_text(kind: str, representative: str, keywords: Sequence[str], language: str) -> str:
    """Wording of a trend or behaviour."""
    return _TEMPLATES[kind][lang_key(language)].format(
        quote=_quote(representative), theme=_theme(keywords, language)
    )


def upgrade_text(subtype: str, keywords: Sequence[str], parts: Sequence[str], language: str) -> str:
    """Wording of a preference or core trait from its children's texts."""
    lang = lang_key(language)
    sep = "；" if lang == "zh" else "; "
    return _TEMPLATES[subtype][lang].format(
        theme=_theme(keywords, language), parts=sep.join(_quote(p) for p in parts)
    )


def split_text(context_a: str, a: str, context_b: str, b: str, language: str) -> str:
    """Wording of a contextual two-sided trait (seed 001 §4.4 情境化双面 trait)."""
    lang = lang_key(language)
    names = _CONTEXT_NAMES[lang]
    return _TEMPLATES["split"][lang].format(
        ctx_a=names.get(context_a, context_a), a=_quote(a), ctx_b=names.get(context_b, context_b), b=_quote(b)
    )
