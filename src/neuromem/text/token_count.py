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

_PIECE = re.compile(
    rf"(?P<cjk>[{CJK_CHARS}\u3040-\u30ff\uac00-\ud7af])"
    r"|(?P<digits>\d+)"
    rf"|(?P<word>[^\W\d_{CJK_CHARS}\u3040-\u30ff\uac00-\ud7af][^\W_{CJK_CHARS}\u3040-\u30ff\uac00-\ud7af]*)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
    re.DOTALL,
)


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
    """Approximate LLM token count of ``text`` (0 only for empty/whitespace-only text)."""
    return sum(_piece_cost(m) for m in _PIECE.finditer(text))


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
