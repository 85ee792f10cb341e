"""Is a new statement a restatement of a stored one? The lexical and slot rules (issue 12 item 2).

A cosine similarity cannot tell "我对花生过敏" (peanut allergy) from "我对海鲜过敏" (seafood
allergy): e5 puts any two sentences of the same shape above 0.95. So the write path
(``neuromem.dedupe``) supersedes a memory only when the new content *restates* it:

1. **lexical** — both texts reduce to the same sequence of core tokens. The reduction:
   NFKC + case fold, English contractions expanded ("I'm" → i am, "don't" → do not),
   British spellings folded, punctuation and emoji dropped, Han runs cut by jieba's
   precise mode and then compared character by character, and the filler words of
   ``FILLERS`` removed ("really", "very", "the", "真的", "很", "了"…). Word order counts
   ("Alice likes Bob" is not "Bob likes Alice"); negations and numbers are never fillers —
   except that an adverbial of time, place or frequency may move to the other end of the
   sentence with the roles of every other word unchanged (issue 21 item 6): "Every morning I
   take 10 mg of lisinopril" = "I take 10 mg of lisinopril every morning" (``moved_adverbial``).
2. **slot** — both are extracted facts with the same ``slot`` and the same value
   (``metadata.slot`` / ``slot_value`` of ``ingest.rules``: employer, residence,
   ``likes:<thing>`` with its polarity), and what tells the two texts apart is only
   fillers and the slot's own paraphrase verbs (``SLOT_PARAPHRASES``): "I work at
   Google" = "I work for Google", "我喜欢咖啡" = "我爱喝咖啡". Anything more (a job title,
   a severity, another object) makes them different facts.

Both rules prefer missing a restatement to merging two facts: the labelled pairs in
``tests/data/fact_pairs.jsonl`` hold them to a merge precision of 1.0
(``python -m bench.fact_pairs`` prints precision and recall).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ._jieba import cut_precise
from ._scripts import CJK_CHARS


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


FILLERS_EN = _word_set(
    "a an the really very so just actually quite truly definitely totally absolutely also too still now "
    "currently indeed honestly basically literally certainly surely"
)
FILLERS_ZH = _word_set(
    "真的 真 很 非常 特别 挺 超 超级 十分 其实 确实 也 还 都 了 的 啊 呀 呢 吧 嘛 哦 哈 啦 喔 哇 嗯 "
    "一直 现在 目前 实在 蛮 相当"
)
FILLERS = FILLERS_EN | FILLERS_ZH

# what a slot's statements may differ by besides fillers (the slot and its value already agree)
SLOT_PARAPHRASES: Mapping[str, frozenset[str]] = {
    "likes": _word_set(
        "like likes love loves enjoy enjoys adore adores prefer prefers hate hates dislike "
        "dislikes 喜欢 爱 喜爱 热爱 偏爱 爱吃 爱喝 喝 吃 讨厌"
    ),
    "employer": _word_set("work works working at for joined 工作 上班 任职 在 入职 加入"),
    "residence": _word_set("live lives living in moved to 住 住在 在 搬 搬到 到"),
}

_CONTRACTIONS = {
    "i'm": "i am",
    "im": "i am",
    "i've": "i have",
    "ive": "i have",
    "i'll": "i will",
    "you're": "you are",
    "we're": "we are",
    "they're": "they are",
    "we've": "we have",
    "they've": "they have",
    "it's": "it is",
    "that's": "that is",
    "he's": "he is",
    "she's": "she is",
    "there's": "there is",
    "don't": "do not",
    "dont": "do not",
    "doesn't": "does not",
    "doesnt": "does not",
    "didn't": "did not",
    "didnt": "did not",
    "can't": "can not",
    "cant": "can not",
    "cannot": "can not",
    "won't": "will not",
    "wont": "will not",
    "isn't": "is not",
    "isnt": "is not",
    "aren't": "are not",
    "arent": "are not",
    "wasn't": "was not",
    "wasnt": "was not",
    "weren't": "were not",
    "haven't": "have not",
    "hasn't": "has not",
    "hadn't": "had not",
    "wouldn't": "would not",
    "shouldn't": "should not",
    "couldn't": "could not",
}
_SPELLING = {
    "favourite": "favorite",
    "favourites": "favorites",
    "colour": "color",
    "colours": "colors",
    "flavour": "flavor",
    "neighbour": "neighbor",
    "neighbours": "neighbors",
    "centre": "center",
    "theatre": "theater",
    "organise": "organize",
    "travelling": "traveling",
}
_TOKEN = re.compile(
    rf"(?P<cjk>[{CJK_CHARS}]+)|(?P<num>\d+(?:[.,:]\d+)*)|(?P<word>[^\W\d_{CJK_CHARS}]+(?:'[^\W\d_]+)?)"
)


@lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """Normalised word tokens of ``text`` (Han text cut into jieba words), fillers kept."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'").replace("\u02bc", "'")
    out: list[str] = []
    for m in _TOKEN.finditer(folded):
        if m.group("cjk"):
            out.extend(w for w in cut_precise(m.group("cjk")) if w.strip())
        elif m.group("num"):
            out.append(m.group("num"))
        else:
            word = m.group("word")
            expanded = _CONTRACTIONS.get(word)
            if expanded is not None:
                out.extend(expanded.split())
            else:
                out.append(_SPELLING.get(word, word))
    return tuple(out)


def core_tokens(text: str, ignore: frozenset[str] = FILLERS) -> tuple[str, ...]:
    """The tokens that carry the statement: ``words`` without ``ignore``, Han words as characters."""
    out: list[str] = []
    for w in words(text):
        if w in ignore:
            continue
        if re.match(rf"[{CJK_CHARS}]", w):
            out.extend(w)
        else:
            out.append(w)
    return tuple(out)


# words that open an adverbial phrase which may stand at either end of a sentence
ADVERBIAL_OPENERS = _word_set(
    "every each on at in during before after when whenever usually always often sometimes daily weekly monthly "
    "nightly yesterday today tomorrow tonight last next this once twice most throughout"
)
_ADVERBIAL_OPENERS_ZH = "每早晚周星今明昨上下平经总通常夜白"


def _opens_adverbial(block: tuple[str, ...]) -> bool:
    first = block[0]
    return first in ADVERBIAL_OPENERS or (len(first) == 1 and first in _ADVERBIAL_OPENERS_ZH)


def moved_adverbial(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One of ``a`` and ``b`` is the other with one block moved to the front or the end of the
    sentence, the block opening an adverbial ("every morning", "on weekdays", 每天早上) and every
    other word in the same order."""
    if len(a) != len(b) or len(a) < 3 or sorted(a) != sorted(b):
        return False
    return _block_moved(a, b) or _block_moved(b, a)


def _block_moved(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    n = len(b)
    for i in range(n):
        for j in range(i + 1, n + 1):
            block, rest = b[i:j], b[:i] + b[j:]
            if rest and (a == block + rest or a == rest + block) and _opens_adverbial(block):
                return True
    return False


def lexical_restatement(new: str, old: str) -> bool:
    """Rule 1: the same non-empty core token sequence, or the same with an adverbial moved."""
    a, b = core_tokens(new), core_tokens(old)
    return bool(a) and (a == b or moved_adverbial(a, b))


def slot_restatement(new_meta: Mapping[str, Any], old_meta: Mapping[str, Any], new: str, old: str) -> bool:
    """Rule 2: same slot, same value, and the texts differ only by fillers and the slot's paraphrases."""
    slot, value = new_meta.get("slot"), new_meta.get("slot_value")
    if not slot or value in (None, "") or slot != old_meta.get("slot") or value != old_meta.get("slot_value"):
        return False
    paraphrases = SLOT_PARAPHRASES.get(str(slot).split(":", 1)[0])
    if paraphrases is None:
        return False
    a = Counter(w for w in words(new) if w not in FILLERS)
    b = Counter(w for w in words(old) if w not in FILLERS)
    differ = set((a - b) + (b - a))
    return bool(a) and differ <= paraphrases


def restatement_reason(
    new: str, old: str, new_meta: Mapping[str, Any] | None = None, old_meta: Mapping[str, Any] | None = None
) -> str | None:
    """Why ``new`` restates ``old`` ("same wording" / "same slot value"), or None when it does not."""
    if lexical_restatement(new, old):
        return "same wording"
    if new_meta is not None and old_meta is not None and slot_restatement(new_meta, old_meta, new, old):
        return "same slot value"
    return None


def restatement_keys(text: str, metadata: Mapping[str, Any]) -> list[str]:
    """Keys shared by statements the rules could call restatements of each other: the core
    tokens, and the slot with its value. Writers lock them so that two concurrent
    restatements are decided one after the other (``writes.write``)."""
    keys = []
    tokens = core_tokens(text)
    if tokens:
        keys.append("lex:" + "\x1f".join(sorted(tokens)))  # word order aside: moved adverbials meet here
    slot, value = metadata.get("slot"), metadata.get("slot_value")
    if slot and value not in (None, "") and str(slot).split(":", 1)[0] in SLOT_PARAPHRASES:
        keys.append(f"slot:{slot}={value}")
    return keys
