"""A tiny neuromem service on 127.0.0.1 speaking the wire contract the CLI's remote client uses
(``GET /healthz``, ``POST /v1/search``, ``POST /v1/recall``, bearer token): real HTTP, canned
answers, every request recorded. It stands in for ``memctl serve`` in the CLI's tests.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Seen:
    method: str
    path: str
    authorization: str | None
    body: Any


@dataclass
class ServiceStub:
    token: str = "nm_test_token"
    hits: list[dict[str, Any]] = field(default_factory=list)
    block: dict[str, Any] = field(default_factory=lambda: {"text": "", "citations": []})
    requests: list[Seen] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> ServiceStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _answer(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                stub.requests.append(Seen("GET", self.path, self.headers.get("Authorization"), None))
                self._answer(200, {"status": "ok"}) if self.path == "/healthz" else self._answer(404, {})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                auth = self.headers.get("Authorization")
                stub.requests.append(Seen("POST", self.path, auth, body))
                if auth != f"Bearer {stub.token}":
                    self._answer(401, {"error": {"type": "AuthenticationError", "message": "bad API key"}})
                elif self.path == "/v1/search":
                    self._answer(200, {"hits": stub.hits[: body["limit"]]})
                elif self.path == "/v1/recall":
                    self._answer(200, stub.block)
                else:
                    self._answer(404, {"error": {"type": "NotFound", "message": self.path}})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
