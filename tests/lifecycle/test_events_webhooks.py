"""The change feed and its webhooks (issue 26 item 5), against the real database and a local HTTP receiver."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from neuromem import InvalidInputError, Memory, NotFoundError
from neuromem.admin import add_webhook, list_webhooks, remove_webhook
from neuromem.lifecycle.webhooks import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    EventPage,
    WebhookDeliveryError,
    verify,
)
from tests.feed import settle
from tests.reflect.helpers import day, say


class Receiver:
    """An http.server on 127.0.0.1 recording each delivery; ``status`` is what it answers."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 200
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                owner.received.append((dict(self.headers.items()), body))
                self.send_response(owner.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def events(self) -> list[dict[str, Any]]:
        return [e for _, body in self.received for e in json.loads(body)["events"]]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    r.thread.start()
    yield r
    r.server.shutdown()
    r.server.server_close()


def feed(memory: Memory, **options: Any) -> EventPage:
    """``memory.events`` once every event written so far is visible (tests/feed.py)."""
    settle(memory)
    return memory.events(**options)


def kinds(memory: Memory, user: str, **options: Any) -> list[tuple[str, Any]]:
    return [(e.kind, e.memory_id) for e in feed(memory, user_id=user, **options).events]


def test_the_feed_tells_adds_updates_deletes_and_pages_by_cursor(memory: Memory) -> None:
    [a] = memory.add("Nadia rows on the Thames every Sunday", user_id="ev")
    first = feed(memory, user_id="ev")
    assert [(e.kind, e.memory_id, e.memory_type) for e in first.events] == [
        ("memory.added", a.memory.id, "fact")
    ]
    new = memory.update(a.memory.id, user_id="ev", content="Nadia rows on the Cam every Sunday")
    memory.delete(new.id, user_id="ev")
    later = feed(memory, user_id="ev", after=first.next)
    assert [e.kind for e in later.events] == ["memory.updated", "memory.deleted"]
    assert feed(memory, user_id="ev", after=later.next).events == ()
    assert feed(memory, user_id="ev", after=later.next).next == later.next
    assert [e.kind for e in feed(memory, user_id="ev", kinds=["memory.deleted"]).events] == ["memory.deleted"]
    assert feed(memory, user_id="someone-else").events == ()
    everything = json.dumps([e.detail for e in feed(memory, user_id="ev").events])
    assert "Thames" not in everything and "Cam" not in everything  # ids and kinds, never content
    with pytest.raises(InvalidInputError):
        feed(memory, user_id="ev", after="not-a-cursor")
    with pytest.raises(InvalidInputError):
        feed(memory, user_id="ev", kinds=["memory.exploded"])


def test_conflicts_and_invalidation_are_events(memory: Memory) -> None:
    memory.ingest(
        [{"role": "user", "content": "My favourite colour is blue."}], user_id="cv", session_id="s1"
    )
    memory.ingest(
        [{"role": "user", "content": "My favourite colour is green."}], user_id="cv", session_id="s2"
    )
    conflicts = memory.conflicts(user_id="cv", status="all")
    assert conflicts, "the two statements oppose each other"
    seen = [k for k, _ in kinds(memory, "cv")]
    if conflicts[0].row.status == "open":
        assert "conflict.opened" in seen
        memory.resolve_conflict(conflicts[0].row.id, user_id="cv", keep=conflicts[0].row.new_id)
        seen = [k for k, _ in kinds(memory, "cv")]
    assert "memory.invalidated" in seen


def test_traits_formed_and_dissolved_are_events(memory: Memory) -> None:
    say(memory, "tv", day(0), ["Looked at photography cameras online"], session="a1")
    say(memory, "tv", day(1), ["Read a review of photography lenses"], session="a2")
    memory.reflect(user_id="tv", now=day(1.5))
    assert "trait.formed" in [k for k, _ in kinds(memory, "tv")]
    memory.reflect(user_id="tv", now=day(32))  # the trend's window ends without reinforcement
    trait_events = [k for k, _ in kinds(memory, "tv", kinds=["trait.formed", "trait.dissolved"])]
    assert trait_events[0] == "trait.formed" and "trait.dissolved" in trait_events


def test_forgetting_leaves_only_content_free_events(memory: Memory) -> None:
    [a] = memory.add("Omar's locker code is 4471", user_id="fv")
    memory.update(a.memory.id, user_id="fv", content="Omar's locker code is 5582")
    receipt = memory.forget(user_id="fv", memory_id=a.memory.id)
    events = feed(memory, user_id="fv").events
    # one per forgotten version (the chain goes together); the earlier events went with the history
    assert [e.kind for e in events] == ["memory.forgotten", "memory.forgotten"]
    assert all(e.memory_id is None and e.detail["receipt_id"] == str(receipt.id) for e in events)


def test_webhooks_deliver_signed_events_and_retry_after_a_failure(memory: Memory, receiver: Receiver) -> None:
    memory.add("Before the webhook existed", user_id="wh")
    hook = add_webhook(memory, receiver.url, events=["memory.added", "memory.deleted"])
    assert hook.secret and hook.secret.startswith("whsec_")
    [a] = memory.add("Priya bakes sourdough on Fridays", user_id="wh")
    memory.update(a.memory.id, user_id="wh", content="Priya bakes rye on Fridays")  # not a wanted kind

    receiver.status = 500  # the receiver fails: the job fails (the queue retries it), nothing is skipped
    with pytest.raises(WebhookDeliveryError):
        memory.run_job("deliver_webhooks")
    [listed] = list_webhooks(memory)
    assert listed.failures == 1 and "500" in (listed.last_error or "") and listed.delivered == 0

    receiver.status = 204
    receiver.received.clear()
    done = memory.run_job("deliver_webhooks")
    assert done == {str(hook.id): 1}
    [(headers, body)] = receiver.received
    assert verify(hook.secret, headers[TIMESTAMP_HEADER], body, headers[SIGNATURE_HEADER])
    assert not verify(hook.secret, headers[TIMESTAMP_HEADER], body + b" ", headers[SIGNATURE_HEADER])
    assert not verify("whsec_other", headers[TIMESTAMP_HEADER], body, headers[SIGNATURE_HEADER])
    assert not verify(hook.secret, str(int(time.time()) - 3600), body, headers[SIGNATURE_HEADER])
    [event] = json.loads(body)["events"]
    assert (event["kind"], event["memory_id"], event["user_id"]) == ("memory.added", str(a.memory.id), "wh")
    assert memory.run_job("deliver_webhooks") == {str(hook.id): 0}  # caught up: nothing sent twice
    [listed] = list_webhooks(memory)
    assert listed.failures == 0 and listed.delivered == 1 and listed.secret is None

    remove_webhook(memory, hook.id)
    memory.add("After removal", user_id="wh")
    assert memory.run_job("deliver_webhooks") == {}
    assert list_webhooks(memory) == [] and len(list_webhooks(memory, include_removed=True)) == 1
    with pytest.raises(NotFoundError):
        remove_webhook(memory, hook.id)
    with pytest.raises(InvalidInputError):
        add_webhook(memory, "ftp://example.com/hook")


def test_webhooks_see_only_their_tenant(memory: Memory, receiver: Receiver) -> None:
    hook = add_webhook(memory, receiver.url, tenant="acme")
    memory.add("A default-tenant memory", user_id="plain")
    memory.add("An acme memory", user_id="t=acme/alice")
    memory.run_job("deliver_webhooks")
    assert [(e["user_id"], e["kind"]) for e in receiver.events()] == [("alice", "memory.added")]
    assert hook.tenant == "acme"
