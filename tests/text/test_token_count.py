import pytest
from hypothesis import given
from hypothesis import strategies as st

from neuromem.text.token_count import count_tokens, truncate_to_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("   \n", 0),
        ("你好世界", 4),
        ("hi", 1),
        ("hello", 2),
        ("internationalization", 5),
        ("hello, world!", 6),
        ("2024", 2),
        ("我爱 Python", 4),
        ("😀", 1),
    ],
)
def test_count_tokens(text: str, expected: int) -> None:
    assert count_tokens(text) == expected


@given(st.text(min_size=1).filter(lambda s: not s.isspace()))
def test_never_zero_for_non_blank_text(text: str) -> None:
    assert count_tokens(text) >= 1


@given(st.text(max_size=80), st.integers(min_value=0, max_value=80))
def test_prefix_never_counts_more(text: str, cut: int) -> None:
    assert count_tokens(text[:cut]) <= count_tokens(text)


@given(st.text(max_size=40), st.text(max_size=40))
def test_concatenation_subadditive(a: str, b: str) -> None:
    assert count_tokens(a + b) <= count_tokens(a) + count_tokens(b)


@given(st.text(max_size=120), st.integers(min_value=-1, max_value=40))
def test_truncate_respects_budget_and_is_prefix(text: str, budget: int) -> None:
    out = truncate_to_tokens(text, budget)
    assert text.startswith(out)
    assert count_tokens(out) <= max(budget, 0)


def test_truncate_keeps_whole_words() -> None:
    assert truncate_to_tokens("hello wonderful world", 5) == "hello wonderful"
    assert truncate_to_tokens("今天天气很好", 3) == "今天天"
    assert truncate_to_tokens("short", 10) == "short"


def _piece_by_piece(text: str) -> int:
    """The definition: every piece of the tokenizer pattern priced on its own."""
    from neuromem.text.token_count import _PIECE, _piece_cost

    return sum(_piece_cost(m) for m in _PIECE.finditer(text))


_MIXED = st.text(
    alphabet=st.sampled_from([*"ab Z_9٣１é-.,!\n\t你好かナ한글😀", "\u3000", "\u30fb", "ʼ", "’"]), max_size=60
)


@given(st.one_of(st.text(max_size=80), _MIXED))
def test_kind_by_kind_count_equals_the_piece_by_piece_definition(text: str) -> None:
    assert count_tokens(text) == _piece_by_piece(text)


@given(
    st.one_of(st.text(max_size=120), _MIXED, _MIXED.map(lambda t: t * 5)),
    st.integers(min_value=0, max_value=30),
)
def test_fewer_tokens_than_agrees_with_the_count(text: str, limit: int) -> None:
    from neuromem.text.token_count import fewer_tokens_than

    assert fewer_tokens_than(text, limit) == (count_tokens(text) < limit)
