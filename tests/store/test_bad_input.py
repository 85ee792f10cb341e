"""Each bad input raises its own typed error and writes nothing."""

from __future__ import annotations

import psycopg
import pytest

from neuromem import InvalidInputError, Memory
from neuromem.errors import (
    ContentTooLongError,
    EmptyContentError,
    InvalidFilterError,
    InvalidUserIdError,
    UnknownMemoryTypeError,
    VectorDimensionError,
)
from neuromem.store.vectors import to_halfvec


def _row_counts(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM memory_history)"
        ).fetchone()
    assert row is not None
    return row[0], row[1]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"content": ""}, EmptyContentError, "empty"),
        ({"content": "   \n"}, EmptyContentError, "empty"),
        ({"content": "x" * 20_001}, ContentTooLongError, "20000"),
        ({"content": 42}, InvalidInputError, "must be"),
        ({"user_id": ""}, InvalidUserIdError, "empty"),
        ({"user_id": "bad user!"}, InvalidUserIdError, "forbidden"),
        ({"user_id": "u" * 256}, InvalidUserIdError, "255"),
        ({"user_id": None}, InvalidUserIdError, "string"),
        ({"memory_type": "opinion"}, UnknownMemoryTypeError, "opinion"),
        ({"importance": 1.5}, InvalidInputError, "importance"),
        ({"importance": "high"}, InvalidInputError, "importance"),
        ({"metadata": ["not", "a", "mapping"]}, InvalidInputError, "mapping"),
        ({"metadata": {"x": object()}}, InvalidInputError, "JSON"),
        ({"valid_at": "yesterday-ish"}, InvalidInputError, "ISO-8601"),
        (
            {"valid_at": "2024-02-01T00:00:00Z", "invalid_at": "2024-01-01T00:00:00Z"},
            InvalidInputError,
            "later",
        ),
    ],
)
def test_bad_add_is_rejected_and_writes_nothing(
    memory: Memory, db_url: str, kwargs: dict, error: type[Exception], message: str
) -> None:
    call = {"content": "a perfectly fine memory", "user_id": "ok-user", **kwargs}
    before = _row_counts(db_url)
    with pytest.raises(error, match=message):
        memory.add(call.pop("content"), **call)
    assert _row_counts(db_url) == before


@pytest.mark.parametrize(
    "filters",
    [
        {"colour": "red"},
        {"importance": {"approx": 1}},
        {"importance": "high"},
        {"memory_type": "opinion"},
        {"OR": []},
        {"metadata.bad key": 1},
        {"created_at": {"gte": "not a date"}},
        ["category", "preference"],
    ],
)
def test_malformed_filters(memory: Memory, filters: object) -> None:
    with pytest.raises(InvalidFilterError):
        memory.get_all(user_id="u", filters=filters)  # type: ignore[arg-type]
    with pytest.raises(InvalidFilterError):
        memory.search("anything", user_id="u", filters=filters)  # type: ignore[arg-type]


def test_bad_ids_limits_and_queries(memory: Memory) -> None:
    with pytest.raises(InvalidInputError, match="UUID"):
        memory.get("not-a-uuid", user_id="u")
    with pytest.raises(InvalidInputError, match="limit"):
        memory.search("tea", user_id="u", limit=0)
    with pytest.raises(EmptyContentError):
        memory.search("  ", user_id="u")
    with pytest.raises(UnknownMemoryTypeError):
        memory.search("tea", user_id="u", memory_types=["fact", "dream"])
    with pytest.raises(InvalidInputError, match="needs content"):
        memory.update("01234567-89ab-cdef-0123-456789abcdef", user_id="u")


def test_vector_of_the_wrong_dimension() -> None:
    with pytest.raises(VectorDimensionError, match="3 dimensions"):
        to_halfvec([0.1, 0.2, 0.3], 64)
    with pytest.raises(VectorDimensionError, match="NaN"):
        to_halfvec([float("nan")] * 4, 4)
