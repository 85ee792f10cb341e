"""Pure, offline text processing for Chinese and English (tokenisation, keywords,
entities, token counting, PII, sensitive categories, time expressions, exact-match
patterns). Every function is deterministic and does no I/O beyond loading jieba's
bundled dictionary once, lazily."""

from neuromem.text.entities import Entity, extract_entities, normalize_entity_name
from neuromem.text.keywords import keywords
from neuromem.text.language import detect_language
from neuromem.text.patterns import PatternToken, has_exact_tokens, pattern_tokens
from neuromem.text.pii import PIIMatch, RedactionResult, apply_pii_policy, find_pii, redact
from neuromem.text.sensitive import SENSITIVE_CATEGORIES, sensitive_categories
from neuromem.text.timeparse import (
    OPEN_END,
    OPEN_START,
    TimeExpression,
    resolve_time_expressions,
    time_constraint,
)
from neuromem.text.token_count import count_tokens, truncate_to_tokens
from neuromem.text.tokenize import query_terms, search_text, tokenize

__all__ = [
    "OPEN_END",
    "OPEN_START",
    "SENSITIVE_CATEGORIES",
    "Entity",
    "PIIMatch",
    "PatternToken",
    "RedactionResult",
    "TimeExpression",
    "apply_pii_policy",
    "count_tokens",
    "detect_language",
    "extract_entities",
    "find_pii",
    "has_exact_tokens",
    "keywords",
    "normalize_entity_name",
    "pattern_tokens",
    "query_terms",
    "redact",
    "resolve_time_expressions",
    "search_text",
    "sensitive_categories",
    "time_constraint",
    "tokenize",
    "truncate_to_tokens",
]
