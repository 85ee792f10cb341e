"""The service wing: the faces other programs talk to — the REST API (``service.api``), the MCP
server (``service.mcp``) and the memory page (``service.web``). All need the ``service`` extra.

This module is also the service's public door for operators and ``memctl`` (``serve``, ``mcp``,
``metrics``, ``openapi``, ``keys``): the verbs below. Importing it is cheap; each verb imports the
service when called, and ``serve``, ``ApiKey`` and ``KeyStore`` load on first use (PEP 562).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config import Settings
    from ..memory import Memory
    from .api.keys import ApiKey, KeyStore
    from .api.serve import serve

_LAZY = {"serve": ".api.serve", "ApiKey": ".api.keys", "KeyStore": ".api.keys"}  # name → its module

__all__ = [
    "ApiKey",
    "KeyStore",
    "key_store",
    "metrics_exposition",
    "openapi_document",
    "serve",
    "serve_mcp_stdio",
]


def serve_mcp_stdio(memory: Memory, settings: Settings) -> None:
    """Serve the MCP tools over stdio as the local operator, until the client closes the stream."""
    from .api import logs
    from .api.context import ServiceContext
    from .mcp.server import LOCAL_OPERATOR, build_server

    logs.configure(settings.service.log_json)  # stderr: stdout carries the protocol
    build_server(ServiceContext(memory, settings), local=LOCAL_OPERATOR).run("stdio")


def metrics_exposition(memory: Memory) -> bytes:
    """The database-side metrics (model calls and tokens, pending embeddings…) in Prometheus format."""
    from .api.metrics import store_exposition

    return store_exposition(memory)


def openapi_document(memory: Memory) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the REST API, the memory page's routes included."""
    from .api.app import create_app

    return create_app(memory, include_web=True).openapi()


def key_store(memory: Memory) -> KeyStore:
    """The API keys of ``memory``'s database."""
    from .api.keys import KeyStore

    return KeyStore(memory.runtime.db)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'neuromem.service' has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
