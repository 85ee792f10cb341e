"""The BM25 statement of a long question is planned for its own terms every time (never a cached generic plan),
and counts its corpus once whatever the statistics say."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from neuromem import Memory
from neuromem.store.bm25 import (
    BM25,
    COUNTED_CORPUS,
    PREPARED_TERMS,
    TURN_KIND,
    TURNS,
    bm25_search,
    turn_scope,
)
from neuromem.text.tokenize import query_terms
from neuromem.types import MemoryType
from tests.recall.helpers import insert_memory


def test_only_a_short_question_runs_bm25_as_a_prepared_statement(memory: Memory) -> None:
    """psycopg prepares a repeated statement, and PostgreSQL then may switch to a generic plan that ignores the
    terms (2× slower for a question of 20 terms); a question of more than ``PREPARED_TERMS`` distinct terms is
    planned for its own terms each time, a short one (a chat turn) is prepared and skips ~2 ms of planning."""
    for text in ["coffee with milk", "green tea", "coffee beans from Kenya"]:
        insert_memory(memory, "u", text)
    long_questions = [
        "coffee tea milk kenya beans green sugar honey lemon water",
        "green coffee beans from kenya with milk and honey lemon tea sugar",
        "milk sugar honey lemon water tea coffee beans kenya green ice",
    ]
    with memory.runtime.db.connection() as conn:
        for query in long_questions * 3:
            assert len(set(query_terms(query))) > PREPARED_TERMS
            assert bm25_search(conn, "u", query_terms(query), [MemoryType.FACT], limit=5, k1=1.2, b=0.75), (
                query
            )
        for _ in range(7):
            conn.execute("SELECT count(*) FROM memories WHERE user_id = %s", ("u",))
        prepared = [r["statement"] for r in conn.execute("SELECT statement FROM pg_prepared_statements")]
        assert any("count(*) FROM memories" in s for s in prepared)  # the threshold was reached
        assert not any("to_tsquery" in s for s in prepared)
        for query in ["coffee", "tea", "coffee tea"]:
            assert bm25_search(conn, "u", query_terms(query), [MemoryType.FACT], limit=5, k1=1.2, b=0.75), (
                query
            )
        prepared = [r["statement"] for r in conn.execute("SELECT statement FROM pg_prepared_statements")]
    assert any("to_tsquery" in s for s in prepared)


def _scans(node: dict[str, Any], relation: str) -> int:
    """How many times the plan's scans of ``relation`` (a table or any of its shards) ran."""
    own = node.get("Actual Loops", 0) if str(node.get("Relation Name", "")).startswith(relation) else 0
    return own + sum(_scans(child, relation) for child in node.get("Plans", []))


def test_the_corpus_is_counted_once_however_few_rows_the_statistics_promise(
    memory: Memory, db_url: str
) -> None:
    """Turns written just after the table's statistics were gathered empty: the planner expects one row. The
    corpus count (N, avgdl) was an inlined subquery that then became the inner side of a nested loop and was
    counted again for every matching turn (on Citus, with the row-level security check reading the scope key
    per row, a search of 2,000 such turns outran the store's deadline). It is counted once now."""
    with psycopg.connect(db_url, autocommit=True) as admin:
        admin.execute("ANALYZE conversation_messages")  # empty: the planner now expects a row or so
    turns = [{"role": "user", "content": f"note {i} about 0"} for i in range(300)]
    memory.ingest(turns, user_id="u", session_id="s")
    params: dict[str, Any] = {"user_id": "u", "terms": ["0"], "k1": 1.2, "b": 0.75, "limit": 10, "tsq": "'0'"}
    visible = turn_scope(None, None)
    query = BM25.format(
        corpus=COUNTED_CORPUS.format(table=TURNS, visible=visible),
        kind=TURN_KIND,
        table=TURNS,
        visible=visible,
    )
    with memory.runtime.db.connection() as conn:
        [row] = conn.execute(
            sql.SQL("EXPLAIN (ANALYZE, FORMAT JSON) ") + query, params, prepare=False
        ).fetchall()
    plan = next(iter(row.values()))[0]["Plan"]
    assert _scans(plan, "conversation_messages") <= 2  # the matching turns once, the corpus once
