import re

from hypothesis import given
from hypothesis import strategies as st

from neuromem.text.tokenize import query_terms, search_text, tokenize

# What the PostgreSQL 'simple' parser keeps as one lexeme: letters/digits
# (any script) and dots between digits. Anything else would be split or dropped.
_TSVECTOR_SAFE = re.compile(r"[^\W_]+|\d+(?:\.\d+)+")


def test_chinese_yields_whole_words_and_sub_words() -> None:
    tokens = tokenize("我在北京大学读书")
    assert {"北京", "大学", "北京大学", "读书"} <= set(tokens)
    assert "我" not in tokens  # stopword
    assert "在" not in tokens


def test_stopwords_kept_on_request() -> None:
    assert "the" in tokenize("the cat", drop_stopwords=False)
    assert tokenize("the cat") == ["cat"]
    assert "的" in tokenize("我的猫", drop_stopwords=False)


def test_english_lowercased_punctuation_dropped() -> None:
    assert tokenize("Hello, WORLD!!! (Coffee)") == ["hello", "world", "coffee"]


def test_apostrophes_and_hyphens() -> None:
    assert tokenize("Alice's e-mail") == ["alice", "e", "mail", "email"]
    assert tokenize("I won't go") == ["wont", "go"]
    assert tokenize("Alice’s book") == ["alice", "book"]


def test_identifiers_split_and_joined() -> None:
    assert tokenize("ERR_CONN_RESET") == ["err", "conn", "reset", "errconnreset"]


def test_numbers_kept_whole() -> None:
    assert tokenize("pi is 3.14 and version v1.2.3, 42 apples") == [
        "pi",
        "3.14",
        "version",
        "1.2.3",
        "42",
        "apples",
    ]


def test_mixed_scripts_are_separated() -> None:
    tokens = tokenize("用Python写代码")
    assert "python" in tokens
    assert "代码" in tokens


def test_full_width_is_normalised() -> None:
    assert tokenize("ＧＰＴ４ 模型") == ["gpt4", "模型"]


def test_search_text_has_no_tsquery_operators() -> None:
    text = "a:b & c|d !e (f) 'g' <h> 北京:大学 foo-bar x_y 1.2:3"
    for token in search_text(text).split(" "):
        assert _TSVECTOR_SAFE.fullmatch(token), token


def test_query_terms_deduplicated_in_order() -> None:
    assert query_terms("coffee coffee tea Coffee") == ["coffee", "tea"]


def test_query_terms_only_stopwords_falls_back() -> None:
    assert query_terms("what is it?") == ["what", "is", "it"]


@given(st.text(max_size=60))
def test_search_text_tokens_are_tsvector_safe(text: str) -> None:
    for token in tokenize(text, drop_stopwords=False):
        assert token
        assert " " not in token
        assert _TSVECTOR_SAFE.fullmatch(token), token


@given(st.text(max_size=40))
def test_tokenize_deterministic(text: str) -> None:
    assert tokenize(text) == tokenize(text)
