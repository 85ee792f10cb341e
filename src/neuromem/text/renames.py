"""A thing that takes a new name (issue 21, item 1): "The bakery on Church Street is called Crumbs", then "the new
owners have renamed it Proper Loaf"; 我们常去的那家火锅店叫老码头, then 老码头改名叫蜀大侠了. The older statement gives
the thing's name, the newer one renames it: the name is one slot, and the new name is current.

:func:`renamed` reads both statements: the older one must say what the thing is called, and the newer one must
rename it and point back at it, by its old name or by a word of what the older statement named ("the bakery",
那家店)."""

from __future__ import annotations

import re

from ._scripts import CJK_CHAR
from .slots import ValueChange
from .tokenize import tokenize

#: en: a name, capitalised words, or "the" and a word ("the Anchor", "Proper Loaf", "B&Q")
_NAME_EN = r"(?:the\s+)?[A-Z0-9][\w'&-]*(?:\.[\w]+)*(?:\s+(?:of\s+|&\s+)?[A-Z0-9][\w'&-]*(?:\.[\w]+)*){0,4}"
#: en: what the older statement calls the thing ("is called Crumbs", "named Biscuit", "its name is Orbit")
_CALLED_EN = re.compile(
    rf"\b(?:(?:is|are|was|'s|'re)\s+)?(?:called|named)\s+(?P<name>{_NAME_EN})|\bname\s+is\s+(?P<name2>{_NAME_EN})"
)
#: en: a new name: "renamed it Proper Loaf", "has been rebranded as Orbit", "changed its name to X", "is now called X",
#: "is called X now"
_RENAMED_EN = re.compile(
    rf"\b(?:re-?named|rebranded)\s+(?:(?:it|them|{_NAME_EN})\s+(?:to|as)\s+|(?:it|them|to|as)\s+)?(?P<name>{_NAME_EN})"
    rf"|\bchanged\s+(?:its|their|his|her|the)\s+name\s+to\s+(?P<name2>{_NAME_EN})"
    rf"|\b(?:is|are|'s|'re)\s+(?:now\s+)?(?:called|named)\s+(?P<name3>{_NAME_EN})\s+now\b"
    rf"|\b(?:is|are|'s|'re)\s+now\s+(?:called|named)\s+(?P<name4>{_NAME_EN})"
)
_NAME_ZH = r"[\u4e00-\u9fffA-Za-z0-9&·]{2,12}?"
#: zh: 叫老码头, 名叫…, 名字是…
_CALLED_ZH = re.compile(rf"(?:名字(?:是|叫)|名叫|叫做?)(?P<name>{_NAME_ZH})(?=[了的啦呢，。！,.!\s]|$)")
#: zh: 改名叫…, 改名为…, 更名为…, 改叫…, 现在叫…
_RENAMED_ZH = re.compile(
    rf"(?:改名(?:字)?(?:叫做?|为|成)?|更名(?:为|成)|改叫|换了个名字叫|现在叫)(?P<name>{_NAME_ZH})(?=[了的啦呢，。！,.!\s]|$)"
)


def renamed(new: str, old: str) -> ValueChange | None:
    """The change of name ``new`` says of the thing ``old`` names, or None (module docstring)."""
    zh = bool(CJK_CHAR.search(new + old))
    called = (_CALLED_ZH if zh else _CALLED_EN).search(old)
    renaming = (_RENAMED_ZH if zh else _RENAMED_EN).search(new)
    if called is None or renaming is None:
        return None
    was = _name(called)
    now = _name(renaming)
    if not was or not now or _folded(was) == _folded(now):
        return None
    what = old[: called.start()]
    if not (_folded(was) in _folded(new) or _shares_a_word(new[: renaming.start()], what, zh)):
        return None  # "Our new puppy is called Biscuit" / "The café renamed its sandwich The Biscuit": another thing
    key = "name of " + " ".join(tokenize(what)[-3:]) if what.strip() else "name"
    return ValueChange(key, was, now, "single", "renamed")


def _name(m: re.Match[str]) -> str:
    return next((v for k, v in m.groupdict().items() if k.startswith("name") and v), "")


def _folded(text: str) -> str:
    return re.sub(r"^the\s+", "", " ".join(text.casefold().split()))


def _shares_a_word(a: str, b: str, zh: bool) -> bool:
    words = {w for w in tokenize(b) if len(w) >= 2 and (zh or len(w) >= 4)}
    return bool(words & set(tokenize(a)))


__all__ = ["renamed"]
