"""The service face's handles for ``memctl`` (issue 15), exported lazily by ``neuromem``.

The CLI imports only ``neuromem`` (issue 13; an import-linter contract): ``memctl serve``, ``mcp``,
``metrics``, ``openapi`` and ``keys`` reach the REST API, the MCP server and the key store through
these names. Each needs the ``service`` extra (``pip install 'neuromem[service]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .keys import ApiKey, KeyStore
from .serve import serve

if TYPE_CHECKING:
    from ...config import Settings
    from ...memory import Memory


def serve_mcp_stdio(memory: Memory, settings: Settings) -> None:
    """Serve the MCP tools over stdio as the local operator, until the client closes the stream."""
    from ..mcp.server import LOCAL_OPERATOR, build_server
    from . import logs
    from .context import ServiceContext

    logs.configure(settings.service.log_json)  # stderr: stdout carries the protocol
    build_server(ServiceContext(memory, settings), local=LOCAL_OPERATOR).run("stdio")


def metrics_exposition(memory: Memory) -> bytes:
    """The database-side metrics (model calls and tokens, pending embeddings…) in Prometheus format."""
    from .metrics import store_exposition

    return store_exposition(memory)


def openapi_document(memory: Memory) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the REST API, the memory page's routes included."""
    from .app import create_app

    return create_app(memory, include_web=True).openapi()


def key_store(memory: Memory) -> KeyStore:
    """The API keys of ``memory``'s database."""
    return KeyStore(memory.runtime.db)


__all__ = ["ApiKey", "KeyStore", "key_store", "metrics_exposition", "openapi_document", "serve", "serve_mcp_stdio"]
