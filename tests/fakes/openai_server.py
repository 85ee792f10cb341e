"""A real HTTP, OpenAI-compatible fake server for tests (STYLE habit 13: real fakes, not mocks).

It listens on 127.0.0.1 on a free port in a daemon thread and speaks enough of
the OpenAI API for neuromem's clients::

    with FakeOpenAI() as fake:
        fake.chat_responses.append('{"bullets": ["likes tea"]}')
        fake.chat_responses.append(FakeError(500, "boom"))
        fake.base_url                      # "http://127.0.0.1:PORT/v1"
        fake.fail_embeddings = 2           # the next two /embeddings answer 503
        fake.down = True                   # everything answers 503
        fake.requests                      # [(path, json_body), ...]

Endpoints: ``POST /v1/chat/completions`` (``"stream": true`` answers server-sent
``chat.completion.chunk`` events, one per word, then ``[DONE]``), ``POST /v1/embeddings``,
``POST /v1/rerank`` (scores = shared query words; ``rerank_shape``, ``rerank_replies``),
``GET /v1/models``. Chat replies come from ``chat_responses`` (a list used as
a queue; items are a reply string, a ``FakeError``, or a callable taking the
request JSON and returning either), then from ``default_chat`` when the queue
is empty. ``embedding_replies`` scripts raw embedding answers the same way
(a ``FakeError``, or any body to send with status 200). Otherwise embeddings are deterministic (neuromem's ``HashingEmbedder``) of
dimension ``dimensions`` from the request, else ``embedding_dim``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

from neuromem.embed.hashing import HashingEmbedder

__all__ = ["ChatItem", "FakeError", "FakeOpenAI"]


@dataclass(frozen=True)
class FakeError:
    """Answer one request with HTTP ``status`` and ``body`` (a string or a JSON-able object)."""

    status: int
    body: Any = "fake error"
    headers: tuple[tuple[str, str], ...] = ()


ChatReply = str | FakeError
ChatItem = ChatReply | Callable[[dict[str, Any]], ChatReply]


def _default_chat(request: dict[str, Any]) -> str:
    return "{}" if (request.get("response_format") or {}).get("type") == "json_object" else "OK"


class FakeOpenAI:
    """The fake server; use as a context manager or call ``start()`` / ``stop()``."""

    def __init__(self, *, embedding_dim: int = 384, api_key: str | None = None) -> None:
        self.embedding_dim = embedding_dim
        self.api_key = api_key  # when set, requests need "Authorization: Bearer <api_key>"
        self.chat_responses: list[ChatItem] = []
        self.default_chat: ChatItem = _default_chat
        self.embedding_replies: list[Any] = []  # scripted raw answers: a FakeError or a body sent with 200
        self.rerank_replies: list[Any] = []  # scripted /rerank answers, the same way
        self.rerank_shape = "cohere"  # or "tei": the bare-array answer of Hugging Face TEI
        self.fail_embeddings = 0
        self.ignore_dimensions = False  # True: answer embedding_dim even when the request asks otherwise
        self.down = False
        self.delay_s = 0.0  # sleep before answering (timeout tests)
        self.models = ["fake-chat", "fake-embed"]
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.last_headers: dict[str, str] = {}  # the headers of the last request
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._embedders: dict[int, HashingEmbedder] = {}
        self._ids = 0

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> Self:
        if self._server is not None:
            return self
        fake = self

        class Handler(_Handler):
            owner = fake

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not running; use it as a context manager or call start()")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- inspection helpers -------------------------------------------------------------------------

    def requests_to(self, endpoint: str) -> list[dict[str, Any]]:
        """JSON bodies of the requests whose path ends with ``endpoint`` (e.g. ``"embeddings"``)."""
        with self._lock:
            return [body for path, body in self.requests if path.endswith(endpoint)]

    def reset(self) -> None:
        """Forget recorded requests and scripted replies; switch failures off."""
        with self._lock:
            self.requests.clear()
            self.chat_responses.clear()
            self.embedding_replies.clear()
            self.fail_embeddings = 0
            self.down = False

    # -- request handling (called from server threads) --------------------------------------------------

    def _handle(
        self, method: str, path: str, body: dict[str, Any]
    ) -> tuple[int, Any, tuple[tuple[str, str], ...]]:
        with self._lock:
            self.requests.append((path, body))
            down = self.down
        if self.delay_s:
            time.sleep(self.delay_s)
        if down:
            return 503, _error("service unavailable (fake.down)", "server_error"), ()
        route = path.split("?", 1)[0].rstrip("/")
        if method == "GET" and route == "/v1/models":
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
            return 200, {"object": "list", "data": data}, ()
        if method == "POST" and route == "/v1/chat/completions":
            return self._chat(body)
        if method == "POST" and route == "/v1/embeddings":
            return self._embeddings(body)
        if method == "POST" and route in ("/v1/rerank", "/rerank"):
            return self._rerank(body)
        return 404, _error(f"no route for {method} {route}", "invalid_request_error"), ()

    def _chat(self, body: dict[str, Any]) -> tuple[int, Any, tuple[tuple[str, str], ...]]:
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return 400, _error("'messages' must be a non-empty list", "invalid_request_error"), ()
        with self._lock:
            item = self.chat_responses.pop(0) if self.chat_responses else self.default_chat
            self._ids += 1
            ident = self._ids
        reply = item(body) if callable(item) else item
        if isinstance(reply, FakeError):
            return reply.status, reply.body, reply.headers
        prompt_text = " ".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))
        prompt_tokens, completion_tokens = _tokens(prompt_text), _tokens(reply)
        if body.get("stream") is True:
            return 200, _stream_events(f"chatcmpl-fake-{ident}", body.get("model", "fake-chat"), reply), ()
        answer = {
            "id": f"chatcmpl-fake-{ident}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake-chat"),
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        return 200, answer, ()

    def _rerank(self, body: dict[str, Any]) -> tuple[int, Any, tuple[tuple[str, str], ...]]:
        """The /rerank shapes: Cohere/Jina/vLLM (``documents`` → ``{"results": …}``) or, with
        ``rerank_shape = "tei"``, TEI (``texts`` → a bare array). Scores are shared query words."""
        with self._lock:
            scripted = self.rerank_replies.pop(0) if self.rerank_replies else None
        if isinstance(scripted, FakeError):
            return scripted.status, scripted.body, scripted.headers
        if scripted is not None:
            return 200, scripted, ()
        docs = body.get("texts" if self.rerank_shape == "tei" else "documents")
        query = body.get("query")
        if not isinstance(query, str) or not isinstance(docs, list):
            return 400, _error("'query' and 'documents' are required", "invalid_request_error"), ()
        words = set(query.lower().split())
        scores = [len(words & set(str(d).lower().split())) / (1 + len(str(d).split())) for d in docs]
        order = sorted(range(len(docs)), key=lambda i: -scores[i])
        if self.rerank_shape == "tei":
            return 200, [{"index": i, "score": scores[i]} for i in order], ()
        return 200, {"results": [{"index": i, "relevance_score": scores[i]} for i in order]}, ()

    def _embeddings(self, body: dict[str, Any]) -> tuple[int, Any, tuple[tuple[str, str], ...]]:
        with self._lock:
            if self.fail_embeddings > 0:
                self.fail_embeddings -= 1
                return (
                    503,
                    _error("embeddings temporarily unavailable (fake.fail_embeddings)", "server_error"),
                    (),
                )
            scripted = self.embedding_replies.pop(0) if self.embedding_replies else None
        if isinstance(scripted, FakeError):
            return scripted.status, scripted.body, scripted.headers
        if scripted is not None:
            return 200, scripted, ()
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) and t for t in inputs):
            return (
                400,
                _error(
                    "'input' must be a non-empty string or list of non-empty strings", "invalid_request_error"
                ),
                (),
            )
        requested = body.get("dimensions")
        dim = self.embedding_dim if self.ignore_dimensions or not requested else int(requested)
        with self._lock:
            embedder = self._embedders.setdefault(dim, HashingEmbedder(dim=dim))
        vectors = embedder.embed_batch(inputs, kind="passage")
        tokens = sum(_tokens(t) for t in inputs)
        data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
        data.reverse()  # real servers do not promise order; clients must sort by index
        answer = {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake-embed"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
        return 200, answer, ()


class _Handler(BaseHTTPRequestHandler):
    owner: FakeOpenAI
    protocol_version = "HTTP/1.1"
    # headers and body go out in two writes: with Nagle's algorithm on, a keep-alive client waits for its
    # delayed ACK (~40 ms) before each body, and the fake would be slower than the upstream it stands for
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body: dict[str, Any] = {}
        if raw:
            try:
                parsed = json.loads(raw)
            except ValueError:
                self._send(400, _error("body is not JSON", "invalid_request_error"), ())
                return
            body = parsed if isinstance(parsed, dict) else {"_body": parsed}
        self.owner.last_headers = dict(self.headers.items())
        key = self.owner.api_key
        if key and self.headers.get("Authorization") != f"Bearer {key}":
            with self.owner._lock:
                self.owner.requests.append((self.path, body))
            self._send(401, _error("invalid api key", "invalid_request_error"), ())
            return
        try:
            status, payload, headers = self.owner._handle(method, self.path, body)
        except Exception as exc:  # a bug in a scripted callable: answer 500 so the test sees it
            status, payload, headers = 500, _error(f"fake server error: {exc!r}", "server_error"), ()
        self._send(status, payload, headers)

    def _send(self, status: int, payload: Any, headers: tuple[tuple[str, str], ...]) -> None:
        if isinstance(payload, SSE):
            self._send_events(payload)
            return
        is_text = isinstance(payload, str)
        data = payload.encode("utf-8") if is_text else json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8" if is_text else "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
            self.close_connection = True

    def _send_events(self, events: SSE) -> None:
        """A streamed answer: one server-sent event per chunk, in HTTP/1.1 chunked encoding."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for data in events.data:
                frame = f"data: {data}\n\n".encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
                self.wfile.flush()
                if events.gap_s:
                    time.sleep(events.gap_s)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass


@dataclass(frozen=True)
class SSE:
    """A streamed chat answer: the ``data:`` payloads of its server-sent events, in order."""

    data: tuple[str, ...]
    gap_s: float = 0.0


def _stream_events(ident: str, model: str, reply: str) -> SSE:
    """OpenAI's ``chat.completion.chunk`` events for ``reply``: a role delta, word deltas, a stop, ``[DONE]``."""
    created = int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return json.dumps(
            {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        )

    words = [w + " " for w in reply.split(" ")]
    words[-1] = words[-1][:-1]
    return SSE(
        (
            chunk({"role": "assistant", "content": ""}),
            *(chunk({"content": w}) for w in words if w),
            chunk({}, "stop"),
            "[DONE]",
        )
    )


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _tokens(text: str) -> int:
    """A rough token count: ~4 characters per token for Latin text, one per CJK character."""
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")
    return max(1, cjk + (len(text) - cjk + 3) // 4)
