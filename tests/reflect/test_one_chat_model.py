"""Reflection uses the runtime's one chat model, and leaves closing it to the runtime (issue 25 item 3)."""

from __future__ import annotations

import neuromem
from neuromem.reflect.llm_detector import LLMDetector


def test_the_detector_uses_the_runtimes_chat_model(llm_memory: neuromem.Memory) -> None:
    detector = llm_memory._reflection.detector
    assert isinstance(detector, LLMDetector)
    assert detector.chat is llm_memory.runtime.chat  # one client, not a second one made from the settings
    assert llm_memory._ingest.chat is llm_memory.runtime.chat


def test_closing_reflection_leaves_the_chat_model_open(llm_memory: neuromem.Memory, fake_openai) -> None:  # type: ignore[no-untyped-def]
    llm_memory._reflection.close()
    chat = llm_memory.runtime.chat
    assert chat is not None
    fake_openai.chat_responses.append("still here")
    assert chat.complete([{"role": "user", "content": "hi"}], operation="test").content == "still here"
