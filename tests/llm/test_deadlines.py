"""Hung and refused providers (issue #12 item 5): every HTTP call ends within its deadline
(+1 s), a circuit breaker stops calling a provider that keeps failing, and neuromem falls back
at once — rules for the LLM, a NULL vector + backfill for the embedder, full text for recall —
with a warning in the result. The servers are real sockets on 127.0.0.1."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from neuromem import Memory, Settings
from neuromem.embed.openai import OpenAIEmbedder
from neuromem.errors import EmbedderError, LLMError
from neuromem.llm.circuit import CircuitBreaker, reset_shared_breakers
from neuromem.llm.openai_compat import OpenAICompatibleChat
from tests.conftest import TEST_DIM
from tests.fakes.hung_server import HungServer, refused_url

DEADLINE = 1.0
SLACK = 1.0  # the bound: no call exceeds its deadline by more than 1 s


@pytest.fixture
def hung() -> Iterator[HungServer]:
    with HungServer() as server:
        yield server


def _timed(call):  # type: ignore[no-untyped-def]
    started = time.monotonic()
    try:
        call()
    except (EmbedderError, LLMError) as exc:
        return time.monotonic() - started, exc
    return time.monotonic() - started, None


def test_breaker_opens_after_failures_and_lets_one_trial_through_after_the_cool_down() -> None:
    now = [0.0]
    b = CircuitBreaker(failures=2, cooldown_s=10.0, clock=lambda: now[0])
    b.record_failure()
    assert b.allow() and not b.is_open
    b.record_failure()
    assert b.is_open and not b.allow() and b.open_for() == 10.0
    now[0] = 10.5
    assert b.allow()  # the trial call
    assert not b.allow()  # only one at a time
    b.record_failure()
    assert not b.allow() and b.open_for() == 10.0
    now[0] = 21.0
    assert b.allow()
    b.record_success()
    assert not b.is_open and b.allow()


@pytest.mark.parametrize("kind", ["embedder", "llm"])
def test_a_hung_provider_call_ends_within_its_deadline(hung: HungServer, kind: str) -> None:
    """30 s per-attempt timeout and two retries configured: the 1 s deadline wins."""
    client: OpenAIEmbedder | OpenAICompatibleChat
    if kind == "embedder":
        client = OpenAIEmbedder(
            hung.base_url, model="fake-embed", dim=TEST_DIM, timeout_s=30, max_retries=2, deadline_s=DEADLINE
        )
        took, error = _timed(lambda: client.embed_passages(["hello"]))
    else:
        client = OpenAICompatibleChat(
            hung.base_url, model="fake-chat", timeout_s=30, max_retries=2, deadline_s=DEADLINE
        )
        took, error = _timed(lambda: client.complete([{"role": "user", "content": "hi"}], operation="test"))
    client.close()
    assert error is not None and "deadline" in str(error)
    assert DEADLINE * 0.8 <= took <= DEADLINE + SLACK
    assert hung.accepted >= 1


def test_the_breaker_skips_a_refused_provider_at_once() -> None:
    breaker = CircuitBreaker(failures=2, cooldown_s=60.0)
    chat = OpenAICompatibleChat(
        refused_url(), model="fake-chat", max_retries=0, deadline_s=DEADLINE, breaker=breaker
    )
    for _ in range(2):
        _, error = _timed(lambda: chat.complete([{"role": "user", "content": "hi"}], operation="test"))
        assert error is not None and "connection failed" in str(error)
    took, error = _timed(lambda: chat.complete([{"role": "user", "content": "hi"}], operation="test"))
    chat.close()
    assert error is not None and "circuit breaker open" in str(error) and took < 0.1


def _provider_settings(settings: Settings, **sections: dict) -> Settings:
    return settings.with_updates(traits={"reflect_on_ingest": False}, **sections)


def test_hung_embedder_add_falls_back_to_a_null_vector_and_recall_to_full_text(
    settings: Settings, hung: HungServer
) -> None:
    s = _provider_settings(
        settings,
        embedder={
            "provider": "openai",
            "base_url": hung.base_url,
            "model": "fake-embed-add",
            "dim": TEST_DIM,
            "deadline_s": DEADLINE,
            "breaker_failures": 1,
            "breaker_cooldown_s": 60.0,
        },
    )
    with Memory(s) as m:
        started = time.monotonic()
        first = m.add("my passport expires in March", user_id="kim")[0]
        assert time.monotonic() - started <= DEADLINE + SLACK
        assert not first.memory.has_embedding and "embedding deferred" in first.warnings[0]
        started = time.monotonic()
        second = m.add("the boiler is serviced every October", user_id="kim")[0]
        assert time.monotonic() - started < 0.5  # the breaker is open: no second wait
        assert second.warnings and not second.memory.has_embedding
        m.search("boiler", user_id="kim")  # warm-up: the first recall loads the tokenizer's dictionary
        started = time.monotonic()
        found = m.search("passport", user_id="kim")
        assert time.monotonic() - started < 0.5  # no wait on the embedder either
        assert found[0].memory.id == first.memory.id  # full text answers
        assert any(d.startswith("vector") for d in found.degraded)
        assert m.pending_embeddings(user_id="kim") == 2  # left for the backfill, nothing lost


def test_hung_llm_ingest_falls_back_to_rules_with_a_warning(settings: Settings, hung: HungServer) -> None:
    s = _provider_settings(
        settings,
        llm={
            "base_url": hung.base_url,
            "model": "fake-chat-ingest",
            "deadline_s": DEADLINE,
            "breaker_failures": 1,
            "breaker_cooldown_s": 60.0,
        },
    )
    with Memory(s) as m:
        started = time.monotonic()
        report = m.ingest(
            [{"role": "user", "content": "I am allergic to penicillin"}], user_id="kim", session_id="s"
        )
        took = time.monotonic() - started
        assert took <= DEADLINE + SLACK + 1.0  # one hung call, then the open breaker; +1 s for the writes
        assert report.fallbacks >= 1 and any("LLM failed" in w for w in report.warnings)
        assert any("penicillin" in r.memory.content for r in report.results)  # the rules kept it


def test_one_deadline_covers_every_model_call_of_an_ingest(settings: Settings, hung: HungServer) -> None:
    """Issue 23 item 3: extraction and the decision step each waited out their own deadline (60.6 s for
    one turn with the 30 s default); now they share one. The breaker stays closed here (10 failures)."""
    deadline = 3.0
    s = _provider_settings(
        settings,
        llm={
            "base_url": hung.base_url,
            "model": "fake-chat-one-deadline",
            "deadline_s": deadline,
            "breaker_failures": 10,
            "breaker_cooldown_s": 60.0,
        },
    )
    with Memory(s) as m:
        m.add("I was allergic to aspirin", user_id="kim")  # a neighbour, so that a decision is asked for
        started = time.monotonic()
        report = m.ingest(
            [{"role": "user", "content": "I am allergic to penicillin"}], user_id="kim", session_id="s"
        )
        took = time.monotonic() - started
    assert took <= deadline + SLACK + 1.0  # one deadline for the call's model requests; +1 s for the writes
    assert any("penicillin" in r.memory.content for r in report.results)  # the rules kept it
    assert any("deadline" in w for w in report.warnings)


def test_the_breaker_state_outlives_the_process(settings: Settings, hung: HungServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 23 item 3: a new process started with the breaker closed, so `memctl ingest` waited again."""
    state = tmp_path / "breakers.json"
    s = _provider_settings(
        settings,
        llm={
            "base_url": hung.base_url,
            "model": "fake-chat-persisted",
            "deadline_s": DEADLINE,
            "breaker_failures": 1,
            "breaker_cooldown_s": 60.0,
            "breaker_state_file": str(state),
        },
    )
    turn = [{"role": "user", "content": "I am allergic to penicillin"}]
    with Memory(s) as m:
        m.ingest(turn, user_id="kim", session_id="s1")  # the hung call opens the breaker
    assert state.exists() and "fake-chat-persisted" in state.read_text()
    reset_shared_breakers(persisted=False)  # what a new process has: no breaker in memory, the file on disk
    accepted = hung.accepted
    with Memory(s) as m:
        started = time.monotonic()
        report = m.ingest(turn, user_id="kim", session_id="s2")
        took = time.monotonic() - started
    assert hung.accepted == accepted  # not called at all
    assert took < DEADLINE  # fell back at once
    assert any("circuit breaker open" in w for w in report.warnings)
    assert any("penicillin" in r.memory.content for r in report.results)
