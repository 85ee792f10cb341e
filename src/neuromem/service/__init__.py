"""The service wing: the faces other programs talk to — the REST API (``service.api``), the MCP
server (``service.mcp``) and the memory page (``service.web``). All need the ``service`` extra."""
