"""Lazy, thread-safe, quiet access to jieba (private to :mod:`neuromem.text`).

jieba builds its prefix dictionary on first use (~0.7 s) and logs to stderr
while doing so; importing ``jieba.analyse`` leaves ``idf.txt`` open (a
``ResourceWarning``) and some versions import ``pkg_resources`` (a
``DeprecationWarning``). Everything here happens once, under a lock, with
warnings suppressed and jieba's logger set to WARNING, so importing
:mod:`neuromem.text` costs nothing and prints nothing (STYLE.md habit 14).
"""

from __future__ import annotations

import logging
import threading
import warnings
from types import ModuleType
from typing import Any

_lock = threading.Lock()
_jieba: ModuleType | None = None
_posseg: ModuleType | None = None
_tfidf: Any = None


def _load() -> None:
    global _jieba, _posseg, _tfidf
    with _lock:
        if _jieba is not None:
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import jieba
            import jieba.analyse
            import jieba.posseg

            jieba.setLogLevel(logging.WARNING)
            jieba.initialize()
            tfidf = jieba.analyse.TFIDF()
        _posseg, _tfidf = jieba.posseg, tfidf
        _jieba = jieba  # published last: other threads test this one


def jieba_module() -> ModuleType:
    """The initialised ``jieba`` module."""
    if _jieba is None:
        _load()
    assert _jieba is not None
    return _jieba


def posseg_module() -> ModuleType:
    """The initialised ``jieba.posseg`` module."""
    if _jieba is None:
        _load()
    assert _posseg is not None
    return _posseg


def tfidf_extractor() -> Any:
    """A shared ``jieba.analyse.TFIDF`` (bundled IDF table, fully offline)."""
    if _jieba is None:
        _load()
    return _tfidf


def cut_for_search(text: str) -> list[str]:
    """``jieba.lcut_for_search`` on an initialised, quiet jieba."""
    return list(jieba_module().lcut_for_search(text))


def cut_precise(text: str) -> list[str]:
    """``jieba.lcut`` (precise mode: each character in exactly one word) on an initialised, quiet jieba."""
    return list(jieba_module().lcut(text))
