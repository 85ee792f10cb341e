"""Replay helpers: time-stamped memories written directly, reflection at a supplied clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from neuromem import Memory

T0 = dt.datetime(2025, 3, 3, 9, 0, tzinfo=dt.UTC)


def day(n: float) -> dt.datetime:
    return T0 + dt.timedelta(days=n)


def say(
    memory: Memory,
    user: str,
    when: dt.datetime,
    texts: Iterable[str],
    *,
    session: str | None = None,
    memory_type: str = "episodic",
    **extra,
) -> None:
    given = extra.pop("metadata", {})
    for text in texts:
        metadata = {"session_id": session or when.date().isoformat(), **given}
        memory.add(text, user_id=user, memory_type=memory_type, metadata=metadata, valid_at=when, **extra)


def by_content(memory: Memory, user: str, needle: str):  # type: ignore[no-untyped-def]
    groups = memory.traits(user_id=user)
    return [t for t in groups.all() if needle in t.content]
