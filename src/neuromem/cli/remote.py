"""Run a command on a live ``memctl serve`` when one runs, instead of in this process.

A command that opens the store in-process pays for Python imports, the database connection
and the embedding model (≈1–3 s). A running service has all of it warm: the command then
costs one HTTP round trip. Reads (search, recall, list, history, documents list) and writes
(add, delete, documents upload/delete) go the same way. Where the service is:

1. ``NEUROMEM_SERVE_URL`` (with ``NEUROMEM_API_KEY`` as its bearer token): used as given; a
   failure is an error, never a silent fallback to another store.
2. Otherwise, on the embedded default only (no ``NEUROMEM_DATABASE_URL``), the ``serve.json``
   that ``memctl serve`` writes next to the data directory
   (``settings.store.data_dir.parent / "serve.json"``: ``{"url", "pid", "token"}``), if its
   process is alive and ``GET /healthz`` answers. A service that disappears between that
   check and the request makes the command run in-process instead.

When none runs, a command on the embedded default leaves one behind (``start_service``, unless
``service.auto_start`` is off): ``memctl serve --auto`` in its own session, on any free port,
which stops after ``service.idle_shutdown_s`` seconds without a request — as the embedded
PostgreSQL does — so the next command is fast. ``serve.lock`` keeps it to one per data directory.

The wire format is the service's REST API (docs/api.md), e.g. ``POST /v1/search``
``{"user_id", "query", "limit"}`` → ``{"hits": [{"memory": {...}, "score": {...}}]}``.

Only the standard library is imported here: this path must stay under a few tenths of a second.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from neuromem.admin import service_files

HEALTH_TIMEOUT_S = 0.5
REQUEST_TIMEOUT_S = 30.0


class RemoteUnavailable(Exception):
    """The service could not be reached (connection refused, reset or timed out)."""


class RemoteError(Exception):
    """The service answered with an error status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"the service answered {status}: {message}")
        self.status = status


@dataclass(frozen=True, slots=True)
class Remote:
    """A live neuromem service and how to authenticate to it."""

    url: str
    token: str | None = None
    explicit: bool = False  # named by NEUROMEM_SERVE_URL: failures are errors, not fallbacks

    def request(
        self,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
        timeout: float = REQUEST_TIMEOUT_S,
    ) -> Any:
        """One JSON request; returns the decoded answer."""
        import http.client
        from urllib.parse import urlsplit

        parts = urlsplit(self.url)
        conn_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = conn_class(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        try:
            conn.request(method, parts.path.rstrip("/") + path, body=payload, headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            raise RemoteUnavailable(f"{self.url}: {exc}") from exc
        finally:
            conn.close()
        if response.status >= 400:
            raise RemoteError(response.status, _error_message(data))
        return json.loads(data) if data else None

    def healthy(self) -> bool:
        try:
            self.request("GET", "/healthz", timeout=HEALTH_TIMEOUT_S)
        except (RemoteUnavailable, RemoteError, ValueError):
            return False
        return True

    def search(self, user_id: str, query: str, limit: int) -> list[dict[str, Any]]:
        answer = self.request("POST", "/v1/search", {"user_id": user_id, "query": query, "limit": limit})
        return list(answer.get("hits", []))

    def recall(self, user_id: str, query: str, token_budget: int) -> dict[str, Any]:
        return dict(
            self.request(
                "POST", "/v1/recall", {"user_id": user_id, "query": query, "token_budget": token_budget}
            )
        )

    def add(self, user_id: str, content: str, **fields: Any) -> list[dict[str, Any]]:
        body = {"user_id": user_id, "content": content, **{k: v for k, v in fields.items() if v is not None}}
        return list(self.request("POST", "/v1/memories", body))

    def list_memories(self, user_id: str, limit: int, as_of: str | None = None) -> list[dict[str, Any]]:
        query = {"user_id": user_id, "limit": limit, **({"as_of": as_of} if as_of else {})}
        return list(self.request("GET", f"/v1/memories?{urlencode(query)}"))

    def delete(self, user_id: str, memory_id: str) -> dict[str, Any]:
        return dict(
            self.request(
                "DELETE", f"/v1/memories/{quote(memory_id, safe='')}?{urlencode({'user_id': user_id})}"
            )
        )

    def history(self, user_id: str, memory_id: str) -> list[dict[str, Any]]:
        path = f"/v1/memories/{quote(memory_id, safe='')}/history?{urlencode({'user_id': user_id})}"
        return list(self.request("GET", path))

    def add_document(self, user_id: str, text: str, file_name: str, mime_type: str) -> dict[str, Any]:
        body = {"user_id": user_id, "text": text, "file_name": file_name, "mime_type": mime_type}
        return dict(self.request("POST", "/v1/documents", body))

    def list_documents(self, user_id: str) -> list[dict[str, Any]]:
        return list(self.request("GET", f"/v1/documents?{urlencode({'user_id': user_id, 'limit': 1000})}"))

    def delete_document(self, user_id: str, file_id: str) -> dict[str, Any]:
        return dict(
            self.request(
                "DELETE", f"/v1/documents/{quote(file_id, safe='')}?{urlencode({'user_id': user_id})}"
            )
        )


def find_remote(
    data_dir: Path, *, external_database: bool, environ: Mapping[str, str] | None = None
) -> Remote | None:
    """The live service to use, or None to run in-process (see the module docstring)."""
    env = os.environ if environ is None else environ
    url = env.get("NEUROMEM_SERVE_URL")
    if url:
        return Remote(url.rstrip("/"), env.get("NEUROMEM_API_KEY") or None, explicit=True)
    if external_database:
        return None
    try:
        info = json.loads(service_files(data_dir).info.read_text("utf-8"))
        remote = Remote(str(info["url"]).rstrip("/"), info.get("token") or None)
        pid = int(info["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _alive(pid) or not remote.healthy():
        return None
    return remote


def start_service(data_dir: Path, environ: Mapping[str, str] | None = None) -> int | None:
    """Start ``memctl serve --auto`` for ``data_dir`` in the background, unless one runs or starts
    already (``serve.lock`` is held) or the ``service`` extra is missing; its pid, or None."""
    import importlib.util
    import subprocess

    if any(importlib.util.find_spec(name) is None for name in ("fastapi", "uvicorn")):
        return None
    files = service_files(data_dir)
    if _locked(files.lock):
        return None
    files.log.parent.mkdir(parents=True, exist_ok=True)
    with open(files.log, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "neuromem.cli.main", "serve", "--auto"],
            env=dict(os.environ if environ is None else environ),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            close_fds=True,
        )
    return proc.pid


def stop_service(data_dir: Path) -> int | None:
    """Stop the service a command started for ``data_dir`` (``memctl server stop``); its pid, or None."""
    import time

    lock = service_files(data_dir).lock
    try:
        holder = json.loads(lock.read_text("utf-8"))
        pid = int(holder["pid"]) if holder.get("auto") else 0
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if pid <= 0 or not _locked(lock):
        return None
    try:
        os.kill(pid, 15)
    except OSError:
        return None
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pid


def _locked(path: Path) -> bool:
    """Whether a process holds ``path`` (a service's ``serve.lock``)."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by another user
        return True
    return True


def _error_message(data: bytes) -> str:
    try:
        body = json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace").strip()[:500]
    if isinstance(body, dict):
        detail = body.get("error", body.get("detail", body))
        if isinstance(detail, dict):
            kind, message = detail.get("type"), detail.get("message", detail)
            return f"{kind}: {message}" if kind else str(message)
        return str(detail)
    return str(body)
