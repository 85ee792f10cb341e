"""A scripted "LLM" for the reflection prompts, served by the fake OpenAI server.

``Brain`` is a callable ``request_json -> reply``: it recognises which
``reflect_*`` prompt it was sent (by its system text), parses the labelled
memory / trait / evidence lines out of the rendered prompt, and answers
consistently from a small list of ``Theme`` s — so the replies name real
labels and the engine's rules can be asserted end to end.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import neuromem
from neuromem import Settings

MEMORY_LINE = re.compile(r"^(m\d+) \| (\S+) \| (.*?) \| (\S+) \| (new|old) \| (.*)$", re.M)
TRAIT_LINE = re.compile(r"^(t\d+) \| (\S+) \| (\S+) \| (\S+) \| ([\d.]+) \| (.*)$", re.M)
EVIDENCE_LINE = re.compile(r"^(\S+) \| ([ABCD]) \| (\S+) \| (.*)$", re.M)
EXPLICIT = ("I always", "I usually", "我总是", "我一直", "我习惯")


@dataclass
class Theme:
    """One tendency the brain recognises: memories containing a word of ``match`` support it,
    those containing a word of ``against`` contradict it."""

    content: str
    match: tuple[str, ...]
    keywords: tuple[str, ...]
    context: str = "personal"
    against: tuple[str, ...] = ()
    split: dict[str, dict[str, Any]] = field(default_factory=dict)  # judge → split with these contexts


@dataclass
class Memory:
    label: str
    date: str
    session: str
    context: str
    new: bool
    text: str


@dataclass
class Brain:
    themes: list[Theme]
    abstract_text: str = "Prefers staying active"
    calls: Counter[str] = field(default_factory=Counter)
    tamper: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None  # edit an answer before sending

    def __call__(self, request: dict[str, Any]) -> str:
        system = request["messages"][0]["content"]
        user = request["messages"][1]["content"]
        if "find recurring" in system:
            task, answer = "propose", self.propose(user)
        elif "decide which known traits" in system:
            task, answer = "link", self.link(user)
        elif "is contradicted by part" in system:
            task, answer = "judge", self.judge(user)
        elif "have in common" in system:
            task, answer = "abstract", {"content": self.abstract_text}
        else:  # pragma: no cover - a prompt the brain does not know
            raise AssertionError(f"unexpected prompt: {system[:80]}")
        self.calls[task] += 1
        if self.tamper is not None:
            answer = self.tamper(task, answer)
        return json.dumps(answer, ensure_ascii=False)

    # ------------------------------------------------------------------ tasks
    @staticmethod
    def memories(user: str) -> list[Memory]:
        return [Memory(m[0], m[1], m[2], m[3], m[4] == "new", m[5]) for m in MEMORY_LINE.findall(user)]

    def theme_of(self, text: str) -> tuple[Theme, str] | None:
        for theme in self.themes:
            if any(w in text for w in theme.against):
                return theme, "contradicting"
            if any(w in text for w in theme.match):
                return theme, "supporting"
        return None

    def propose(self, user: str) -> dict[str, Any]:
        known = user.split("Memories (label")[0]
        traits = []
        for theme in self.themes:
            if theme.content in known:
                continue
            members = [m for m in self.memories(user) if self.theme_of(m.text) == (theme, "supporting")]
            if len(members) < 2 or not any(m.new for m in members):
                continue
            kind = "behavior" if len(members) >= 3 else "trend"
            traits.append(
                {
                    "kind": kind,
                    "content": theme.content,
                    "context": theme.context,
                    "keywords": list(theme.keywords),
                    "memories": [m.label for m in members],
                }
            )
        return {"traits": traits}

    def link(self, user: str) -> dict[str, Any]:
        traits = {t[5]: t for t in TRAIT_LINE.findall(user)}
        links = []
        for memory in self.memories(user.split("New memories (label")[1]):
            found = self.theme_of(memory.text)
            if found is None or found[0].content not in traits:
                continue
            theme, relation = found
            trait = traits[theme.content]
            if memory.context not in ("-", trait[3]) and trait[3] != "-":
                grade = "A"
            elif any(w in memory.text for w in EXPLICIT):
                grade = "B"
            else:
                grade = "C"
            links.append(
                {
                    "trait": trait[0],
                    "memory": memory.label,
                    "relation": relation,
                    "quality": grade,
                    "context": None if memory.context == "-" else memory.context,
                    "strong": relation == "contradicting",
                }
            )
        return {"links": links}

    def judge(self, user: str) -> dict[str, Any]:
        head = user.split("\n")[1]
        theme = next(t for t in self.themes if t.content in head)
        if theme.split:
            return {
                "action": "split",
                "content": " / ".join(v["tendency"] for v in theme.split.values()),
                "confidence": 0.6,
                "contexts": theme.split,
                "reason": "depends on the context",
            }
        return {"action": "dissolve", "reason": "no longer true"}


@pytest.fixture
def llm_memory(settings: Settings, fake_openai) -> Iterator[neuromem.Memory]:  # type: ignore[no-untyped-def]
    """A ``Memory`` whose LLM is the fake server (no client retries: failures are immediate)."""
    m = neuromem.Memory(settings.with_updates(llm={"base_url": fake_openai.base_url, "max_retries": 0}))
    yield m
    m.close()
