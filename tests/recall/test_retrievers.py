"""Each retriever on a real PostgreSQL: BM25 against the formula, graph PPR, traits, raw fallback."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from neuromem import Memory
from neuromem.recall.recipes import BM25_ONLY, HYBRID, HYBRID_RRF, derive
from neuromem.store.bm25 import bm25_search
from neuromem.text.token_count import count_tokens
from neuromem.text.tokenize import query_terms, tokenize
from neuromem.types import MemoryType
from tests.recall.helpers import entity, insert_memory, insert_trait, link, refresh_traits, store_raw


def test_bm25_matches_the_hand_computed_formula(memory: Memory) -> None:
    docs = ["coffee coffee tea", "coffee with milk and sugar every morning", "green tea in the garden"]
    recs = [insert_memory(memory, "u", d) for d in docs]
    insert_memory(memory, "other", "coffee coffee coffee")  # another user's rows never count
    terms = query_terms("coffee tea")
    with memory.runtime.db.connection() as conn:
        got = bm25_search(conn, "u", terms, [MemoryType.FACT], limit=10, k1=1.2, b=0.75)
    lengths = [max(count_tokens(d), 1) for d in docs]
    avgdl = sum(lengths) / 3
    tokens = [tokenize(d) for d in docs]

    def expected(i: int) -> float:
        score = 0.0
        for t in terms:
            df = sum(1 for toks in tokens if t in toks)
            tf = tokens[i].count(t)
            if tf:
                idf = math.log(1 + (3 - df + 0.5) / (df + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * lengths[i] / avgdl))
        return score

    want = sorted(((recs[i].id, expected(i)) for i in range(3) if expected(i) > 0), key=lambda p: -p[1])
    assert [g.id for g in got] == [w[0] for w in want]
    for g, (_, score) in zip(got, want, strict=True):
        assert g.score == pytest.approx(score, rel=1e-6)


def test_bm25_caches_the_statistics_of_a_large_corpus_for_a_while(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """N and avgdl of a corpus at or over the size threshold are reused until the TTL runs out
    (counting 100k rows costs ~150 ms); below it, and for ``as_of``, they are always counted."""
    from neuromem.store import bm25 as bm25_module

    monkeypatch.setattr(bm25_module, "CACHED_STATS_MIN_ROWS", 3)
    monkeypatch.setattr(bm25_module, "corpus_stats", bm25_module._CorpusStats())  # nothing leaks out
    for text in ["kiwi tart", "lemon pie", "plum jam"]:
        insert_memory(memory, "big", text)
    insert_memory(memory, "small", "kiwi tart")
    insert_memory(memory, "small", "lemon pie")

    def kiwi(user: str, **kw: object) -> float:
        with memory.runtime.db.connection() as conn:
            hits = bm25_search(conn, user, ["kiwi"], [MemoryType.FACT], limit=5, k1=1.2, b=0.75, **kw)  # type: ignore[arg-type]
        return hits[0].score

    def expected(corpus: list[str]) -> float:  # "kiwi" once, in "kiwi tart", df = 1
        lengths = [max(count_tokens(t), 1) for t in corpus]
        idf = math.log(1 + (len(corpus) - 1 + 0.5) / 1.5)
        return idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * lengths[0] / (sum(lengths) / len(corpus))))

    big, small = ["kiwi tart", "lemon pie", "plum jam"], ["kiwi tart", "lemon pie"]
    assert kiwi("big") == pytest.approx(expected(big), rel=1e-6)  # counted, and cached (N = 3)
    assert kiwi("small") == pytest.approx(expected(small), rel=1e-6)  # N = 2: not cached
    insert_memory(memory, "big", "fig roll")
    insert_memory(memory, "small", "fig roll")
    assert kiwi("big") == pytest.approx(expected(big), rel=1e-6)  # the cached statistics
    assert kiwi("small") == pytest.approx(expected([*small, "fig roll"]), rel=1e-6)  # counted again
    now = dt.datetime.now(dt.UTC)
    assert kiwi("big", as_of=now) == pytest.approx(expected([*big, "fig roll"]), rel=1e-6)  # as_of counts
    monkeypatch.setattr(bm25_module, "STATS_TTL_S", 0.0)
    assert kiwi("big") == pytest.approx(expected([*big, "fig roll"]), rel=1e-6)  # expired: counted


def test_bm25_in_chinese(memory: Memory) -> None:
    a = insert_memory(memory, "u", "我下周要去上海出差")
    insert_memory(memory, "u", "我喜欢吃火锅")
    results = memory.search("上海出差", user_id="u", recipe=BM25_ONLY)
    assert [h.memory.id for h in results] == [a.id]


def test_vector_skips_rows_without_embeddings(memory: Memory) -> None:
    insert_memory(memory, "u", "alpha beta gamma", embed=False)
    results = memory.search("alpha beta gamma", user_id="u", recipe="dense")
    assert len(results) == 0
    assert len(memory.search("alpha beta gamma", user_id="u", recipe="bm25")) == 1


def test_graph_expansion_finds_a_linked_memory_no_other_retriever_finds(memory: Memory) -> None:
    seed = insert_memory(
        memory, "u", "Planning the trip to Kyoto with Maria", memory_type=MemoryType.EPISODIC
    )
    hop1 = insert_memory(memory, "u", "booked the ryokan near the station", memory_type=MemoryType.EPISODIC)
    hop2 = insert_memory(memory, "u", "paid the deposit by card", memory_type=MemoryType.EPISODIC)
    link(memory, "u", seed.id, hop1.id, "TEMPORAL_NEXT")
    link(memory, "u", hop1.id, hop2.id, "TEMPORAL_NEXT")
    lexical_graph = derive(
        HYBRID_RRF, use_vector=False, use_raw=False
    )  # the vector list would hold every row
    results = memory.search("Kyoto trip", user_id="u", trace=True, recipe=lexical_graph)
    by_id = {h.memory.id: h for h in results}
    assert hop1.id in by_id and by_id[hop1.id].retrievers == ("graph",)
    assert hop2.id in by_id
    assert results.trace["stages"]["graph_subgraph"]["edges"] == 2
    one_hop = memory.search("Kyoto trip", user_id="u", recipe=derive(lexical_graph, graph_hops=1))
    assert hop2.id not in {h.memory.id for h in one_hop if "graph" in h.retrievers}


def test_graph_seeds_from_query_entities(memory: Memory) -> None:
    about = insert_memory(memory, "u", "she recommended a great dentist", memory_type=MemoryType.EPISODIC)
    node = entity(memory, "u", "Maria", "maria")
    link(memory, "u", about.id, node, "MENTIONS", b_kind="node")
    results = memory.search(
        "What did Maria say?", user_id="u", trace=True, recipe=derive(HYBRID_RRF, use_raw=False)
    )
    hit = next(h for h in results if h.memory.id == about.id)
    assert "graph" in hit.retrievers
    assert results.trace["stages"]["graph_subgraph"]["entity_nodes"] == 1


def test_traits_come_from_the_view_with_stage_and_floor(memory: Memory) -> None:
    runtime = insert_trait(
        memory, "u", "prefers concise answers", stage="core", subtype="core", confidence=0.9
    )
    insert_trait(
        memory, "u", "prefers concise emails", stage="candidate", subtype="preference", confidence=0.9
    )
    insert_trait(
        memory, "u", "prefers concise notes", stage="established", subtype="preference", confidence=0.2
    )
    old = dt.datetime.now(dt.UTC) - dt.timedelta(days=2000)
    insert_trait(
        memory,
        "u",
        "prefers concise talks",
        stage="emerging",
        subtype="behavior",
        confidence=0.9,
        last_reinforced=old,
    )  # decays below the floor
    refresh_traits(memory)
    results = memory.search(
        "concise",
        user_id="u",
        recipe=derive(HYBRID_RRF, use_bm25=False, use_vector=False, use_graph=False, use_raw=False),
    )
    assert [h.memory.id for h in results] == [runtime.id]
    assert results[0].retrievers == ("traits",) and results[0].score.stage_boost == 0.25


def test_raw_fallback_on_pattern_tokens_returns_the_original_passage(memory: Memory) -> None:
    text = "The deploy failed.\nThe log said ERR_CONN_RESET at /var/log/app.log line 3.\nWe retried later."
    sha = store_raw(memory, "u", text)
    start = text.index("The log")
    mem = insert_memory(
        memory,
        "u",
        "deploy failed with a connection error",
        memory_type=MemoryType.EPISODIC,
        raw_refs=({"sha256": sha, "offset": 0, "length": len(text)},),
    )
    results = memory.search("what was ERR_CONN_RESET about?", user_id="u", trace=True)
    assert results.trace["paths"]["raw"] == "ran"
    assert results.trace["stages"]["raw_trigger"] == "pattern tokens"
    assert any(h.memory.id == mem.id and "raw" in h.retrievers for h in results)
    passage = results.passages[0]
    assert passage.text == text[start : start + len(passage.text)] and "ERR_CONN_RESET" in passage.text
    assert text[passage.offset : passage.offset + passage.length] == passage.text
    assert passage.memory_ids == (mem.id,)


def test_raw_fallback_stays_off_for_plain_well_served_queries(memory: Memory) -> None:
    for i in range(4):
        insert_memory(memory, "u", f"note number {i} about gardening")
    results = memory.search("gardening notes", user_id="u", trace=True)
    assert results.trace["paths"]["raw"].startswith("skipped")


def test_entity_hubs_are_not_walked_through(memory: Memory) -> None:
    hub = entity(memory, "u", "Bart", "bart")
    first = insert_memory(memory, "u", "Bart found a pizza place downtown", memory_type=MemoryType.EPISODIC)
    others = [
        insert_memory(memory, "u", f"unrelated day {i}", memory_type=MemoryType.EPISODIC) for i in range(4)
    ]
    for rec in [first, *others]:
        link(memory, "u", rec.id, hub, "MENTIONS", b_kind="node")
    lexical_graph = derive(HYBRID_RRF, use_vector=False, use_raw=False)
    walked = memory.search("pizza place", user_id="u", recipe=derive(lexical_graph, graph_max_degree=10))
    assert {o.id for o in others} <= {h.memory.id for h in walked}
    pruned = memory.search("pizza place", user_id="u", recipe=derive(lexical_graph, graph_max_degree=3))
    assert [h.memory.id for h in pruned] == [first.id]


def test_conversation_query_is_also_searched_by_its_current_message(memory: Memory) -> None:
    target = insert_memory(memory, "u", "the violin lesson was cancelled", memory_type=MemoryType.EPISODIC)
    query = "\n".join(
        ["A: hello there", "B: hi, how was school", "A: fine", "B: and music?", "A: the violin lesson"]
    )
    results = memory.search(query, user_id="u", trace=True)
    # the default recipe's focus is the last line (the current message); recipes may take more lines
    assert results.trace["stages"]["focus"]["text"] == "A: the violin lesson"
    hit = next(h for h in results if h.memory.id == target.id)
    assert {"bm25_focus", "vector_focus"} <= set(hit.retrievers)
    two = memory.search(query, user_id="u", trace=True, recipe=derive(HYBRID, focus_lines=2))
    assert two.trace["stages"]["focus"]["text"] == "B: and music?\nA: the violin lesson"
    one_line = memory.search("the violin lesson", user_id="u", trace=True)
    assert "focus" not in one_line.trace["stages"]


def test_memory_neighbours_reads_temporal_next_edges_among_the_ids(memory: Memory) -> None:
    from neuromem.store import recall_queries as rq

    a, b, c, other = (insert_memory(memory, "u", f"turn {i}") for i in range(4))
    link(memory, "u", a.id, b.id, "TEMPORAL_NEXT")
    link(memory, "u", b.id, c.id, "TEMPORAL_NEXT")
    link(memory, "u", c.id, other.id, "TEMPORAL_NEXT")  # `other` is not asked for
    link(memory, "u", a.id, c.id, "SUPPORTS")  # another edge type
    with memory.runtime.db.connection() as conn:
        pairs = rq.memory_neighbours(conn, "u", [a.id, b.id, c.id])
        assert rq.memory_neighbours(conn, "someone-else", [a.id, b.id, c.id]) == []
    assert sorted(pairs) == sorted([(a.id, b.id), (b.id, c.id)])


def test_neighbour_context_lifts_the_turn_next_to_a_strong_match(memory: Memory) -> None:
    from neuromem.recall.recipes import HYBRID_RRF, derive

    first = insert_memory(memory, "u", "We adopted a cat last spring", memory_type=MemoryType.EPISODIC)
    follow = insert_memory(memory, "u", "She sleeps all day on the sofa", memory_type=MemoryType.EPISODIC)
    link(memory, "u", first.id, follow.id, "TEMPORAL_NEXT")
    recipe = derive(
        HYBRID_RRF,
        fusion="linear",
        use_graph=False,
        mmr=False,
        four_factor=False,
        neighbour_weight=0.5,
        linear_weights={"vector": 1.0, "bm25": 0.3},
    )
    results = memory.search("adopted a cat", user_id="u", recipe=recipe, trace=True)
    by_id = {h.memory.id: h.score.extra for h in results}
    assert results.trace["paths"]["neighbours"] == "ran"
    # vector min-max: first 1, follow 0; bm25 only finds first (1): lin = 1.3 and 0
    assert by_id[first.id]["norm_vector"] == 1.0 and by_id[follow.id]["norm_vector"] == 0.0
    assert by_id[first.id]["base"] == pytest.approx(1.3)  # its neighbour's lin is 0
    assert by_id[follow.id]["base"] == pytest.approx(0.5 * 1.3)  # half of its neighbour's lin


def test_conversation_query_is_also_searched_by_the_users_own_lines(memory: Memory) -> None:
    cake = insert_memory(
        memory, "u", "Bart baked a chocolate cake for the school fair", memory_type=MemoryType.EPISODIC
    )
    calm = insert_memory(
        memory, "u", "a calming breathing exercise before exams", memory_type=MemoryType.EPISODIC
    )
    query = "Bart: I baked something today\nAssistant: try a calming breathing exercise\nBart: the chocolate cake was a hit"
    results = memory.search(query, user_id="u", trace=True)
    own = "Bart: I baked something today\nBart: the chocolate cake was a hit"
    assert results.trace["stages"]["user"]["text"] == own
    assert results.trace["paths"]["bm25_user"] == results.trace["paths"]["vector_user"] == "ran"
    by_id = {h.memory.id: h for h in results}
    assert {"bm25_user", "vector_user"} <= set(by_id[cake.id].retrievers)
    assert "bm25_user" not in by_id[calm.id].retrievers  # it matches only what the assistant said
    # the list is BM25 of the user's lines, as the store computes it for that text alone
    with memory.runtime.db.connection() as conn:
        alone = bm25_search(conn, "u", query_terms(own), [MemoryType.EPISODIC], limit=10, k1=1.2, b=0.75)
    assert [r.id for r in alone] == [cake.id]
    assert by_id[cake.id].score.extra["score_bm25_user"] == pytest.approx(alone[0].score, rel=1e-6)
    # off by recipe, or not searched when the recipe gives the list no weight (no extra query embedding)
    off = memory.search(query, user_id="u", trace=True, recipe=derive(HYBRID, user_view=False))
    assert "user" not in off.trace["stages"] and "bm25_user" not in off.trace["paths"]
    unweighted = derive(HYBRID, linear_weights=dict(HYBRID.linear_weights, vector_user=0.0))
    lexical_only = memory.search(query, user_id="u", trace=True, recipe=unweighted)
    assert (
        lexical_only.trace["paths"]["vector_user"] == "off"
        and lexical_only.trace["paths"]["bm25_user"] == "ran"
    )
    assert "embed_user" not in lexical_only.trace["timings_ms"]
    single = memory.search("the chocolate cake", user_id="u", trace=True)
    assert "user" not in single.trace["stages"]
