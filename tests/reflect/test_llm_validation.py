"""The LLM detector holds the model to the offline rules, repairs its JSON and falls back when it fails
(issue 5 §4, seed 001 §4.2, §8.2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from neuromem import Memory
from neuromem.llm.prompts.reflect_judge_contradiction import JudgeContradictionResponse
from neuromem.store import traits as trait_store
from neuromem.store import usage
from tests.fakes.openai_server import FakeError

from .helpers import by_content, day, say
from .llm_brain import Brain, Theme

U = "lee"
TEA = Theme("Drinks green tea in the afternoon", match=("tea",), keywords=("tea",))


def _tea_sessions(m: Memory, start: int = 0) -> None:
    for i, text in enumerate(["green tea after lunch", "a pot of tea at three", "tea break with a book"]):
        say(m, U, day(start + i), [text], session=f"t{start + i}", metadata={"context": "personal"})


def _events(m: Memory, kind: str) -> list[dict[str, Any]]:
    with m.runtime.db.connection() as conn:
        return [r["detail"] for r in usage.events(conn, U, kind)]


def _last_cycle(m: Memory) -> dict[str, Any]:
    with m.runtime.db.connection() as conn:
        return trait_store.cycles(conn, U, limit=1)[0]


def test_unknown_ids_and_single_session_traits_are_rejected(llm_memory: Memory, fake_openai) -> None:  # type: ignore[no-untyped-def]
    def tamper(task: str, answer: dict[str, Any]) -> dict[str, Any]:
        if task == "propose":
            answer["traits"] += [
                {"kind": "behavior", "content": "Invents things", "memories": ["m1", "m2", "m99"]},
                {
                    "kind": "behavior",
                    "content": "Plays chess a lot",
                    "keywords": ["chess"],
                    "memories": ["m4", "m5", "m6"],
                },  # all from one session
            ]
        return answer

    fake_openai.default_chat = Brain([TEA], tamper=tamper)
    _tea_sessions(llm_memory)
    say(
        llm_memory,
        U,
        day(5),
        ["chess opening practice", "chess endgame drill", "a blitz chess game"],
        session="one-evening",
    )
    report = llm_memory.reflect(user_id=U, now=day(6))
    assert report.created == 1
    assert [t.content for t in llm_memory.traits(user_id=U, now=day(6)).all()] == [TEA.content]
    reasons = sorted(e["reason"] for e in _events(llm_memory, "reflect_llm_rejected"))
    assert reasons == ["a trait from a single session", "unknown memory labels ['m99']"]
    assert _last_cycle(llm_memory)["details"]["detector_log"]["rejected"] == 2


def test_links_to_unknown_labels_are_rejected_and_an_unearned_a_grade_is_lowered(
    llm_memory: Memory, fake_openai
) -> None:  # type: ignore[no-untyped-def]
    def tamper(task: str, answer: dict[str, Any]) -> dict[str, Any]:
        if task == "link":
            for link in answer["links"]:
                link["quality"] = "A"  # claims "several contexts" for a trait seen only at home
            answer["links"].append({"trait": "t7", "memory": "m1", "relation": "supporting", "quality": "B"})
        return answer

    fake_openai.default_chat = Brain([TEA], tamper=tamper)
    _tea_sessions(llm_memory)
    llm_memory.reflect(user_id=U, now=day(3))
    say(llm_memory, U, day(4), ["more tea in the garden"], session="t4", metadata={"context": "personal"})
    llm_memory.reflect(user_id=U, now=day(4.5))
    [tea] = by_content(llm_memory, U, "tea")
    detail = llm_memory.trait(tea.id, user_id=U, now=day(4.5))
    assert [e.quality for e in detail.supporting][-1] == "B"
    log = _last_cycle(llm_memory)["details"]["detector_log"]
    assert log["grades_lowered"] == 1 and log["rejected"] == 1
    [event] = _events(llm_memory, "reflect_llm_rejected")
    assert event["operation"] == "link" and event["item"]["trait"] == "t7"


def test_malformed_json_is_repaired_or_asked_again(llm_memory: Memory, fake_openai) -> None:  # type: ignore[no-untyped-def]
    brain = Brain([TEA])
    fake_openai.default_chat = brain

    def fenced_with_trailing_comma(request: dict[str, Any]) -> str:
        return "Here you go:\n```json\n" + brain(request)[:-1] + ",}\n```"

    fake_openai.chat_responses.extend(["I think the user likes tea.", fenced_with_trailing_comma])
    _tea_sessions(llm_memory)
    report = llm_memory.reflect(user_id=U, now=day(3))
    assert report.created == 1 and by_content(llm_memory, U, TEA.content)
    chat = fake_openai.requests_to("chat/completions")
    assert len(chat) == 2 and "could not be used" in chat[1]["messages"][-1]["content"]
    with llm_memory.runtime.db.connection() as conn:
        [row] = usage.usage_totals(conn, U)
    assert (row["operation"], row["calls"], row["failures"]) == ("reflect_propose_traits", 2, 1)
    assert row["prompt_tokens"] > 0


def test_a_failing_llm_falls_back_to_offline_and_the_failure_is_recorded(
    llm_memory: Memory, fake_openai
) -> None:  # type: ignore[no-untyped-def]
    fake_openai.chat_responses.append(FakeError(500, "model overloaded"))
    fake_openai.default_chat = Brain([TEA])
    _tea_sessions(llm_memory)
    report = llm_memory.reflect(user_id=U, now=day(3))
    assert report.status == "completed" and report.created == 1  # the offline rules found the theme
    [trait] = llm_memory.traits(user_id=U, now=day(3)).all()
    assert trait.metadata["detector"] == "llm+offline" and trait.content != TEA.content
    cycle = _last_cycle(llm_memory)
    assert cycle["status"] == "completed" and cycle["details"]["detector"] == "llm+offline"
    log = cycle["details"]["detector_log"]
    assert log["fallback"] == "offline" and "500" in log["llm_error"]
    [event] = _events(llm_memory, "reflect_llm_fallback")
    assert event["operation"] == "propose" and event["cycle_id"] == str(report.cycle_id)
    with llm_memory.runtime.db.connection() as conn:
        [row] = usage.usage_totals(conn, U)
    assert (row["calls"], row["failures"]) == (1, 1)  # one failed call, then no more calls this cycle
    # the next cycle asks the model again
    say(llm_memory, U, day(4), ["green tea again"], session="t4", metadata={"context": "personal"})
    log = llm_memory.reflect(user_id=U, now=day(4.5)).detector_log
    assert log["detector"] == "llm" and log["llm_calls"] >= 1 and "fallback" not in log


def test_sensitive_memories_are_never_shown_to_the_model(llm_memory: Memory, fake_openai) -> None:  # type: ignore[no-untyped-def]
    fake_openai.default_chat = Brain([TEA])
    _tea_sessions(llm_memory)
    say(
        llm_memory,
        U,
        day(1),
        ["tea with my therapist about my depression"],
        session="x",
        metadata={"sensitive": ["health"]},
    )
    llm_memory.reflect(user_id=U, now=day(3))
    sent = json.dumps(fake_openai.requests_to("chat/completions"), ensure_ascii=False)
    assert "tea after lunch" in sent and "therapist" not in sent


def test_a_judgement_that_cannot_be_applied_is_refused_by_its_schema() -> None:
    with pytest.raises(ValidationError, match="at least two contexts"):
        JudgeContradictionResponse.model_validate(
            {"action": "split", "content": "x", "contexts": {"work": {"tendency": "y", "confidence": 0.5}}}
        )
    with pytest.raises(ValidationError, match="needs the new trait text"):
        JudgeContradictionResponse.model_validate({"action": "revise"})
    assert JudgeContradictionResponse.model_validate({"action": "keep"}).action == "keep"
