"""Offline approximation of an LLM tokenizer's token count.

Used to budget prompts (recall → pack) without downloading a tokenizer. The
approximation, calibrated on BPE tokenizers of the GPT/Qwen family:

- each Han ideograph, kana or hangul syllable ≈ 1 token;
- a Latin word (letters, possibly with digits) ≈ ``ceil(len / 4)`` tokens, at least 1;
- a run of digits ≈ ``ceil(len / 3)`` tokens (BPEs split numbers in groups of ≤ 3);
- every other non-space character (punctuation, symbols, emoji) ≈ 1 token;
- whitespace is free.

Properties (tested): non-empty text that is not only whitespace counts ≥ 1;
appending text never decreases the count by more than the merge of one word
(monotone-ish); the count of a concatenation is at most the sum of its parts + 0.
"""

from __future__ import annotations

import math
import re

from neuromem.text._scripts import CJK_CHARS

_KANA_HANGUL = "\u3040-\u30ff\uac00-\ud7af"
_PIECE = re.compile(
    rf"(?P<cjk>[{CJK_CHARS}{_KANA_HANGUL}])"
    r"|(?P<digits>\d+)"
    rf"|(?P<word>[^\W\d_{CJK_CHARS}{_KANA_HANGUL}][^\W_{CJK_CHARS}{_KANA_HANGUL}]*)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
    re.DOTALL,
)
# The same pieces counted kind by kind (``count_tokens``): one C-level scan per kind instead of a
# Python step per piece. A word is a maximal run of letters and digits that starts with a letter, so a
# digit run is a piece of its own only where no letter or digit precedes it; "other" is every
# non-space character that is neither a word character nor an ideograph, kana or hangul, or "_".
_IDEOGRAPHS = re.compile(rf"[{CJK_CHARS}{_KANA_HANGUL}]")
_WORDS = re.compile(rf"[^\W\d_{CJK_CHARS}{_KANA_HANGUL}][^\W_{CJK_CHARS}{_KANA_HANGUL}]*")
_DIGIT_RUNS = re.compile(rf"(?<![^\W_{CJK_CHARS}{_KANA_HANGUL}])\d+")
_OTHERS = re.compile(rf"[^\w\s{CJK_CHARS}{_KANA_HANGUL}]|_")


def _piece_cost(m: re.Match[str]) -> int:
    kind = m.lastgroup
    length = len(m.group())
    if kind == "word":
        return max(1, math.ceil(length / 4))
    if kind == "digits":
        return max(1, math.ceil(length / 3))
    if kind == "space":
        return 0
    return 1


def count_tokens(text: str) -> int:
    """Approximate LLM token count of ``text`` (0 only for empty/whitespace-only text).

    The sum of the pieces' costs (module docstring), counted kind by kind: recall counts the
    words of every passage it packs, so this is on the hot path of ``recall_prompt``."""
    return (
        len(_IDEOGRAPHS.findall(text))
        + len(_OTHERS.findall(text))
        + sum((len(w) + 3) // 4 for w in _WORDS.findall(text))
        + sum((len(d) + 2) // 3 for d in _DIGIT_RUNS.findall(text))
    )


def fewer_tokens_than(text: str, limit: int) -> bool:
    """``count_tokens(text) < limit``, reading only a prefix of a long text: every piece costs at least
    a quarter token a character, and a prefix never counts more than the whole (tested)."""
    head = text[: 8 * max(limit, 0)]
    if count_tokens(head) >= limit:
        return False
    return len(head) == len(text) or count_tokens(text) < limit


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of ``text`` that counts at most ``max_tokens``, cut at a piece boundary.

    Words are never cut in half; trailing whitespace is removed. ``max_tokens <= 0``
    gives ``""``.
    """
    if max_tokens <= 0:
        return ""
    if count_tokens(text) <= max_tokens:
        return text
    used = 0
    end = 0
    for m in _PIECE.finditer(text):
        cost = _piece_cost(m)
        if used + cost > max_tokens:
            break
        used += cost
        end = m.end()
    return text[:end].rstrip()
