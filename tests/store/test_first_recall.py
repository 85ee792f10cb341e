"""The fused first recall of seed 000 §6.1: score parts against hand computation, per-user filtering."""

from __future__ import annotations

import datetime as dt
import math

import psycopg
import pytest

from neuromem import Memory, Settings
from neuromem.store.search import SearchRequest, search
from neuromem.types import MemoryType


def test_score_components_match_the_formula(memory: Memory, settings: Settings) -> None:
    valid_at = dt.datetime.now(dt.UTC) - dt.timedelta(days=10)
    memory.add("Hana plays the cello in an orchestra", user_id="hana", importance=0.8, valid_at=valid_at,
               metadata={"emotion": {"valence": 0.6, "arousal": 0.4, "label": "proud"}})
    hit = memory.search("cello orchestra", user_id="hana")[0]
    r = settings.recall
    assert hit.score.ranks == {"lexical": 1, "vector": 1}
    assert hit.score.rrf == pytest.approx(2 / (r.rrf_k + 1))
    age_s = 10 * 86400
    expected_recency = r.recency_weight * math.exp(-age_s / (r.recency_scale_s * (1 + 0.4 * r.arousal_factor)))
    assert hit.score.recency == pytest.approx(expected_recency, rel=1e-3)
    assert hit.score.importance == pytest.approx(r.importance_weight * 0.8)
    assert hit.score.stage_boost == 0
    expected = hit.score.rrf * (1 + hit.score.recency + hit.score.importance)
    assert hit.score.final == pytest.approx(expected, rel=1e-6)


def test_trait_stage_boost_from_the_decayed_view(memory: Memory, db_url: str) -> None:
    rec = memory.add("Prefers morning meetings over evening ones", user_id="t", memory_type="trait")[0].memory
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("UPDATE memories SET trait_subtype = 'preference', trait_stage = 'core', "
                     "trait_confidence = 0.9 WHERE id = %s", (rec.id,))
        conn.execute("REFRESH MATERIALIZED VIEW mv_trait_decayed")
    hit = memory.search("morning meetings", user_id="t")[0]
    assert hit.memory.id == rec.id and hit.score.stage_boost == pytest.approx(0.25)
    with psycopg.connect(db_url, autocommit=True) as conn:  # a dissolved trait is never recalled
        conn.execute("UPDATE memories SET trait_stage = 'dissolved' WHERE id = %s", (rec.id,))
        conn.execute("REFRESH MATERIALIZED VIEW mv_trait_decayed")
    assert memory.search("morning meetings", user_id="t", memory_types=["trait"]).hits == ()


def test_per_user_filter_never_returns_fewer_rows(memory: Memory, settings: Settings) -> None:
    """Iterative HNSW scans: a user with few rows among many others still gets all of them."""
    texts = [f"shared topic sentence number {i} about weather and travel" for i in range(300)]
    memory._core.add_many([memory._core.draft(t, f"crowd-{i % 30}") for i, t in enumerate(texts)])
    mine = [f"my own note {i} about weather in Oslo" for i in range(12)]
    memory._core.add_many([memory._core.draft(t, "needle") for t in mine])
    with memory._core.db.connection() as conn:
        conn.execute("SET hnsw.ef_search = 10")  # a small beam: without iterative scans this would starve
        vector = memory._core.embedder.embed_query("weather")
        hits = search(conn, SearchRequest("needle", vector, [], [MemoryType.FACT], 50), settings.recall,
                      settings.store.embedding_dim)
        conn.execute(f"SET hnsw.ef_search = {settings.store.hnsw_ef_search}")
    current = memory.get_all(user_id="needle")
    assert len(current) >= 10  # (near-duplicates among the 12 may have superseded each other)
    assert {h.memory.id for h in hits} == {m.id for m in current}


def test_chinese_full_text_keeps_words_whole(memory: Memory) -> None:
    memory.add("我在北京大学读计算机科学硕士", user_id="zh")
    memory.add("周末去爬香山看红叶", user_id="zh")
    for query in ("北京大学", "大学", "红叶"):
        hits = memory.search(query, user_id="zh", memory_types=["fact"])
        top = hits[0]
        assert "lexical" in top.retrievers and query in top.memory.content
