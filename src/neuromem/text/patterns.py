"""Exact-match tokens: error codes, ids, URLs, paths, identifiers, versions.

Recall (seed 003: BM25 first, raw-text anchors) falls back to raw-text search
when a query contains one of these, because embeddings and word segmentation
blur them ("ORA-00942" is not "ORA-00943"). Each token is reported with its
kind and exact value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

PatternKind = Literal["url", "uuid", "error_code", "hex", "path", "version", "code", "identifier"]


@dataclass(frozen=True, slots=True)
class PatternToken:
    """An exact-match token found in text."""

    kind: PatternKind
    value: str
    span: tuple[int, int]


# Order matters: earlier kinds win when candidates overlap at the same start and length.
_PATTERNS: list[tuple[PatternKind, re.Pattern[str]]] = [
    ("code", re.compile(r"`(?P<v>[^`\n]{1,200})`")),
    ("url", re.compile(r"\b(?:https?|ftp|wss?)://[^\s<>\"'`，。、）)\]]+[^\s<>\"'`，。、）)\].,;:!?]")),
    ("uuid", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")),
    (
        "error_code",
        re.compile(r"\bHTTP[ /]?[1-5]\d\d\b|\b(?:status|error|code)\s+[1-5]\d\d\b", re.IGNORECASE),
    ),
    ("error_code", re.compile(r"\b[A-Z]{2,8}-\d{3,6}\b")),  # ORA-00942, CVE-style prefixes, JIRA-1234
    ("error_code", re.compile(r"\bCVE-\d{4}-\d{4,7}\b")),
    ("error_code", re.compile(r"\b(?:E|ERR|ERROR|W|WARN|EX|C|SQLSTATE|TS)[-_]?\d{3,6}\b")),
    ("error_code", re.compile(r"\b(?:ERR|E|ERROR)_[A-Z0-9]+(?:_[A-Z0-9]+)+\b")),
    ("error_code", re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b")),
    ("hex", re.compile(r"\b0[xX][0-9a-fA-F]+\b")),
    ("hex", re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b")),  # git shas, digests
    ("path", re.compile(r"\b[A-Za-z]:\\(?:[^\\\s:*?\"<>|]+\\)*[^\\\s:*?\"<>|]*")),
    (
        "path",
        re.compile(r"(?<![\w/.])(?:~|\.{1,2})?/(?:[\w.@+-]+/)+[\w.@+-]*|(?<![\w/])(?:~|\.{1,2})/[\w.@+-]+"),
    ),
    (
        "version",
        re.compile(
            r"(?<![\w.])v?\d+\.\d+(?:\.\d+)+(?:-[0-9A-Za-z.]+)?(?![\w.])|(?<![\w.])v\d+\.\d+(?![\w.])"
        ),
    ),
    (
        "identifier",
        re.compile(
            r"\b[A-Za-z_][A-Za-z0-9]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\(\)|\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){1,}\b"
        ),
    ),
    (
        "identifier",
        re.compile(r"\b_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"),
    ),  # snake_case
    (
        "identifier",
        re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b"),
    ),  # camelCase
]

_PRIORITY = {kind: index for index, (kind, _) in enumerate(_PATTERNS)}
_COMMON_DOTTED = re.compile(r"^(?:e\.g|i\.e|etc|a\.m|p\.m|vs)$", re.IGNORECASE)


def pattern_tokens(text: str) -> list[PatternToken]:
    """Exact-match tokens in ``text``, in order, non-overlapping (leftmost-longest).

    Kinds: ``url``, ``uuid``, ``error_code`` (E1234, ERR_CONN_RESET, HTTP 404,
    ORA-00942, ``ValueError``), ``hex`` (0x1F, git shas), ``path`` (unix and
    Windows), ``version`` (1.2.3, v2.0), ``code`` (`backticked`), and
    ``identifier`` (snake_case, camelCase, dotted.module.names).
    """
    candidates: list[tuple[int, int, int, PatternKind, str]] = []
    for index, (kind, pattern) in enumerate(_PATTERNS):
        for m in pattern.finditer(text):
            value = m.group("v") if "v" in pattern.groupindex else m.group()
            if kind == "identifier" and _COMMON_DOTTED.match(value):
                continue
            candidates.append((m.start(), -(m.end() - m.start()), index, kind, value))
    candidates.sort()
    tokens: list[PatternToken] = []
    last_end = -1
    for start, neg_len, _, kind, value in candidates:
        if start < last_end:
            continue
        end = start - neg_len
        tokens.append(PatternToken(kind, value, (start, end)))
        last_end = end
    return tokens


def has_exact_tokens(text: str) -> bool:
    """True when ``text`` holds any exact-match token (recall's raw-text fallback trigger)."""
    return bool(pattern_tokens(text))
