"""Character classes shared by the text modules (private)."""

from __future__ import annotations

import re
import unicodedata

# CJK Unified Ideographs, Extension A, Compatibility Ideographs and the
# supplementary-plane extensions. Kana and Hangul are *not* Han: they are
# tokenised as ordinary word characters.
CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef\U00030000-\U0003134f"
CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
CJK_CHAR = re.compile(f"[{CJK_CHARS}]")


def is_cjk(char: str) -> bool:
    """True for a Han ideograph."""
    return CJK_CHAR.fullmatch(char) is not None


def fold_width(text: str) -> str:
    """Full-width ASCII (``ＡＢＣ１２３``, ideographic space) to half-width; nothing else changes.

    Unlike NFKC this keeps every other character (and the string's length) intact,
    so character offsets computed on the result are valid in the original.
    """
    out = []
    for ch in text:
        code = ord(ch)
        if 0xFF01 <= code <= 0xFF5E:
            out.append(chr(code - 0xFEE0))
        elif code == 0x3000:
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def nfkc_casefold(text: str) -> str:
    """NFKC normalisation then case folding (for tokens, never for spans)."""
    return unicodedata.normalize("NFKC", text).casefold()
