"""Side effects of recall (batched access counts, trait reinforcement) and the prompt block."""

from __future__ import annotations

import json

import pytest

from neuromem import Memory, Settings
from neuromem.errors import InvalidInputError
from neuromem.recall.access import AccessTracker
from neuromem.text.token_count import count_tokens
from neuromem.types import MemoryType
from tests.fakes.openai_server import FakeOpenAI
from tests.recall.helpers import insert_memory, insert_trait, refresh_traits, store_raw


def test_access_counts_are_buffered_then_flushed_in_one_batch(memory: Memory) -> None:
    a = memory.add("Alice plays the cello", user_id="u")[0].memory
    for _ in range(3):
        memory.search("cello", user_id="u")
    assert memory.get(a.id, user_id="u").access_count == 0  # nothing written on the hot path
    assert memory.runtime.access.pending >= 1
    assert memory.runtime.access.flush() >= 1
    after = memory.get(a.id, user_id="u")
    assert after.access_count == 3 and after.last_accessed_at is not None
    assert memory.runtime.access.flush() == 0


def test_flush_triggers_in_background_when_enough_rows_wait(settings: Settings) -> None:
    s = settings.with_updates(recall={"access_flush_max_pending": 2})
    with Memory(s) as memory:
        ids = [memory.add(f"note {w}", user_id="u")[0].memory.id for w in ("apple", "banana", "cherry")]
        tracker = memory.runtime.access
        tracker.record("u", ids)
        assert tracker._thread is not None
        tracker._thread.join(timeout=10)
        assert tracker.pending == 0
        assert all(memory.get(i, user_id="u").access_count == 1 for i in ids)


def test_recall_reinforces_traits_by_the_configured_step(memory: Memory) -> None:
    t = insert_memory(
        memory,
        "u",
        "likes jazz music",
        memory_type="trait",
        trait_stage="established",
        trait_subtype="preference",
        trait_confidence=0.7,
        trait_reinforcement_count=1,
    )
    bare = insert_trait(
        memory, "u", "likes jazz radio", stage="established", subtype="preference", confidence=0.7
    )
    refresh_traits(memory)
    results = memory.search("jazz music", user_id="u")
    assert {t.id, bare.id} <= {h.memory.id for h in results}
    memory.runtime.access.flush()
    after = memory.get(t.id, user_id="u")
    assert after.trait_confidence == pytest.approx(0.72, abs=1e-6)
    assert after.version == t.version + 1  # written through the optimistic lock (store.traits)
    assert after.trait_last_reinforced == t.trait_last_reinforced  # the decay clock belongs to evidence
    assert memory.get(bare.id, user_id="u").trait_confidence == pytest.approx(0.7)  # no evidence: no boost
    memory.search("jazz music", user_id="u")  # the same query again: counted once per window
    memory.runtime.access.flush()
    assert memory.get(t.id, user_id="u").trait_confidence == pytest.approx(0.72, abs=1e-6)


def test_failed_flush_keeps_the_counts(memory: Memory) -> None:
    a = memory.add("Bob builds kites", user_id="u")[0].memory
    tracker = AccessTracker(memory.runtime.db, memory.settings.recall, background=False)
    with memory.runtime.db.transaction() as conn:
        conn.execute("ALTER TABLE memories RENAME COLUMN access_count TO access_count_x")
    tracker.record("u", [a.id])
    with pytest.raises(Exception):  # noqa: B017 - any database error
        tracker.flush()
    assert tracker.pending == 1
    with memory.runtime.db.transaction() as conn:
        conn.execute("ALTER TABLE memories RENAME COLUMN access_count_x TO access_count")
    assert tracker.flush() == 1


def _profile(memory: Memory) -> dict[str, object]:
    pref = memory.add("以后用中文回答", user_id="u", category="preference")[0].memory
    runtime = insert_trait(memory, "u", "重视效率", stage="core", subtype="core", confidence=0.9)
    beh = insert_trait(memory, "u", "晚上写代码", stage="established", subtype="behavior", confidence=0.8)
    ep = memory.add("上周去杭州西湖骑车", user_id="u", memory_type="episodic")[0].memory
    refresh_traits(memory)
    return {"pref": pref, "core": runtime, "beh": beh, "ep": ep}


def test_prompt_sections_in_chinese_follow_seed_001_layout(memory: Memory) -> None:
    rows = _profile(memory)
    block = memory.recall_prompt("杭州骑车", user_id="u", token_budget=200)
    text = block.text
    assert block.language == "zh" and text.startswith("[用户记忆]")
    order = [text.index(h) for h in ("用户核心特质", "用户偏好", "用户行为模式", "相关事实与经历")]
    assert order == sorted(order)
    assert "以后用中文回答" in text and "重视效率" in text and "西湖" in text
    assert block.tokens == count_tokens(text) <= 200
    # every [n] marker resolves to a citation of the right memory
    for line in block.lines:
        assert f"[{line.marker}]" in text
        assert block.citations[line.marker - 1].memory_id == line.memory_id
    assert rows["pref"].id in {c.memory_id for c in block.citations}  # type: ignore[attr-defined]


def test_explicit_preferences_appear_even_for_unrelated_queries(memory: Memory) -> None:
    _profile(memory)
    block = memory.recall_prompt("what is the capital of Peru?", user_id="u", token_budget=120)
    assert "以后用中文回答" in block.text and block.language == "en"
    assert block.text.startswith("[User memory]") and "Preferences:" in block.text


def test_prompt_bullets_form_and_budget_is_never_exceeded(memory: Memory) -> None:
    for i in range(15):
        memory.add(f"memory number {i}: the user described a long story about sailing boats {i}", user_id="u")
    block = memory.recall_prompt("sailing boats", user_id="u", token_budget=60, style="bullets")
    assert block.text.startswith("[Memory notes]")
    bullets = [ln for ln in block.text.splitlines() if ln.startswith("- ")]
    assert 1 <= len(bullets) <= 6
    assert count_tokens(block.text) <= 60
    for budget in (16, 40, 90, 300):
        assert (
            count_tokens(memory.recall_prompt("sailing boats", user_id="u", token_budget=budget).text)
            <= budget
        )


def test_prompt_rejects_bad_budget_and_style(memory: Memory) -> None:
    with pytest.raises(InvalidInputError):
        memory.recall_prompt("x", user_id="u", token_budget=3)
    with pytest.raises(InvalidInputError):
        memory.recall_prompt("x", user_id="u", style="poem")


def test_citation_resolves_to_the_exact_original_words(memory: Memory) -> None:
    text = "Hi! By the way, my sister Jane moved to Lisbon last spring. Anyway, how are you?"
    sha = store_raw(memory, "u", text)
    start = text.index("my sister")
    length = len("my sister Jane moved to Lisbon last spring")
    insert_memory(
        memory,
        "u",
        "The user's sister Jane moved to Lisbon",
        memory_type=MemoryType.FACT,
        raw_refs=({"sha256": sha, "offset": start, "length": length},),
        metadata={"session_id": "s-42"},
    )
    block = memory.recall_prompt("where does Jane live", user_id="u", token_budget=100)
    cite = next(c for c in block.citations if c.quote)
    assert cite.quote == "my sister Jane moved to Lisbon last spring"
    assert cite.session_ids == ("s-42",) and cite.sha256 == sha and cite.offset == start


def test_bullets_compressed_by_the_llm_when_configured(settings: Settings, fake_openai: FakeOpenAI) -> None:
    s = settings.with_updates(llm={"base_url": fake_openai.base_url, "api_key": "k", "max_retries": 0})
    fake_openai.chat_responses.append(json.dumps({"bullets": [{"text": "用户周末喜欢骑车", "sources": [1]}]}))
    with Memory(s) as memory:
        memory.add("上周去杭州西湖骑车", user_id="u", memory_type="episodic")
        block = memory.recall_prompt("骑车", user_id="u", style="bullets", token_budget=100)
    assert block.text == "[记忆要点]\n- 用户周末喜欢骑车 [1]"
    assert block.citations[0].memory_id == block.lines[0].memory_id


def test_reset_drops_the_users_buffered_accesses_and_keeps_flushes_out(memory: Memory) -> None:
    kept = memory.add("Noor keeps a sourdough starter", user_id="noor")[0].memory
    gone = memory.add("Omar keeps a sourdough starter", user_id="omar")[0].memory
    tracker = memory.runtime.access
    tracker.record("noor", [kept.id])
    tracker.record("omar", [gone.id])
    memory.reset(user_id="omar")
    assert tracker.pending == 1  # only noor's access is still buffered
    assert tracker.flush() == 1
    assert memory.get(kept.id, user_id="noor").access_count == 1
