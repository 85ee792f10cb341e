"""The fused first recall of seed 000 §6.1: score parts against hand computation, per-user filtering."""

from __future__ import annotations

import datetime as dt
import math

import psycopg
import pytest
from bench.first_recall_sql import SearchRequest, search

from neuromem import Memory, Settings
from neuromem.store.maintenance import refresh_trait_view
from neuromem.text import query_terms
from neuromem.types import MemoryType
from tests.recall.helpers import insert_memory


def first_recall(memory: Memory, query: str, user_id: str, types: list[MemoryType] | None = None) -> list:
    runtime = memory.runtime
    request = SearchRequest(
        user_id, runtime.embedder.embed_query(query), query_terms(query), types or list(MemoryType), 10
    )
    with runtime.db.connection() as conn:
        return search(conn, request, runtime.settings.recall, runtime.dim, runtime.settings.traits)


def test_score_components_match_the_formula(memory: Memory, settings: Settings) -> None:
    valid_at = dt.datetime.now(dt.UTC) - dt.timedelta(days=10)
    memory.add(
        "Hana plays the cello in an orchestra",
        user_id="hana",
        importance=0.8,
        valid_at=valid_at,
        metadata={"emotion": {"valence": 0.6, "arousal": 0.4, "label": "proud"}},
    )
    hit = first_recall(memory, "cello orchestra", "hana")[0]
    r = settings.recall
    assert hit.score.ranks == {"lexical": 1, "vector": 1}
    assert hit.score.rrf == pytest.approx(2 / (r.rrf_k + 1))
    age_s = 10 * 86400
    expected_recency = r.recency_weight * math.exp(
        -age_s / (r.recency_tau_fact_days * 86400 * (1 + 0.4 * r.arousal_factor))
    )
    assert hit.score.recency == pytest.approx(expected_recency, rel=1e-3)
    assert hit.score.importance == pytest.approx(r.importance_weight * 0.8)
    assert hit.score.stage_boost == 0
    expected = hit.score.rrf * (1 + hit.score.recency + hit.score.importance)
    assert hit.score.final == pytest.approx(expected, rel=1e-6)


def test_trait_stage_boost_from_the_decayed_view(memory: Memory, db_url: str) -> None:
    rec = insert_memory(memory, "t", "Prefers morning meetings over evening ones", memory_type="trait")
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE memories SET trait_subtype = 'preference', trait_stage = 'core', "
            "trait_confidence = 0.9 WHERE id = %s",
            (rec.id,),
        )
    refresh_trait_view(memory.runtime.db)
    hit = first_recall(memory, "morning meetings", "t")[0]
    assert hit.memory.id == rec.id and hit.score.stage_boost == pytest.approx(0.25)
    with psycopg.connect(db_url, autocommit=True) as conn:  # a dissolved trait is never recalled
        conn.execute("UPDATE memories SET trait_stage = 'dissolved' WHERE id = %s", (rec.id,))
    refresh_trait_view(memory.runtime.db)
    assert first_recall(memory, "morning meetings", "t", [MemoryType.TRAIT]) == []


def test_every_pooled_connection_scans_hnsw_iteratively(memory: Memory, settings: Settings) -> None:
    """pgvector 0.8 iterative scans are on for every connection, so per-user filters applied after
    the HNSW scan keep scanning until enough rows match instead of silently returning fewer."""
    with memory.runtime.db.connection() as conn:
        assert conn.execute("SHOW hnsw.iterative_scan").fetchone()["hnsw.iterative_scan"] == "relaxed_order"
        assert conn.execute("SHOW hnsw.ef_search").fetchone()["hnsw.ef_search"] == str(
            settings.store.hnsw_ef_search
        )
        assert conn.execute("SHOW jit").fetchone()["jit"] == "off"  # no compile pauses on large scans


def test_per_user_filter_returns_all_of_a_small_users_rows(
    memory: Memory, settings: Settings, db_url: str
) -> None:
    dim = settings.store.embedding_dim
    # correlated on g.n so that every row gets its own random vector
    random_vector = f"(SELECT array_agg(random() - 0.5) FROM generate_series(1, {dim}) AS d(i) WHERE g.n > 0)"
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            f"""INSERT INTO memories (id, user_id, memory_type, content, embedding)
                SELECT gen_random_uuid(), CASE WHEN g.n <= 12 THEN 'needle' ELSE 'crowd-' || (g.n % 100) END,
                       'fact', 'row ' || g.n, {random_vector}::vector::halfvec
                FROM generate_series(1, 3000) AS g(n)"""
        )
        conn.execute("ANALYZE memories_fact")
    vector = memory.runtime.embedder.embed_query("anything at all")
    with memory.runtime.db.connection() as conn:
        hits = search(
            conn,
            SearchRequest("needle", vector, [], [MemoryType.FACT], 50),
            settings.recall,
            dim,
            settings.traits,
        )
    assert len(hits) == 12 and {h.memory.user_id for h in hits} == {"needle"}


def test_chinese_full_text_keeps_words_whole(memory: Memory) -> None:
    memory.add("我在北京大学读计算机科学硕士", user_id="zh")
    memory.add("周末去爬香山看红叶", user_id="zh")
    for query in ("北京大学", "大学", "红叶"):
        top = first_recall(memory, query, "zh")[0]
        assert "lexical" in top.retrievers and query in top.memory.content


def _hnsw_scans(conn) -> int:  # type: ignore[no-untyped-def]
    conn.execute("SELECT pg_stat_force_next_flush()")
    conn.commit()
    row = conn.execute(
        "SELECT coalesce(sum(idx_scan), 0) AS n FROM pg_stat_user_indexes "
        "WHERE indexrelname IN ('idx_fact_embedding', 'idx_episodic_embedding')"
    ).fetchone()
    return int(row["n"])


def test_vector_queries_use_the_hnsw_index(
    memory: Memory, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pgvector uses HNSW only when the query vector is a bound parameter in ORDER BY; a vector
    joined in from a CTE silently turns every search into a sequential scan. (Users over the
    exact-search size only: the threshold is 0 here.)"""
    from neuromem.store import memories as store_memories
    from neuromem.store import recall_queries, sql_parts

    monkeypatch.setattr(sql_parts, "EXACT_SEARCH_MAX_ROWS", 0)

    memory.add("Lena grows tomatoes on her balcony", user_id="lena")
    runtime = memory.runtime
    vector = runtime.embedder.embed_query("balcony tomatoes")
    searches = {
        "nearest_current": lambda c: store_memories.nearest_current(
            c, "lena", MemoryType.FACT, vector, runtime.dim
        ),
        "vector_search": lambda c: recall_queries.vector_search(
            c, "lena", vector, runtime.dim, [MemoryType.FACT], limit=5
        ),
        "first_recall": lambda c: search(
            c,
            SearchRequest("lena", vector, ["tomatoes"], list(MemoryType), 5),
            settings.recall,
            runtime.dim,
            settings.traits,
        ),
    }
    for name, run in searches.items():
        with runtime.db.connection() as conn:
            # on a tiny table the planner would rather scan and sort; forbid both so that it takes
            # the HNSW index whenever the query allows it at all
            conn.execute("SET enable_seqscan = off")
            conn.execute("SET enable_sort = off")
            before = _hnsw_scans(conn)
            assert run(conn), name
            after = _hnsw_scans(conn)
            conn.execute("RESET enable_seqscan")
            conn.execute("RESET enable_sort")
            conn.commit()
        assert after > before, f"{name} did not use the HNSW index"


def test_no_hnsw_scan_of_a_type_the_user_has_no_rows_of(
    memory: Memory, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user's episodes do not make a facts-only user walk the episodic HNSW graph: with
    iterative scans that walk would visit the whole index looking for this user's rows. (The
    exact-search threshold is 0 here, so the user's one fact goes through its HNSW graph.)"""
    from neuromem.store import sql_parts

    monkeypatch.setattr(sql_parts, "EXACT_SEARCH_MAX_ROWS", 0)
    memory.add("Mo keeps bees behind the garage", user_id="mo")
    memory.add("Yesterday Ana harvested honey from the hives", user_id="ana", memory_type="episodic")
    runtime = memory.runtime
    vector = runtime.embedder.embed_query("bees and honey")

    def scans(conn, index: str) -> int:  # type: ignore[no-untyped-def]
        conn.execute("SELECT pg_stat_force_next_flush()")
        conn.commit()
        row = conn.execute(
            "SELECT coalesce(sum(idx_scan), 0) AS n FROM pg_stat_user_indexes WHERE indexrelname = %s",
            (index,),
        ).fetchone()
        return int(row["n"])

    from neuromem.store import recall_queries

    types = [MemoryType.FACT, MemoryType.EPISODIC]
    searches = {  # the first recall, and the pipeline's vector retriever
        "first recall": lambda c, user: [
            h.memory.id
            for h in search(
                c, SearchRequest(user, vector, [], types, 5), settings.recall, runtime.dim, settings.traits
            )
        ],
        "vector_search": lambda c, user: [
            r.id for r in recall_queries.vector_search(c, user, vector, runtime.dim, types, limit=5)
        ],
    }
    for name, run in searches.items():
        with runtime.db.connection() as conn:
            conn.execute("SET enable_seqscan = off")  # the index whenever the query allows it
            conn.execute("SET enable_sort = off")
            before = {i: scans(conn, i) for i in ("idx_fact_embedding", "idx_episodic_embedding")}
            hits = run(conn, "mo")
            after = {i: scans(conn, i) for i in before}
            ana = run(conn, "ana")
            conn.rollback()
        assert len(hits) == 1 and len(ana) == 1, name
        assert after["idx_fact_embedding"] > before["idx_fact_embedding"], name
        assert after["idx_episodic_embedding"] == before["idx_episodic_embedding"], name


def test_rows_holding_several_common_terms_survive_the_candidate_cap(
    memory: Memory, settings: Settings
) -> None:
    """The full-text match fetches a bounded number of candidates (per_type_k × 25, here 25); a
    row holding two of the terms is still found when the common words fill that bound first."""
    for i in range(15):
        memory.add(f"walnut harvest number {i}", user_id="w")
        memory.add(f"quince jelly batch {i}", user_id="w")
    both = memory.add("walnut and quince tart for the fair", user_id="w")[0].memory  # the newest row
    recall = settings.recall.model_copy(update={"per_type_k": 1})
    runtime = memory.runtime
    with runtime.db.connection() as conn:
        hits = search(
            conn,
            SearchRequest("w", None, ["walnut", "quince"], list(MemoryType), 4),
            recall,
            runtime.dim,
            runtime.settings.traits,
        )
        single = search(
            conn,
            SearchRequest("w", None, ["walnut"], list(MemoryType), 4),
            recall,
            runtime.dim,
            runtime.settings.traits,
        )
    assert hits[0].memory.id == both.id and hits[0].score.ranks == {"lexical": 1}
    # a one-term query over more rows than the cap still fills its list, oldest first among ties
    assert [h.score.ranks["lexical"] for h in single] == [1, 2]
    assert all("walnut" in h.memory.content for h in single)


@pytest.mark.parametrize("threshold", [None, 2])
def test_a_user_with_few_rows_is_searched_exactly(
    memory: Memory, settings: Settings, monkeypatch: pytest.MonkeyPatch, threshold: int | None
) -> None:
    """Up to ``EXACT_SEARCH_MAX_ROWS`` rows of a user in a partition, the nearest rows are every
    row's true distance order (brute force in NumPy here) and no HNSW graph is walked; over it
    (threshold 2 with 3 rows) the HNSW branch runs instead, with the same answer on this data."""
    import numpy as np

    from neuromem.store import recall_queries, sql_parts
    from neuromem.store.vectors import from_halfvec_send

    if threshold is not None:
        monkeypatch.setattr(sql_parts, "EXACT_SEARCH_MAX_ROWS", threshold)
    texts = ["Ira repairs old bicycles", "Ira swims in the lake at dawn", "Ira reads Japanese poetry"]
    for text in texts:
        memory.add(text, user_id="ira")
    for i in range(20):  # other users' rows share the partition and its graph
        memory.add(f"User {i} repairs bicycles and swims", user_id=f"other-{i}")
    runtime = memory.runtime
    query = runtime.embedder.embed_query("fixing a bike")
    with runtime.db.connection() as conn:
        stored = conn.execute(
            "SELECT id, halfvec_send(embedding) AS v FROM memories WHERE user_id = 'ira'"
        ).fetchall()
        truth = sorted(stored, key=lambda r: -float(np.dot(from_halfvec_send(r["v"]), query)))
        conn.execute("SET enable_seqscan = off")  # as above: the HNSW index whenever a branch allows it
        conn.execute("SET enable_sort = off")
        before = _hnsw_scans(conn)
        pipeline = recall_queries.vector_search(conn, "ira", query, runtime.dim, [MemoryType.FACT], limit=3)
        first = search(
            conn,
            SearchRequest("ira", query, [], [MemoryType.FACT], 3),
            settings.recall,
            runtime.dim,
            settings.traits,
        )
        after = _hnsw_scans(conn)
    assert [r.id for r in pipeline] == [r["id"] for r in truth]
    assert [h.memory.id for h in first] == [r["id"] for r in truth]
    assert (after > before) == (threshold == 2)
