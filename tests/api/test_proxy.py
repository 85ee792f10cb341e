"""The memory proxy (issue 26 item 1): the official ``openai`` client → neuromem → a fake upstream, over real HTTP."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import openai
import pytest

from neuromem import Memory
from neuromem.service.api.keys import KeyStore
from neuromem.service.api.serve import ServiceServer
from tests.conftest import base_settings, fresh_database
from tests.fakes import FakeError, FakeOpenAI

UPSTREAM_KEY = "sk-upstream-secret"


@dataclass
class Proxy:
    url: str
    memory: Memory
    fake: FakeOpenAI
    token: str
    bound_token: str

    def client(self, **options: object) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=f"{self.url}/v1",
            api_key=UPSTREAM_KEY,
            max_retries=0,
            default_headers={"X-Neuromem-Key": self.token},
            **options,
        )  # type: ignore[arg-type]

    def headers(self) -> dict[str, str]:
        return {"X-Neuromem-Key": self.token, "Authorization": f"Bearer {UPSTREAM_KEY}"}

    def facts(self, user_id: str) -> list[str]:
        return [m.content for m in self.memory.get_all(user_id=user_id)]

    def wait_for_memory(self, user_id: str, words: str) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if any(words in text for text in self.facts(user_id)):
                return
            time.sleep(0.05)
        raise AssertionError(f"{words!r} never stored for {user_id}: {self.facts(user_id)}")

    def metric(self, name: str) -> float:
        text = httpx.get(f"{self.url}/metrics").text
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


@pytest.fixture(scope="module")
def proxy(pg_server: str) -> Iterator[Proxy]:
    with FakeOpenAI(api_key=UPSTREAM_KEY) as fake:
        settings = base_settings(
            store={"database_url": fresh_database(pg_server)},
            traits={"reflect_on_ingest": False},
            service={"proxy_upstream": fake.base_url, "request_timeout_s": 5},
        )
        with Memory(settings) as memory:
            keys = KeyStore(memory.runtime.db)
            token = keys.create("default", "write", name="proxy test")[1]
            bound = keys.create("default", "write", name="bound", user_id="alice")[1]
            with ServiceServer(memory, settings) as url:
                yield Proxy(url, memory, fake, token, bound)


def upstream_system_text(fake: FakeOpenAI) -> str:
    request = fake.requests_to("chat/completions")[-1]
    return " ".join(m["content"] for m in request["messages"] if m["role"] == "system")


def test_openai_client_answers_with_memory_of_an_earlier_exchange(proxy: Proxy) -> None:
    proxy.fake.chat_responses.append("Noted, no peanuts for you.")
    first = proxy.client().chat.completions.create(
        model="fake-chat", user="maria", messages=[{"role": "user", "content": "I am allergic to peanuts."}]
    )
    assert (
        first.choices[0].message.content == "Noted, no peanuts for you."
    )  # the upstream's answer, unchanged
    assert proxy.fake.requests_to("chat/completions")[-1]["user"] == "maria"
    proxy.wait_for_memory("maria", "peanuts")  # ingested after the answer was sent

    proxy.fake.chat_responses.append("Skip the satay then.")
    second = proxy.client().chat.completions.create(
        model="fake-chat",
        user="maria",
        messages=[
            {"role": "system", "content": "You are a cook."},
            {"role": "user", "content": "Can I eat satay with peanuts tonight?"},
        ],
    )
    assert second.choices[0].message.content == "Skip the satay then."
    sent = proxy.fake.requests_to("chat/completions")[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user"]  # the block joined the caller's system message
    assert sent[0]["content"].startswith("You are a cook.") and "allergic to peanuts" in sent[0]["content"]
    assert "allergic to peanuts" not in upstream_system_text_of_user(proxy, "nobody")


def upstream_system_text_of_user(proxy: Proxy, user: str) -> str:
    """Another user's chat carries none of maria's memories."""
    proxy.client().chat.completions.create(
        model="fake-chat", user=user, messages=[{"role": "user", "content": "Can I eat peanuts?"}]
    )
    return upstream_system_text(proxy.fake)


def test_streaming_passes_the_events_through_and_stores_the_exchange(proxy: Proxy) -> None:
    proxy.fake.chat_responses.append("Oslo is lovely in June.")
    stream = proxy.client().chat.completions.create(
        model="fake-chat",
        stream=True,
        messages=[{"role": "user", "content": "I live in Oslo with my dog Rex."}],
        extra_headers={"X-Neuromem-User": "sven"},
    )
    pieces = [c.choices[0].delta.content or "" for c in stream if c.choices]
    assert "".join(pieces) == "Oslo is lovely in June." and len(pieces) > 3  # several events, unchanged
    proxy.wait_for_memory("sven", "Oslo")
    stream = proxy.client().chat.completions.create(
        model="fake-chat",
        stream=True,
        user="sven",
        messages=[{"role": "user", "content": "Where does Rex live?"}],
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "OK"
    assert "Oslo" in upstream_system_text(proxy.fake)


def test_raw_stream_bytes_are_unchanged(proxy: Proxy) -> None:
    proxy.fake.chat_responses.append("one two three")
    body = {
        "model": "fake-chat",
        "stream": True,
        "user": "raw",
        "messages": [{"role": "user", "content": "count"}],
    }
    with httpx.stream("POST", f"{proxy.url}/v1/chat/completions", json=body, headers=proxy.headers()) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        text = r.read().decode()
    assert text.count("data: ") == 6 and text.rstrip().endswith("data: [DONE]")


def test_failing_upstream_is_a_502_problem_naming_it_and_stores_nothing(proxy: Proxy) -> None:
    before = proxy.metric("neuromem_proxy_upstream_errors_total")
    for stream in (False, True):
        proxy.fake.chat_responses.append(FakeError(500, "upstream exploded"))
        r = httpx.post(
            f"{proxy.url}/v1/chat/completions",
            headers=proxy.headers(),
            json={
                "model": "m",
                "stream": stream,
                "user": "down",
                "messages": [{"role": "user", "content": "I like jazz."}],
            },
        )
        assert r.status_code == 502 and r.headers["content-type"] == "application/problem+json"
        assert proxy.fake.base_url in r.json()["detail"] and "500" in r.json()["detail"]
    with pytest.raises(openai.InternalServerError):
        proxy.fake.chat_responses.append(FakeError(503, "busy"))
        proxy.client().chat.completions.create(
            model="m", user="down", messages=[{"role": "user", "content": "I like jazz."}]
        )
    time.sleep(0.3)
    assert proxy.facts("down") == []
    assert proxy.metric("neuromem_proxy_upstream_errors_total") == before + 3


def test_unreachable_upstream_answers_502_within_the_deadline(pg_server: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    upstream = f"http://127.0.0.1:{closed_port}/v1"
    settings = base_settings(
        store={"database_url": fresh_database(pg_server)},
        service={"proxy_upstream": upstream, "request_timeout_s": 3},
    )
    with Memory(settings) as memory:
        token = KeyStore(memory.runtime.db).create("default", "write")[1]
        with ServiceServer(memory, settings) as url:
            started = time.monotonic()
            r = httpx.post(
                f"{url}/v1/chat/completions",
                headers={"X-Neuromem-Key": token},
                timeout=10,
                json={
                    "model": "m",
                    "user": "u1",
                    "messages": [{"role": "user", "content": "I live in Lima."}],
                },
            )
            assert time.monotonic() - started < 3
        assert r.status_code == 502 and upstream in r.json()["detail"] and "unreachable" in r.json()["detail"]
        assert memory.get_all(user_id="u1") == []


def test_malformed_requests_get_openai_shaped_400s_and_store_nothing(proxy: Proxy) -> None:
    seen = len(proxy.fake.requests)
    headers = {"X-Neuromem-Key": proxy.token, "content-type": "application/json"}
    for body, param in (
        (b"{not json", None),
        (b"[1]", None),
        (b'{"model": "m", "messages": []}', "messages"),
        (b'{"messages": [{"content": "hi"}], "user": "x"}', "messages[0]"),
        (b'{"messages": [{"role": "user", "content": "hi"}]}', "user"),
        (b'{"messages": [{"role": "user", "content": "hi"}], "user": "bad user!"}', "user"),
        (b'{"messages": [{"role": "user", "content": "hi"}], "user": "x", "stream": "yes"}', "stream"),
    ):
        r = httpx.post(f"{proxy.url}/v1/chat/completions", content=body, headers=headers)
        assert r.status_code == 400, body
        error = r.json()["error"]
        assert error["type"] == "invalid_request_error" and error["message"] and error["param"] == param
    with pytest.raises(openai.BadRequestError):
        proxy.client().chat.completions.create(
            model="m", messages=[{"role": "user", "content": "no user given"}]
        )
    assert len(proxy.fake.requests) == seen  # nothing went upstream
    assert proxy.facts("x") == []


def test_keys_bind_the_user_and_are_required(proxy: Proxy) -> None:
    message = [{"role": "user", "content": "I live in Quito and I collect stamps."}]
    r = httpx.post(f"{proxy.url}/v1/chat/completions", json={"model": "m", "messages": message, "user": "a"})
    assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"
    bound = {"X-Neuromem-Key": proxy.bound_token}
    r = httpx.post(
        f"{proxy.url}/v1/chat/completions",
        headers=bound,
        json={"model": "m", "messages": message, "user": "mallory"},
    )
    assert r.status_code == 403
    # a bound key needs no user: it is the key's; an nmk_ bearer works when the upstream needs no key
    proxy.fake.api_key = None
    try:
        r = httpx.post(
            f"{proxy.url}/v1/chat/completions",
            headers={"Authorization": f"Bearer {proxy.bound_token}"},
            json={"model": "m", "messages": message},
        )
        assert r.status_code == 200, r.text
        assert "authorization" not in {k.lower() for k in proxy.fake.last_headers}
    finally:
        proxy.fake.api_key = UPSTREAM_KEY
    proxy.wait_for_memory("alice", "Quito")


def test_recall_and_ingest_failures_never_break_the_chat(proxy: Proxy) -> None:
    before = {
        stage: proxy.metric(f'neuromem_proxy_degraded_total{{stage="{stage}"}}')
        for stage in ("recall", "ingest")
    }
    # a NUL character cannot be stored or searched: recall and ingest both fail, the chat does not
    reply = proxy.client().chat.completions.create(
        model="fake-chat", user="nul", messages=[{"role": "user", "content": "I like tea\u0000 a lot."}]
    )
    assert reply.choices[0].message.content == "OK"
    time.sleep(0.3)
    assert proxy.metric('neuromem_proxy_degraded_total{stage="recall"}') == before["recall"] + 1
    assert proxy.metric('neuromem_proxy_degraded_total{stage="ingest"}') == before["ingest"] + 1
    assert proxy.facts("nul") == []
