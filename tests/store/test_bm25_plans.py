"""The BM25 statement is planned for its own terms every time (never a cached generic plan)."""

from __future__ import annotations

from neuromem import Memory
from neuromem.store.bm25 import bm25_search
from neuromem.text.tokenize import query_terms
from neuromem.types import MemoryType
from tests.recall.helpers import insert_memory


def test_bm25_is_never_a_prepared_statement(memory: Memory) -> None:
    """psycopg prepares a statement after five runs on a connection, and PostgreSQL then may
    switch to a generic plan that ignores the terms (2× slower for long queries); BM25 opts out,
    while an ordinary repeated statement on the same connection is prepared."""
    for text in ["coffee with milk", "green tea", "coffee beans from Kenya"]:
        insert_memory(memory, "u", text)
    with memory.runtime.db.connection() as conn:
        for query in ["coffee", "tea", "coffee tea", "milk", "kenya beans", "green coffee", "tea milk"]:
            hits = bm25_search(conn, "u", query_terms(query), [MemoryType.FACT], limit=5, k1=1.2, b=0.75)
            assert hits, query
        for _ in range(7):
            conn.execute("SELECT count(*) FROM memories WHERE user_id = %s", ("u",))
        prepared = [r["statement"] for r in conn.execute("SELECT statement FROM pg_prepared_statements")]
    assert any("count(*) FROM memories" in s for s in prepared)  # the threshold was reached
    assert not any("to_tsquery" in s for s in prepared)
