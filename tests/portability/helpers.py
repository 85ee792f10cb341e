"""A user with something in every table: a conversation, facts with versions, a document, traits."""

from __future__ import annotations

from neuromem import Memory
from tests.reflect.helpers import day, say

U = "alice"


def populate(memory: Memory, user: str = U) -> None:
    memory.ingest(
        [
            {"role": "user", "content": "I work at Google and I live in Berlin."},
            {"role": "assistant", "content": "Nice, Berlin is lovely."},
            {"role": "user", "content": "我喜欢喝乌龙茶，周末常去爬山。"},
        ],
        user_id=user,
        session_id="chat-1",
    )
    [first] = memory.add("My favourite editor is vim", user_id=user, category="preference")
    memory.update(first.memory.id, user_id=user, content="My favourite editor is helix now")
    [gone] = memory.add("Temporary note about the dentist", user_id=user)
    memory.delete(gone.memory.id, user_id=user)
    memory.add_document(
        "# Trip plan\n\nFly to Lisbon on Friday, hotel near Alfama.",
        user_id=user,
        file_name="trip.md",
        mime_type="text/markdown",
    )
    say(memory, user, day(0), ["I went jogging in the park this morning"], session="s1")
    say(memory, user, day(1), ["Another jogging session along the river today"], session="s2")
    say(memory, user, day(2), ["jogging again before breakfast, felt great"], session="s3")
    memory.reflect(user_id=user, now=day(2.5))
