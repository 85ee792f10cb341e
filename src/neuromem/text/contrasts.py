"""Two things of one kind told apart by a pair of contrasting words (issue 21: distinct facts are never one
slot): the downstairs loo and the upstairs shower, 大女儿 and 小女儿, 左眼 and 右眼, 我们镇 and 隔壁镇. A question
that names one of the pair asks about the statement that says it, not about the one that says the other
(:func:`contrasted`). Read by recall, where the question says which thing is meant."""

from __future__ import annotations

import re

from ._scripts import CJK_CHAR
from .slot_frames import replacement_evidence

#: en: words that tell two things of one kind apart by where they are or which of two they are
_PAIRS_EN = (
    ("upstairs", "downstairs"),
    ("left", "right"),
    ("front", "back"),
    ("top", "bottom"),
    ("older", "younger"),
    ("elder", "younger"),
    ("eldest", "youngest"),
    ("big", "little"),
)
#: zh: the same, each before the noun it qualifies (大女儿 / 小女儿, 左眼 / 右眼, 东门 / 西门, 我们镇 / 隔壁镇)
_PAIRS_ZH = (
    ("大", "小"),
    ("左", "右"),
    ("楼上", "楼下"),
    ("前", "后"),
    ("东", "西"),
    ("南", "北"),
    ("我们", "隔壁"),
    ("我家", "隔壁"),
)


def _both_ways(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return pairs + tuple((b, a) for a, b in pairs)


_BOTH_EN, _BOTH_ZH = _both_ways(_PAIRS_EN), _both_ways(_PAIRS_ZH)


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z]+", text.casefold()))


def contrasted(query: str, new: str, old: str) -> bool:
    """The ``query`` and ``old`` say one word of a contrasting pair, and ``new`` says the other instead: "What's
    wrong with the downstairs loo?" asks about "The tap in the downstairs loo drips", not "The upstairs shower
    leaks"; 我大女儿在学校当什么？ about 我大女儿在学校当升旗手, not 我小女儿在幼儿园当小值日生. In Chinese the
    word is read with the noun after it (one or two characters) said in all three: 大女儿 / 小女儿, not 大概 / 小时.
    A ``new`` that tells a change (``text.slot_frames.replacement_evidence``: "They moved us to the back row", asked
    "Are we still in the front row?") may give the thing asked its new value, and is not read here."""
    if replacement_evidence(new) is not None:
        return False
    if CJK_CHAR.search(query + new + old):
        for a, b in _BOTH_ZH:
            for m in re.finditer(re.escape(a), old):
                for size in (1, 2):
                    noun = old[m.end() : m.end() + size]
                    if (
                        len(noun) == size
                        and all(CJK_CHAR.fullmatch(c) for c in noun)
                        and a + noun in query
                        and b + noun in new
                        and a + noun not in new
                    ):
                        return True
        return False
    q, n, o = _words(query), _words(new), _words(old)
    return any(a in q and a in o and b in n and a not in n for a, b in _BOTH_EN)
