"""The MCP server of neuromem (issue #15), on the official ``mcp`` SDK: ``neuromem.service.mcp.server``.

``memctl mcp`` serves it over stdio; ``memctl serve`` also serves it over streamable HTTP
at ``/mcp``. Needs ``pip install 'neuromem[service]'``.
"""
